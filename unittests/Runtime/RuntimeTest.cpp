//===- RuntimeTest.cpp - Runtime behaviour without a vendor library -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Runs against both runtime builds with the vendor library pointed at a path
// that does not exist: registration, handles, call nesting and error
// reporting must all work (and never crash) on a machine without a driver.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <thread>

using namespace sdfgrt;

namespace {

constexpr const char *kMissingLibrary = "/nonexistent/libsdfgrt-no-driver.so";
const char kBlob[] = "not a real kernel binary";

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv(libraryEnvironmentVariableForTesting(), kMissingLibrary, 1);
    resetForTesting();
  }
  void TearDown() override {
    unsetenv(libraryEnvironmentVariableForTesting());
    resetForTesting();
  }

  static void *loadModule() {
    return mgpuModuleLoad(const_cast<char *>(kBlob), sizeof(kBlob));
  }
  static void synchronize() { mgpuStreamSynchronize(nullptr); }
  static Counters counters() { return countersForTesting(); }
};

TEST_F(RuntimeTest, RegisteringModulesDoesNoVendorWork) {
  void *module = loadModule();
  void *jit = mgpuModuleLoadJIT(const_cast<char *>(kBlob), 3);
  ASSERT_NE(module, nullptr);
  ASSERT_NE(jit, nullptr);
  EXPECT_NE(mgpuModuleGetFunction(module, "kernel"), nullptr);
  EXPECT_NE(mgpuModuleGetFunction(jit, "kernel"), nullptr);
  mgpuModuleUnload(module);
  mgpuModuleUnload(jit);

  Counters c = counters();
  EXPECT_EQ(c.libraryOpens, 0);
  EXPECT_EQ(c.vendorCalls, 0);
  EXPECT_EQ(c.operations, 0);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0);
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 0);
}

TEST_F(RuntimeTest, FunctionHandlesAreStable) {
  void *module = loadModule();
  void *other = loadModule();
  void *a = mgpuModuleGetFunction(module, "kernel_a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(mgpuModuleGetFunction(module, "kernel_a"), a);
  // The same name at another address (not the generated constant).
  std::string copy = "kernel_a";
  EXPECT_EQ(mgpuModuleGetFunction(module, copy.c_str()), a);

  void *b = mgpuModuleGetFunction(module, "kernel_b");
  EXPECT_NE(b, a);
  EXPECT_EQ(mgpuModuleGetFunction(module, "kernel_b"), b);
  EXPECT_EQ(mgpuModuleGetFunction(module, "kernel_a"), a);
  EXPECT_NE(mgpuModuleGetFunction(other, "kernel_a"), a);

  void *fromThread = nullptr;
  std::thread([&] {
    fromThread = mgpuModuleGetFunction(module, "kernel_a");
  }).join();
  EXPECT_EQ(fromThread, a);

  EXPECT_EQ(mgpuModuleGetFunction(nullptr, "kernel_a"), nullptr);
  EXPECT_EQ(mgpuModuleGetFunction(module, nullptr), nullptr);
  mgpuModuleUnload(module);
  mgpuModuleUnload(other);
  mgpuModuleUnload(nullptr);
}

TEST_F(RuntimeTest, MissingLibraryIsAnErrorNamingIt) {
  sdfgrtSetLocation("prog.mlir:12:5");
  synchronize();
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  std::string text = sdfgrtGetLastError();
  EXPECT_EQ(
      text.rfind(std::string(kMissingLibrary) + " could not be loaded: ", 0),
      0u)
      << text;
  EXPECT_NE(text.find("No such file or directory"), std::string::npos) << text;
  EXPECT_TRUE(endsWith(text, " at prog.mlir:12:5")) << text;
  EXPECT_EQ(counters().libraryOpens, 1);
}

/// The vendor library's default names, comma separated, as the runtime
/// reports them when none loads; empty if one of them is installed here.
static std::string missingDefaultLibraryNames() {
  std::string names;
  for (const char *name : libraryNamesForTesting()) {
    if (void *handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(handle);
      return "";
    }
    names.append(names.empty() ? "" : ", ").append(name);
  }
  return names;
}

TEST_F(RuntimeTest, DefaultLibraryNamesAreReported) {
  std::string names = missingDefaultLibraryNames();
  if (names.empty())
    GTEST_SKIP() << "a default vendor library is installed here";
  unsetenv(libraryEnvironmentVariableForTesting());
  synchronize();
  std::string text = sdfgrtGetLastError();
  EXPECT_EQ(text.rfind(names + " could not be loaded: ", 0), 0u) << text;
  EXPECT_NE(text.find(libraryEnvironmentVariableForTesting()),
            std::string::npos)
      << text;
  EXPECT_TRUE(endsWith(text, " at unknown location")) << text;
}

TEST_F(RuntimeTest, AnEmptyLibraryVariableIsNoOverride) {
  // dlopen("") opens the program itself ("cuInit could not be resolved
  // in "): set but empty counts as unset, the default names are tried.
  std::string names = missingDefaultLibraryNames();
  if (names.empty())
    GTEST_SKIP() << "a default vendor library is installed here";
  setenv(libraryEnvironmentVariableForTesting(), "", 1);
  synchronize();
  std::string text = sdfgrtGetLastError();
  EXPECT_EQ(text.rfind(names + " could not be loaded: ", 0), 0u) << text;
}

TEST_F(RuntimeTest, LibraryWithoutTheEntryPointsIsAnError) {
  setenv(libraryEnvironmentVariableForTesting(), "libm.so.6", 1);
  int value = 0, other = 0;
  mgpuMemcpy(&value, &other, sizeof(value), nullptr);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  std::string text = sdfgrtGetLastError();
  EXPECT_NE(text.find("could not be resolved in libm.so.6"), std::string::npos)
      << text;
  EXPECT_EQ(counters().vendorCalls, 0);
}

TEST_F(RuntimeTest, OperationsAfterAFailureInACallAreSkipped) {
  void *module = loadModule();
  void *kernel = mgpuModuleGetFunction(module, "kernel");
  int value = 0, other = 0;
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:3:1");
  mgpuMemcpy(&value, &other, sizeof(value), nullptr);
  Counters first = counters();
  EXPECT_EQ(first.operations, 1);
  EXPECT_EQ(first.libraryOpens, 1);
  std::string firstError = sdfgrtGetLastError();
  EXPECT_TRUE(endsWith(firstError, " at prog.mlir:3:1")) << firstError;

  sdfgrtSetLocation("prog.mlir:4:1");
  mgpuMemset32(&value, 1, 1, nullptr);
  mgpuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  mgpuLaunchClusterKernel(kernel, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, nullptr,
                          nullptr, nullptr, 0);
  EXPECT_EQ(mgpuMemAlloc(16, nullptr, false), nullptr);
  EXPECT_EQ(mgpuMemAlloc(16, nullptr, true), nullptr);
  mgpuMemFree(&value, nullptr);
  synchronize();

  EXPECT_EQ(counters().operations, 1);
  EXPECT_EQ(counters().libraryOpens, 1);
  EXPECT_EQ(sdfgrtGetLastError(), firstError);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  mgpuModuleUnload(module);
}

TEST_F(RuntimeTest, OutsideACallEveryOperationRunsAndReports) {
  synchronize();
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  sdfgrtClearError();
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0);
  EXPECT_STREQ(sdfgrtGetLastError(), "");

  sdfgrtSetLocation("other.mlir:2:2");
  synchronize();
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_TRUE(endsWith(sdfgrtGetLastError(), " at other.mlir:2:2"));
  EXPECT_EQ(counters().operations, 2);
  // The failure to load is remembered, not retried on every operation.
  EXPECT_EQ(counters().libraryOpens, 1);
}

