//===- CudaRuntimeTest.cpp - CUDA runtime against a fake driver -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The CUDA build of the runtime, loading FakeCudaDriver.cpp as its driver:
// lazy per-context module loading, context switches only when needed, every
// operation on the caller's stream, and vendor errors as reported text.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "FakeCudaDriver.h"
#include "FakeDriverTest.h"
#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace sdfgrt;
using fakecuda::driver;

namespace {

const char kCubin[] = "fake cubin";

class CudaRuntimeTest : public TwoContextTest {
protected:
  void SetUp() override {
    TwoContextTest::SetUp();
    module = mgpuModuleLoad(const_cast<char *>(kCubin), sizeof(kCubin));
    kernel = mgpuModuleGetFunction(module, "kernel");
  }

  void TearDown() override {
    mgpuModuleUnload(module);
    TwoContextTest::TearDown();
  }

  void launch(void *stream, int32_t smem = 0) {
    mgpuLaunchKernel(kernel, 2, 1, 1, 32, 1, 1, smem, stream, nullptr, nullptr,
                     0);
  }

  /// Makes `context` current on this thread, as a framework would have.
  void makeCurrent(CUcontext context) {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxPushCurrent(context), CUDA_SUCCESS);
    driver().calls.clear();
  }

  void *module, *kernel;
};

TEST_F(CudaRuntimeTest, RegistrationDoesNotTouchTheDriver) {
  EXPECT_EQ(driver().totalCalls(), 0);
  EXPECT_EQ(countersForTesting().libraryOpens, 0);
}

TEST_F(CudaRuntimeTest, ModuleIsLoadedOncePerContextOfTheLaunchingStream) {
  launch(streamA);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  ASSERT_EQ(driver().loaded.size(), 1u);
  EXPECT_EQ(driver().loaded[0]->context, contextA);
  EXPECT_EQ(driver().loaded[0]->image, kCubin);
  EXPECT_EQ(driver().loaded[0]->jitOptimizationLevel, -1);
  ASSERT_EQ(driver().launches.size(), 1u);
  EXPECT_EQ(driver().launches[0].stream, streamA);
  EXPECT_EQ(driver().launches[0].context, contextA);
  EXPECT_EQ(driver().launches[0].kernel, "kernel");
  EXPECT_EQ(driver().launches[0].grid[0], 2u);
  EXPECT_EQ(driver().launches[0].block[0], 32u);
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 1);

  launch(streamA);
  EXPECT_EQ(driver().count("cuModuleLoadDataEx"), 1);
  EXPECT_EQ(driver().count("cuModuleGetFunction"), 1);
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 1);

  launch(streamB);
  ASSERT_EQ(driver().loaded.size(), 2u);
  EXPECT_EQ(driver().loaded[1]->context, contextB);
  EXPECT_EQ(driver().launches.back().context, contextB);
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 2);
  EXPECT_EQ(driver().count("cuInit"), 1);
  // The thread's context is left as it was found.
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaRuntimeTest, ContextIsSwitchedOnlyWhenNotCurrent) {
  makeCurrent(contextA);
  launch(streamA);
  launch(streamA);
  EXPECT_EQ(driver().count("cuCtxPushCurrent"), 0);
  EXPECT_EQ(driver().count("cuCtxPopCurrent"), 0);

  launch(streamB);
  EXPECT_EQ(driver().count("cuCtxPushCurrent"), 1);
  EXPECT_EQ(driver().count("cuCtxPopCurrent"), 1);
  EXPECT_EQ(driver().launches.back().context, contextB);
  EXPECT_EQ(fakecuda::currentContext(), contextA);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaRuntimeTest, DefaultStreamHandlesPassThroughInTheCurrentContext) {
  makeCurrent(contextB);
  for (CUstream stream :
       {CUstream(nullptr), CU_STREAM_LEGACY, CU_STREAM_PER_THREAD}) {
    launch(stream);
    ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
    EXPECT_EQ(driver().launches.back().stream, stream);
    EXPECT_EQ(driver().launches.back().context, contextB);
  }
  EXPECT_EQ(driver().count("cuStreamGetCtx"), 0);
  EXPECT_EQ(driver().count("cuCtxPushCurrent"), 0);
  EXPECT_EQ(driver().count("cuDevicePrimaryCtxRetain"), 0);
}

