//===- FailFastTest.cpp - A failed call leaves at once, freeing its memory ===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The programs of fail-fast.mlir, compiled by sdfg-compile into two program
// libraries (each with its own copy of the static runtime): as the pipeline
// builds them, and with --test-omit-failure-exits, the negative control in
// which a failed call runs its host code to the end. Both drive
// FakeCudaDriver.cpp, which fails every call of a chosen driver function.
// Built with the integration tests (it needs sdfg-compile) and run by
// test/tools/sdfg-compile/fail-fast.test.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include "gtest/gtest.h"

#include <dlfcn.h>
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using fakecuda::driver;

namespace {

/// MLIR's descriptor of a ranked memref of rank `Rank` (StridedMemRefType).
template <typename T, int Rank> struct Memref {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};
template <typename T> struct Memref<T, 0> {
  T *allocated;
  T *aligned;
  int64_t offset;
};
template <typename T> Memref<T, 0> scalar(T *value) {
  return {value, value, 0};
}
template <typename T> Memref<T, 1> vector(T *data, int64_t size) {
  return {data, data, 0, {size}, {1}};
}

using WaitForFlag = int32_t (*)(Memref<int64_t, 0> *, int64_t, void *);
using Transients = int32_t (*)(int64_t, Memref<int32_t, 0> *, void *);
using TransientsValue = float (*)(int64_t, Memref<int32_t, 0> *, void *);
using CallsNested = int32_t (*)(Memref<int32_t, 0> *, void *);
using SdfgNested = int32_t (*)(Memref<float, 1> *, Memref<float, 0> *,
                               Memref<int32_t, 0> *, void *);
using LastError = const char *(*)();
using LastErrorCode = int32_t (*)();

/// One program library and its entries.
struct Programs {
  explicit Programs(const char *path) {
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return;
    waitForFlag = entry<WaitForFlag>("_mlir_ciface_wait_for_flag");
    transients = entry<Transients>("_mlir_ciface_transients");
    transientsValue =
        entry<TransientsValue>("_mlir_ciface_transients_value");
    callsNested = entry<CallsNested>("_mlir_ciface_calls_nested");
    sdfgNested = entry<SdfgNested>("_mlir_ciface_sdfg_nested");
    lastError = entry<LastError>("sdfgrtGetLastError");
    lastErrorCode = entry<LastErrorCode>("sdfgrtGetLastErrorCode");
  }
  template <typename F> F entry(const char *name) {
    return reinterpret_cast<F>(dlsym(handle, name));
  }
  bool complete() const {
    return handle && waitForFlag && transients && transientsValue &&
           callsNested && sdfgNested && lastError && lastErrorCode;
  }

  void *handle = nullptr;
  WaitForFlag waitForFlag = nullptr;
  Transients transients = nullptr;
  TransientsValue transientsValue = nullptr;
  CallsNested callsNested = nullptr;
  SdfgNested sdfgNested = nullptr;
  LastError lastError = nullptr;
  LastErrorCode lastErrorCode = nullptr;
};

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Bytes the host heap has handed out and not taken back.
size_t heapInUse() { return mallinfo2().uordblks; }

class FailFastTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    setenv("SDFGRT_CUDA_LIBRARY", SDFGRT_FAKE_CUDA_LIBRARY, 1);
    exits = new Programs(SDFG_FAIL_FAST_PROGRAMS);
    noExits = new Programs(SDFG_FAIL_FAST_PROGRAMS_NO_EXITS);
    stream = fakecuda::createStream(fakecuda::context(0));
  }

  void SetUp() override {
    ASSERT_TRUE(exits->complete()) << SDFG_FAIL_FAST_PROGRAMS;
    ASSERT_TRUE(noExits->complete()) << SDFG_FAIL_FAST_PROGRAMS_NO_EXITS;
  }

  void TearDown() override {
    driver().failingCall.clear();
    driver().failure = CUDA_SUCCESS;
    // Nothing a call allocated outlives it, failed or not.
    EXPECT_TRUE(driver().allocations.empty());
  }

  static void fail(const char *call, CUresult failure) {
    driver().failingCall = call;
    driver().failure = failure;
  }

  static Programs *exits, *noExits;
  static CUstream stream;
};

Programs *FailFastTest::exits;
Programs *FailFastTest::noExits;
CUstream FailFastTest::stream;

TEST_F(FailFastTest, WaitLoopRunsWhenNothingFails) {
  // The fake GPU never sets the flag: the loop copies it back `limit` times.
  for (Programs *programs : {exits, noExits}) {
    int64_t copies = -1;
    Memref<int64_t, 0> copiesRef = scalar(&copies);
    EXPECT_EQ(programs->waitForFlag(&copiesRef, 50, stream), 0);
    EXPECT_EQ(copies, 50);
  }
}