TEST_F(RuntimeTest, CallsNest) {
  sdfgrtBeginCall();
  sdfgrtBeginCall();
  synchronize();
  // The inner end reports the failure and does not clear it.
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  // Still inside the outer call: skipped.
  synchronize();
  EXPECT_EQ(counters().operations, 1);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_STRNE(sdfgrtGetLastError(), "");

  // A new outermost call starts clean.
  sdfgrtBeginCall();
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0);
  EXPECT_STREQ(sdfgrtGetLastError(), "");
  sdfgrtBeginCall();
  EXPECT_EQ(sdfgrtEndCall(), 0);
  EXPECT_EQ(sdfgrtEndCall(), 0);
  // Unbalanced ends are harmless.
  EXPECT_EQ(sdfgrtEndCall(), 0);
}

TEST_F(RuntimeTest, EmptyRequestsDoNothing) {
  int value = 0;
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr);
  mgpuMemFree(nullptr, nullptr);
  mgpuMemcpy(&value, &value, 0, nullptr);
  mgpuMemset32(&value, 1, 0, nullptr);
  mgpuMemset16(&value, 1, 0, nullptr);
  sdfgrtMemset8(&value, 1, 0, nullptr);
  EXPECT_EQ(counters().operations, 0);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0);
}

TEST_F(RuntimeTest, ErrorsArePerThread) {
  sdfgrtBeginCall();
  int32_t otherCode = 0;
  std::thread([&] {
    synchronize();
    otherCode = sdfgrtGetLastErrorCode();
  }).join();
  EXPECT_EQ(otherCode, kRuntimeFailure);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0);
  EXPECT_EQ(sdfgrtEndCall(), 0);
}