TEST_F(CudaRuntimeTest, DefaultStreamWithoutContextUsesDevice0sPrimary) {
  launch(nullptr);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().launches.back().context, fakecuda::context(0));
  launch(nullptr);
  EXPECT_EQ(driver().count("cuDevicePrimaryCtxRetain"), 1);
  EXPECT_EQ(driver().count("cuCtxPushCurrent"), 2);
  EXPECT_EQ(driver().count("cuCtxPopCurrent"), 2);
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
}

TEST_F(CudaRuntimeTest, LargeDynamicSharedMemoryIsOptedInto) {
  launch(streamA, 48 * 1024);
  EXPECT_EQ(driver().count("cuFuncSetAttribute"), 0);
  launch(streamA, 96 * 1024);
  EXPECT_EQ(driver().count("cuFuncSetAttribute"), 1);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().launches.back().smem, 96u * 1024);
}

TEST_F(CudaRuntimeTest, VendorErrorNamesCallCodeAndLocation) {
  makeCurrent(contextB);
  driver().failingCall = "cuLaunchKernel";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:12:5");
  launch(streamA);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid "
               "argument) at prog.mlir:12:5");
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(sdfgrtGetLastErrorName(), "CUDA_ERROR_INVALID_VALUE");
  EXPECT_STREQ(sdfgrtGetLastErrorLocation(), "prog.mlir:12:5");
  // The context switched to for the failed launch was restored.
  EXPECT_EQ(fakecuda::currentContext(), contextB);

  // The rest of the call is skipped: not a single driver call.
  int before = driver().totalCalls();
  int value = 0, other = 0;
  mgpuMemcpy(&value, &other, sizeof(value), streamB);
  launch(streamB);
  mgpuStreamSynchronize(streamB);
  EXPECT_EQ(driver().totalCalls(), before);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_VALUE);

  // After the call, operations run again.
  mgpuStreamSynchronize(streamB);
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 1);
  // Success does not erase the last error; the next call clears it.
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaRuntimeTest, FailedModuleLoadIsReportedAndRetried) {
  driver().failingCall = "cuModuleLoadDataEx";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  launch(streamA);
  // An empty error log adds nothing.
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_VALUE (invalid "
               "argument) at unknown location");
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 0);
  EXPECT_TRUE(driver().launches.empty());

  driver().failingCall.clear();
  sdfgrtClearError();
  launch(streamA);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 1);
  EXPECT_EQ(driver().launches.size(), 1u);
}

TEST_F(CudaRuntimeTest, FailedModuleLoadReportsTheDriversErrorLog) {
  static const char ptx[] = ".version 8.0";
  void *jit = mgpuModuleLoadJIT(const_cast<char *>(ptx), 2);
  driver().failingCall = "cuModuleLoadDataEx";
  driver().failure = CUDA_ERROR_INVALID_PTX;
  driver().moduleLoadErrorLog =
      "ptxas application ptx input, line 3; error   : Unknown symbol "
      "'missing'\nptxas fatal   : Ptx assembly aborted due to errors\n";
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:7:3");
  mgpuLaunchKernel(mgpuModuleGetFunction(jit, "kernel"), 1, 1, 1, 1, 1, 1, 0,
                   streamA, nullptr, nullptr, 0);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_PTX);
  // The log on one line, between the driver's words and the location.
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT "
               "compilation failed): ptxas application ptx input, line 3; "
               "error   : Unknown symbol 'missing' ptxas fatal   : Ptx "
               "assembly aborted due to errors at prog.mlir:7:3");
  EXPECT_TRUE(driver().launches.empty());
  mgpuModuleUnload(jit);

  // Binaries are loaded with the log buffer too (a linker error, an image
  // for another architecture).
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  driver().moduleLoadErrorLog = "no image for sm_90";
  sdfgrtBeginCall();
  launch(streamA);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(sdfgrtGetLastError())
                .find("(invalid argument): no image for sm_90 at "),
            std::string::npos)
      << sdfgrtGetLastError();
}