/// Calls @wait_for_flag of both libraries while every call of `driverCall`
/// fails: the program leaves at once, having made `copiesBeforeExit` copies
/// (the failing one included); the control without exits spins on a flag
/// no copy fetches (a million times here; forever without the limit).
void expectWaitLoopEnds(Programs *exits, Programs *noExits, CUstream stream,
                        const char *driverCall, int copiesBeforeExit) {
  const int64_t limit = 1000000;
  int before = driver().count("cuMemcpyAsync");
  int64_t copies = -1;
  Memref<int64_t, 0> copiesRef = scalar(&copies);
  EXPECT_EQ(exits->waitForFlag(&copiesRef, limit, stream),
            CUDA_ERROR_INVALID_VALUE);
  // The host code after the failure never ran: no more copies, no store.
  EXPECT_EQ(copies, -1);
  EXPECT_EQ(driver().count("cuMemcpyAsync") - before, copiesBeforeExit);
  EXPECT_TRUE(contains(exits->lastError(), std::string(driverCall) +
                                               " failed"));
  EXPECT_TRUE(contains(exits->lastError(), "fail-fast.mlir:"));

  EXPECT_EQ(noExits->waitForFlag(&copiesRef, limit, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(copies, limit);
}

TEST_F(FailFastTest, WaitLoopEndsAtAFailedLaunch) {
  fail("cuLaunchKernel", CUDA_ERROR_INVALID_VALUE);
  expectWaitLoopEnds(exits, noExits, stream, "cuLaunchKernel", 0);
}

TEST_F(FailFastTest, WaitLoopEndsAtAFailedCopyInsideIt) {
  fail("cuMemcpyAsync", CUDA_ERROR_INVALID_VALUE);
  expectWaitLoopEnds(exits, noExits, stream, "cuMemcpyAsync", 1);
}

TEST_F(FailFastTest, FailedCallsLeakNothing) {
  fail("cuLaunchKernel", CUDA_ERROR_INVALID_VALUE);
  const int64_t elements = 16384; // 64 KiB on the GPU and on the host
  int allocationsBefore = driver().count("cuMemAllocAsync");
  int freesBefore = driver().count("cuMemFreeAsync");
  size_t heapBefore = heapInUse();
  for (int call = 0; call < 1000; ++call) {
    int32_t done = 0;
    Memref<int32_t, 0> doneRef = scalar(&done);
    ASSERT_EQ(exits->transients(elements, &doneRef, stream),
              CUDA_ERROR_INVALID_VALUE);
    ASSERT_EQ(done, 0);
    // The GPU transient was freed on the caller's stream.
    ASSERT_TRUE(driver().allocations.empty()) << "call " << call;
    ASSERT_EQ(driver().lastMemoryStream, stream);
  }
  EXPECT_EQ(driver().count("cuMemAllocAsync") - allocationsBefore, 1000);
  EXPECT_EQ(driver().count("cuMemFreeAsync") - freesBefore, 1000);
  // The host transient too: 1000 leaked ones would be 64 MB.
  EXPECT_LT(heapInUse(), heapBefore + (1u << 20));
}

TEST_F(FailFastTest, FailedCallsOfAFunctionReturningAValueLeakNothing) {
  // Right first: the host code runs to the end.
  const int64_t elements = 16384;
  int32_t done = 0;
  Memref<int32_t, 0> doneRef = scalar(&done);
  exits->transientsValue(elements, &doneRef, stream);
  ASSERT_EQ(exits->lastErrorCode(), CUDA_SUCCESS) << exits->lastError();
  ASSERT_EQ(done, 1);

  fail("cuLaunchKernel", CUDA_ERROR_INVALID_VALUE);
  size_t heapBefore = heapInUse();
  for (int call = 0; call < 1000; ++call) {
    done = 0;
    exits->transientsValue(elements, &doneRef, stream);
    // The failure is the last error; the host code after it did not run,
    // and both transients went back.
    ASSERT_EQ(exits->lastErrorCode(), CUDA_ERROR_INVALID_VALUE);
    ASSERT_EQ(done, 0) << "call " << call;
    ASSERT_TRUE(driver().allocations.empty()) << "call " << call;
  }
  EXPECT_LT(heapInUse(), heapBefore + (1u << 20));
  EXPECT_TRUE(contains(exits->lastError(), "fail-fast.mlir:"));

  // Negative control: without the failure exits the host code runs on.
  done = 0;
  noExits->transientsValue(elements, &doneRef, stream);
  EXPECT_EQ(noExits->lastErrorCode(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(done, 1);
}

TEST_F(FailFastTest, NestedFailureReturnsThroughItsCaller) {
  fail("cuLaunchKernel", CUDA_ERROR_INVALID_VALUE);
  int32_t after = 0;
  Memref<int32_t, 0> afterRef = scalar(&after);
  EXPECT_EQ(exits->callsNested(&afterRef, stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(after, 0); // the caller stopped right after the nested call
  EXPECT_TRUE(contains(exits->lastError(), "cuLaunchKernel failed"));

  EXPECT_EQ(noExits->callsNested(&afterRef, stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(after, 7);
}

TEST_F(FailFastTest, LibraryNodeFailureReturnsThroughNestedPrograms) {
  float data[64] = {};
  float sum = 0;
  Memref<float, 1> x = vector(data, 64);
  Memref<float, 0> sumRef = scalar(&sum);
  int32_t after = 0;
  Memref<int32_t, 0> afterRef = scalar(&after);
  EXPECT_EQ(exits->sdfgNested(&x, &sumRef, &afterRef, stream), 0);
  EXPECT_EQ(after, 7);

  fail("cuLaunchKernel", CUDA_ERROR_INVALID_VALUE);
  after = 0;
  EXPECT_EQ(exits->sdfgNested(&x, &sumRef, &afterRef, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(after, 0);

  EXPECT_EQ(noExits->sdfgNested(&x, &sumRef, &afterRef, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(after, 7);
}

} // namespace

/// The program libraries stay loaded (their static runtime has unique C++
/// symbols, so dlclose keeps them) and unload their kernels when the
/// process exits, after the fake driver's statics are gone, which a real
/// driver's never are. So the test ends without running exit handlers.
int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int result = RUN_ALL_TESTS();
  std::fflush(nullptr);
  std::_Exit(result);
}