TEST_F(RuntimeTest, TimersWithoutALibraryFailVisiblyAndCountNothing) {
  void *call = sdfgrtTimerBegin("prog");
  ASSERT_NE(call, nullptr);
  // No pending call to resolve: beginning needs no vendor library.
  EXPECT_EQ(counters().libraryOpens, 0);
  sdfgrtTimerRecordBegin(call, nullptr);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find(kMissingLibrary),
            std::string::npos)
      << sdfgrtGetLastError();
  sdfgrtTimerRecordEnd(call, nullptr);
  sdfgrtTimerEnd(call);

  double milliseconds = -1;
  int64_t calls = -1, pending = -1;
  EXPECT_EQ(sdfgrtTimerQuery("prog", 1, &milliseconds, &calls, &pending), 0)
      << sdfgrtGetLastError();
  EXPECT_EQ(milliseconds, 0);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(pending, 0);
  EXPECT_EQ(sdfgrtTimerQuery("unknown", 1, nullptr, nullptr, nullptr),
            kRuntimeFailure);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("\"unknown\""),
            std::string::npos)
      << sdfgrtGetLastError();
  sdfgrtTimerReset(nullptr);
  EXPECT_EQ(sdfgrtTimerQuery("prog", 0, nullptr, nullptr, nullptr),
            kRuntimeFailure);
}

TEST_F(RuntimeTest, TimerHandleInsideAFailedCallRecordsNothing) {
  sdfgrtBeginCall();
  synchronize();
  int64_t operations = counters().operations;
  void *call = sdfgrtTimerBegin("prog");
  ASSERT_NE(call, nullptr);
  sdfgrtTimerRecordBegin(call, nullptr);
  sdfgrtTimerRecordEnd(call, nullptr);
  sdfgrtTimerEnd(call);
  EXPECT_EQ(counters().operations, operations);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  // The call never began: the program is not known.
  EXPECT_EQ(sdfgrtTimerQuery("prog", 0, nullptr, nullptr, nullptr),
            kRuntimeFailure);
}

TEST_F(RuntimeTest, StreamOrderingWithoutALibraryIsAnError) {
  void *a = reinterpret_cast<void *>(0x1000);
  void *b = reinterpret_cast<void *>(0x2000);
  EXPECT_EQ(sdfgrtStreamWaitStream(a, a), 0);
  EXPECT_EQ(counters().libraryOpens, 0);
  EXPECT_EQ(sdfgrtStreamWaitStream(a, b), kRuntimeFailure);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find(kMissingLibrary),
            std::string::npos)
      << sdfgrtGetLastError();
  int32_t device = 5;
  EXPECT_EQ(sdfgrtStreamDevice(nullptr, &device), kRuntimeFailure);
  EXPECT_EQ(device, -1);
}

TEST_F(RuntimeTest, StreamSlotsWithoutALibraryAreAnError) {
  void *caller = reinterpret_cast<void *>(0x1000);
  void *slots[3] = {};
  // The count is checked before the library is needed.
  EXPECT_EQ(sdfgrtForkStreams(caller, 0, slots), kRuntimeFailure);
  EXPECT_EQ(sdfgrtReserveStreams(caller, kMaxStreamSlots + 1), kRuntimeFailure);
  EXPECT_EQ(counters().libraryOpens, 0);
  // One slot is the caller: no library either.
  EXPECT_EQ(sdfgrtForkStreams(caller, 1, slots), 0);
  EXPECT_EQ(slots[0], caller);
  EXPECT_EQ(counters().libraryOpens, 0);

  EXPECT_EQ(sdfgrtForkStreams(caller, 3, slots), kRuntimeFailure);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find(kMissingLibrary),
            std::string::npos)
      << sdfgrtGetLastError();
  for (void *slot : slots)
    EXPECT_EQ(slot, caller);
  EXPECT_EQ(sdfgrtReserveStreams(caller, 3), kRuntimeFailure);
}

#if defined(SDFGRT_VENDOR_HIP)
TEST_F(RuntimeTest, ClusterLaunchIsUnsupportedOnHip) {
  void *module = loadModule();
  void *kernel = mgpuModuleGetFunction(module, "kernel");
  mgpuLaunchClusterKernel(kernel, 2, 1, 1, 4, 1, 1, 64, 1, 1, 0, nullptr,
                          nullptr, nullptr, 0);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  std::string text = sdfgrtGetLastError();
  EXPECT_NE(text.find("not supported by HIP"), std::string::npos) << text;
  EXPECT_EQ(counters().libraryOpens, 0);
  mgpuModuleUnload(module);
}

TEST_F(RuntimeTest, TensorMapsAreUnsupportedOnHip) {
  float data[16];
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes[1], strides[1];
  } view{data, data, 0, {16}, {1}};
  int64_t box[] = {16};
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(1, &view, 7, 0, 0, 0, 0, box),
            nullptr);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  std::string text = sdfgrtGetLastError();
  EXPECT_NE(text.find("TMA descriptors"), std::string::npos) << text;
  EXPECT_EQ(counters().libraryOpens, 0);
}
#endif

} // namespace