TEST_F(CudaRuntimeTest, LongModuleLoadLogIsCutAndKeepsTheLocation) {
  driver().failingCall = "cuModuleLoadDataEx";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  driver().moduleLoadErrorLog = std::string(100000, 'x');
  sdfgrtSetLocation("prog.mlir:9:1");
  launch(streamA);
  std::string text = sdfgrtGetLastError();
  size_t logged = std::count(text.begin(), text.end(), 'x');
  EXPECT_GT(logged, 100u);
  EXPECT_LT(logged, 1024u);
  const std::string location = " at prog.mlir:9:1";
  ASSERT_GT(text.size(), location.size());
  EXPECT_EQ(text.substr(text.size() - location.size()), location) << text;
}

TEST_F(CudaRuntimeTest, ANewContextUnderADestroyedOnesHandleLoadsAgain) {
  launch(streamA);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  // The driver reuses the destroyed context's handle for a new one.
  CUcontext again = fakecuda::recreateContext(1);
  ASSERT_EQ(again, contextA);
  CUstream fresh = fakecuda::createStream(again);
  launch(fresh);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  ASSERT_EQ(driver().loaded.size(), 2u);
  EXPECT_EQ(driver().loaded[1]->context, again);
  EXPECT_EQ(driver().loaded[1]->contextId, again->driverId);
  EXPECT_EQ(driver().launches.size(), 2u);
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 2);

  // The module of the destroyed context went with it: only the new one is
  // unloaded.
  mgpuModuleUnload(module);
  module = nullptr;
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  ASSERT_EQ(driver().unloaded.size(), 1u);
  EXPECT_EQ(driver().unloaded[0], driver().loaded[1]);
}

TEST_F(CudaRuntimeTest, ANewContextUnderADestroyedOnesHandleGetsNewEvents) {
  CUstream otherA = fakecuda::createStream(contextA);
  ASSERT_EQ(sdfgrtStreamWaitStream(otherA, streamA), 0)
      << sdfgrtGetLastError();
  ASSERT_EQ(driver().count("cuEventCreate"), 1);
  // The idle event went with its context.
  CUcontext again = fakecuda::recreateContext(1);
  CUstream first = fakecuda::createStream(again);
  CUstream second = fakecuda::createStream(again);
  EXPECT_EQ(sdfgrtStreamWaitStream(second, first), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuEventCreate"), 2);
  ASSERT_EQ(driver().records.size(), 2u);
  EXPECT_EQ(driver().records[1].event->contextId, again->driverId);
}

TEST_F(CudaRuntimeTest, AStreamTheDriverDoesNotKnowFailsBeforeAnyWork) {
  static char notAStream[64];
  auto garbage = reinterpret_cast<CUstream>(notAStream);
  char expected[512];
  snprintf(expected, sizeof(expected),
           "cuStreamGetCtx failed: CUDA_ERROR_INVALID_HANDLE (invalid "
           "resource handle): %p is not a stream the driver knows (never "
           "created, destroyed, or of a destroyed context) at prog.mlir:4:2",
           static_cast<void *>(garbage));
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:4:2");
  launch(garbage);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_STREQ(sdfgrtGetLastError(), expected);
  EXPECT_TRUE(driver().launches.empty());
  EXPECT_EQ(driver().count("cuModuleLoadDataEx"), 0);

  int32_t device = 7;
  EXPECT_EQ(sdfgrtStreamDevice(garbage, &device), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(device, -1);

  // A stream of a destroyed context is no stream either.
  fakecuda::recreateContext(1);
  int value = 1, copy = 0;
  sdfgrtBeginCall();
  mgpuMemcpy(&copy, &value, sizeof(value), streamA);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(copy, 0);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("is not a stream"),
            std::string::npos)
      << sdfgrtGetLastError();
}

TEST_F(CudaRuntimeTest, ACallAsksForItsStreamsContextOnce) {
  makeCurrent(contextA);
  // Five launches and two copies of one program call: the stream's context
  // and the context's id are asked once (the bench's driver-call profile saw
  // one query of each per operation), the current context per operation.
  static float host[64], device[64];
  for (int call = 0; call < 2; ++call) {
    sdfgrtBeginCall();
    mgpuMemcpy(device, host, sizeof(host), streamA);
    for (int i = 0; i < 5; ++i)
      launch(streamA);
    mgpuMemcpy(host, device, sizeof(host), streamA);
    ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  }
  EXPECT_EQ(driver().launches.size(), 10u);
  EXPECT_EQ(driver().count("cuStreamGetCtx"), 2); // once per call
  EXPECT_EQ(driver().count("cuCtxGetId"), 2);
  EXPECT_EQ(driver().count("cuCtxGetCurrent"), 14);
  // A second stream in the same call is asked about in turn.
  driver().calls.clear();
  sdfgrtBeginCall();
  launch(streamA);
  launch(streamB);
  launch(streamA);
  ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuStreamGetCtx"), 3);
  EXPECT_EQ(driver().launches.back().context, contextA);
  // Outside a program call every operation asks (and validates the handle).
  driver().calls.clear();
  launch(streamA);
  launch(streamA);
  EXPECT_EQ(driver().count("cuStreamGetCtx"), 2);
}

TEST_F(CudaRuntimeTest, UnknownErrorCodeStillGetsAMessage) {
  driver().failingCall = "cuStreamSynchronize";
  driver().failure = CUDA_ERROR_LAUNCH_FAILED;
  mgpuStreamSynchronize(streamA);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUDA_ERROR_LAUNCH_FAILED);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuStreamSynchronize failed: unknown CUDA error (no "
               "description) at unknown location");
}

TEST_F(CudaRuntimeTest, MemoryOperationsRunOnTheGivenStream) {
  auto *data =
      static_cast<uint8_t *>(mgpuMemAlloc(64, streamA, /*isHostShared=*/false));
  ASSERT_NE(data, nullptr) << sdfgrtGetLastError();
  EXPECT_EQ(driver().lastMemoryStream, streamA);
  // The fake driver's device memory is host memory, and fresh: give every
  // byte a known value, so that the byte after each memset shows it wrote
  // no more than asked (malloc need not return zeros; ASan fills with 0xbe).
  std::memset(data, 0x11, 64);

  mgpuMemset32(data, 0xdeadbeef, 4, streamB);
  EXPECT_EQ(driver().lastMemoryStream, streamB);
  uint32_t word;
  std::memcpy(&word, data + 12, sizeof(word));
  EXPECT_EQ(word, 0xdeadbeefu);

  mgpuMemset16(data + 16, 0xabcd, 2, streamA);
  uint16_t half;
  std::memcpy(&half, data + 18, sizeof(half));
  EXPECT_EQ(half, 0xabcd);

  sdfgrtMemset8(data + 20, 0x5a, 3, streamA);
  EXPECT_EQ(data[22], 0x5a);
  EXPECT_EQ(data[23], 0x11);

  char host[] = "copied";
  mgpuMemcpy(data + 32, host, sizeof(host), streamA);
  EXPECT_STREQ(reinterpret_cast<char *>(data + 32), "copied");

  mgpuStreamSynchronize(streamA);
  mgpuMemFree(data, streamB);
  EXPECT_EQ(driver().lastMemoryStream, streamB);
  EXPECT_EQ(driver().count("cuMemAllocAsync"), 1);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 1);
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 1);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaRuntimeTest, OverlappingCopyIsAMemmove) {
  char data[] = "0123456789";
  mgpuMemcpy(data + 2, data, 6, streamA);
  EXPECT_STREQ(data, "0101234589") << sdfgrtGetLastError();
  mgpuMemcpy(data, data + 3, 6, streamA);
  EXPECT_STREQ(data, "1234584589") << sdfgrtGetLastError();
  // Through a temporary: allocated, two copies, freed, all on the stream.
  EXPECT_EQ(driver().count("cuMemAllocAsync"), 2);
  EXPECT_EQ(driver().count("cuMemcpyAsync"), 4);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 2);
  EXPECT_EQ(driver().lastMemoryStream, streamA);

  // Copying a range onto itself does nothing.
  mgpuMemcpy(data, data, 4, streamA);
  EXPECT_EQ(driver().count("cuMemcpyAsync"), 4);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaRuntimeTest, JitModuleGetsTheOptimizationLevel) {
  static const char ptx[] = ".version 8.0";
  void *jit = mgpuModuleLoadJIT(const_cast<char *>(ptx), 3);
  mgpuLaunchKernel(mgpuModuleGetFunction(jit, "kernel"), 1, 1, 1, 1, 1, 1, 0,
                   streamA, nullptr, nullptr, 0);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  ASSERT_EQ(driver().loaded.size(), 1u);
  EXPECT_EQ(driver().loaded[0]->jitOptimizationLevel, 3);
  EXPECT_EQ(driver().count("cuModuleLoadDataEx"), 1);
  mgpuModuleUnload(jit);
}

TEST_F(CudaRuntimeTest, ClusterLaunchPassesTheClusterShape) {
  mgpuLaunchClusterKernel(kernel, 2, 1, 1, 8, 1, 1, 128, 1, 1, 0, streamA,
                          nullptr, nullptr, 0);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().launches.back().cluster[0], 2u);
  EXPECT_EQ(driver().launches.back().grid[0], 8u);
  EXPECT_EQ(driver().count("cuFuncSetAttribute"), 0);

  // More than 8 blocks per cluster needs the non-portable opt-in.
  mgpuLaunchClusterKernel(kernel, 16, 1, 1, 32, 1, 1, 128, 1, 1, 0, streamA,
                          nullptr, nullptr, 0);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().launches.back().cluster[0], 16u);
  EXPECT_EQ(driver().count("cuFuncSetAttribute"), 1);
}

TEST_F(CudaRuntimeTest, UnloadUnloadsInEveryContext) {
  launch(streamA);
  launch(streamB);
  makeCurrent(contextB);
  mgpuModuleUnload(module);
  module = nullptr;
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  ASSERT_EQ(driver().unloaded.size(), 2u);
  EXPECT_EQ(driver().unloaded[0]->context, contextA);
  EXPECT_EQ(driver().unloaded[1]->context, contextB);
  // Only the context that was not current needed a switch.
  EXPECT_EQ(driver().count("cuCtxPushCurrent"), 1);
  EXPECT_EQ(fakecuda::currentContext(), contextB);
}

TEST_F(CudaRuntimeTest, InitFailureIsReportedAndRemembered) {
  driver().initResult = CUDA_ERROR_NO_DEVICE;
  sdfgrtSetLocation("prog.mlir:1:1");
  launch(streamA);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUDA_ERROR_NO_DEVICE);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device "
               "is detected) at prog.mlir:1:1");
  EXPECT_STREQ(sdfgrtGetLastErrorName(), "CUDA_ERROR_NO_DEVICE");
  sdfgrtClearError();
  EXPECT_STREQ(sdfgrtGetLastErrorName(), "");
  EXPECT_STREQ(sdfgrtGetLastErrorLocation(), "");
  sdfgrtSetLocation("prog.mlir:2:1");
  launch(streamA);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUDA_ERROR_NO_DEVICE);
  EXPECT_STREQ(sdfgrtGetLastErrorName(), "CUDA_ERROR_NO_DEVICE");
  EXPECT_STREQ(sdfgrtGetLastErrorLocation(), "prog.mlir:2:1");
  EXPECT_EQ(driver().count("cuInit"), 1);
  EXPECT_EQ(countersForTesting().libraryOpens, 1);
}

TEST_F(CudaRuntimeTest, ConcurrentFirstLaunchesLoadOnce) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      for (int j = 0; j < 50; ++j)
        launch(j % 2 ? streamA : streamB);
      EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 2);
  EXPECT_EQ(driver().launches.size(), 400u);
}

TEST_F(CudaRuntimeTest, StreamWaitsForAnotherWithOneRecordAndOneWait) {
  ASSERT_EQ(sdfgrtStreamWaitStream(streamB, streamA), 0)
      << sdfgrtGetLastError();
  ASSERT_EQ(driver().records.size(), 1u);
  EXPECT_EQ(driver().records[0].stream, streamA);
  // Recorded in A's context, waited for in B's (the fake insists).
  EXPECT_EQ(driver().records[0].event->context, contextA);
  EXPECT_TRUE(driver().records[0].event->flags & CU_EVENT_DISABLE_TIMING);
  ASSERT_EQ(driver().waits.size(), 1u);
  EXPECT_EQ(driver().waits[0].stream, streamB);
  EXPECT_EQ(driver().waits[0].event, driver().records[0].event);
  EXPECT_EQ(driver().waits[0].eventStream, streamA);
  // The host never waits.
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 0);
  EXPECT_EQ(driver().count("cuCtxSynchronize"), 0);
  EXPECT_EQ(driver().count("cuEventSynchronize"), 0);
  EXPECT_EQ(fakecuda::currentContext(), nullptr);

  // The event is reused by the next wait.
  ASSERT_EQ(sdfgrtStreamWaitStream(streamA, streamB), 0)
      << sdfgrtGetLastError();
  ASSERT_EQ(sdfgrtStreamWaitStream(streamB, streamA), 0)
      << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuEventCreate"), 2);
  EXPECT_EQ(driver().count("cuEventRecord"), 3);
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), 3);
}

TEST_F(CudaRuntimeTest, StreamWaitingForItselfDoesNothing) {
  EXPECT_EQ(sdfgrtStreamWaitStream(streamA, streamA), 0);
  EXPECT_EQ(sdfgrtStreamWaitStream(nullptr, nullptr), 0);
  EXPECT_EQ(driver().totalCalls(), 0);
  EXPECT_EQ(countersForTesting().libraryOpens, 0);
}

TEST_F(CudaRuntimeTest, StreamWaitFailureIsReturned) {
  driver().failingCall = "cuStreamWaitEvent";
  driver().failure = CUDA_ERROR_INVALID_HANDLE;
  sdfgrtSetLocation("prog.mlir:1:1");
  EXPECT_EQ(sdfgrtStreamWaitStream(streamB, streamA),
            CUDA_ERROR_INVALID_HANDLE);
  // Between program calls, the last program location is not the culprit.
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuStreamWaitEvent failed: CUDA_ERROR_INVALID_HANDLE (invalid "
               "resource handle) at unknown location");
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
}

TEST_F(CudaRuntimeTest, StreamDeviceIsItsContextsDevice) {
  int32_t device = -7;
  EXPECT_EQ(sdfgrtStreamDevice(streamA, &device), 0) << sdfgrtGetLastError();
  EXPECT_EQ(device, 0);
  EXPECT_EQ(sdfgrtStreamDevice(streamB, &device), 0) << sdfgrtGetLastError();
  EXPECT_EQ(device, 1);
  // The default stream without a current context: device 0's primary one.
  EXPECT_EQ(sdfgrtStreamDevice(nullptr, &device), 0) << sdfgrtGetLastError();
  EXPECT_EQ(device, 0);
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
  // With a current context, the default streams are that context's.
  makeCurrent(fakecuda::context(3));
  for (CUstream stream :
       {CUstream(nullptr), CU_STREAM_LEGACY, CU_STREAM_PER_THREAD}) {
    device = -7;
    EXPECT_EQ(sdfgrtStreamDevice(stream, &device), 0) << sdfgrtGetLastError();
    EXPECT_EQ(device, 1);
  }

  driver().failingCall = "cuCtxGetDevice";
  driver().failure = CUDA_ERROR_INVALID_CONTEXT;
  EXPECT_EQ(sdfgrtStreamDevice(streamA, &device), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(device, -1);
  EXPECT_EQ(fakecuda::currentContext(), fakecuda::context(3));
}

//===----------------------------------------------------------------------===//
// sdfgrtCheckDevicePointer: data of another device fails the call early
//===----------------------------------------------------------------------===//

TEST_F(CudaRuntimeTest, DeviceMemoryOfTheStreamsDevicePasses) {
  // Contexts 0 and 1 are both on device 0: the context does not matter.
  CUstream otherContextSameDevice = fakecuda::createStream(fakecuda::context(0));
  void *mine = mgpuMemAlloc(64, streamA, false);
  void *sameDevice = mgpuMemAlloc(64, otherContextSameDevice, false);
  ASSERT_NE(mine, nullptr);
  ASSERT_NE(sameDevice, nullptr);
  sdfgrtBeginCall();
  sdfgrtCheckDevicePointer(mine, streamA, 0);
  sdfgrtCheckDevicePointer(static_cast<char *>(sameDevice) + 16, streamA, 1);
  launch(streamA);
  EXPECT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuPointerGetAttributes"), 2);
  EXPECT_EQ(driver().launches.size(), 1u);
  mgpuMemFree(mine, streamA);
  mgpuMemFree(sameDevice, otherContextSameDevice);
}

TEST_F(CudaRuntimeTest, DeviceMemoryOfAnotherDeviceFailsTheCallBeforeItsWork) {
  void *theirs = mgpuMemAlloc(64, streamB, false); // device 1
  ASSERT_NE(theirs, nullptr);
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:3:1");
  sdfgrtCheckDevicePointer(theirs, streamA, 2); // stream on device 0
  launch(streamA);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "argument 2 is memory of device 1, but the stream belongs to "
               "device 0 at prog.mlir:3:1");
  EXPECT_TRUE(driver().launches.empty()) << "the call's work ran anyway";
  mgpuMemFree(theirs, streamB);
}

TEST_F(CudaRuntimeTest, ManagedHostUnknownAndNullPointersPass) {
  static char managed[64], host[64];
  driver().allocations[reinterpret_cast<uintptr_t>(managed)] = {
      sizeof(managed), /*device=*/1, /*managed=*/true};
  sdfgrtBeginCall();
  sdfgrtCheckDevicePointer(managed, streamA, 0);
  sdfgrtCheckDevicePointer(host, streamA, 1);
  sdfgrtCheckDevicePointer(nullptr, streamA, 2);
  EXPECT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  // NULL needs no query.
  EXPECT_EQ(driver().count("cuPointerGetAttributes"), 2);
}

TEST_F(CudaRuntimeTest, DeviceCheckFailureOfTheDriverIsReturned) {
  void *mine = mgpuMemAlloc(64, streamA, false);
  driver().failingCall = "cuPointerGetAttributes";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  sdfgrtBeginCall();
  sdfgrtCheckDevicePointer(mine, streamA, 0);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("cuPointerGetAttributes"),
            std::string::npos)
      << sdfgrtGetLastError();
  driver().failingCall.clear();
  mgpuMemFree(mine, streamA);
}

} // namespace
