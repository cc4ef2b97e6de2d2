//===- HostApiTest.cpp - The host API on a program library and fake driver ===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfgstream::Library (HostAPI.h) loading HostApiTestPrograms.cpp, a program
// library built like an sdfg-compile output, whose runtime copy drives
// FakeCudaDriver.cpp: the default stream, the stream passed to programs,
// rebinding (one event record and one wait, never a sync), the device check,
// CPU programs, timers of the library's runtime, and errors. This test links
// no runtime: it reaches the library's, as any host does.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/HostAPI.h"

#include "FakeCudaDriver.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using fakecuda::driver;
using sdfgstream::Library;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

class HostApiTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("SDFGRT_CUDA_LIBRARY", SDFGRT_FAKE_CUDA_LIBRARY, 1);
    // The test's own handle of the program library: its test hook.
    programs = dlopen(SDFGRT_HOST_API_TEST_PROGRAMS, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(programs, nullptr) << dlerror();
    resetRuntime = reinterpret_cast<void (*)()>(
        dlsym(programs, "hostApiTestResetRuntime"));
    ASSERT_NE(resetRuntime, nullptr);
    fakecuda::reset();
    resetRuntime();
    streamA = fakecuda::createStream(fakecuda::context(0));
    streamA2 = fakecuda::createStream(fakecuda::context(1));
    streamB = fakecuda::createStream(fakecuda::context(2));
  }

  void TearDown() override {
    driver().failingCall.clear();
    resetRuntime();
    fakecuda::reset();
    dlclose(programs);
    unsetenv("SDFGRT_CUDA_LIBRARY");
  }

  void *programs = nullptr;
  void (*resetRuntime)() = nullptr;
  // A and A2 are on device 0 (two contexts), B on device 1.
  CUstream streamA, streamA2, streamB;
};

TEST_F(HostApiTest, ProgramsRunOnTheDefaultStreamUntilOneIsSet) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  EXPECT_EQ(lib.externalGpuStream(), nullptr);
  EXPECT_EQ(lib.device(), -1);
  int64_t counter = 0;
  ASSERT_EQ(lib.tryCall("launch", &counter, int64_t(3)), 0) << lib.lastError();
  EXPECT_EQ(counter, 3);
  ASSERT_EQ(driver().launches.size(), 1u);
  EXPECT_EQ(driver().launches[0].stream, nullptr);
  // No current context: device 0's primary one, as the runtime defines.
  EXPECT_EQ(driver().launches[0].context, fakecuda::context(0));
  EXPECT_EQ(lib.device(), 0);
  EXPECT_EQ(lib.lastErrorCode(), 0);
}

TEST_F(HostApiTest, ProgramsGetTheStreamThatIsSet) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  lib.setExternalGpuStream(streamA);
  EXPECT_EQ(lib.externalGpuStream(), streamA);
  EXPECT_EQ(lib.device(), 0);
  int64_t counter = 0;
  lib.call("launch", &counter, int64_t(1));
  lib.call("launch", &counter, int64_t(1));
  EXPECT_EQ(counter, 2);
  ASSERT_EQ(driver().launches.size(), 2u);
  EXPECT_EQ(driver().launches[1].stream, streamA);
  EXPECT_EQ(driver().launches[1].context, fakecuda::context(0));
  // Setting the stream before any call orders nothing.
  EXPECT_EQ(driver().count("cuEventRecord"), 0);
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), 0);
}

TEST_F(HostApiTest, RebindingWaitsWithOneRecordAndOneWaitAndNoSync) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  lib.setExternalGpuStream(streamA);
  int64_t counter = 0;
  lib.call("launch", &counter, int64_t(1));
  int before = driver().totalCalls();

  lib.setExternalGpuStream(streamA2);
  ASSERT_EQ(driver().records.size(), 1u);
  EXPECT_EQ(driver().records[0].stream, streamA);
  ASSERT_EQ(driver().waits.size(), 1u);
  EXPECT_EQ(driver().waits[0].stream, streamA2);
  EXPECT_EQ(driver().waits[0].event, driver().records[0].event);
  EXPECT_EQ(driver().count("cuEventRecord"), 1);
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), 1);
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 0);
  EXPECT_EQ(driver().count("cuCtxSynchronize"), 0);
  EXPECT_EQ(driver().count("cuEventSynchronize"), 0);
  EXPECT_GT(driver().totalCalls(), before);

  lib.call("launch", &counter, int64_t(1));
  EXPECT_EQ(driver().launches.back().stream, streamA2);
  EXPECT_EQ(driver().launches.back().context, fakecuda::context(1));

  // The same stream again does nothing at all.
  before = driver().totalCalls();
  lib.setExternalGpuStream(streamA2);
  EXPECT_EQ(driver().totalCalls(), before);

  // Back and forth without a call: only the first move waits for A2.
  lib.setExternalGpuStream(nullptr);
  lib.setExternalGpuStream(streamA2);
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), 2);
  ASSERT_EQ(driver().waits.size(), 2u);
  EXPECT_EQ(driver().waits[1].stream, nullptr);
  EXPECT_EQ(driver().waits[1].eventStream, streamA2);
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 0);
}

TEST_F(HostApiTest, StreamOfAnotherDeviceIsRejected) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  lib.setExternalGpuStream(streamA);
  int64_t counter = 0;
  lib.call("launch", &counter, int64_t(1));
  try {
    lib.setExternalGpuStream(streamB);
    FAIL() << "a stream of device 1 was accepted";
  } catch (const sdfgstream::Error &error) {
    EXPECT_EQ(error.code(), Library::kFailure);
    EXPECT_TRUE(contains(error.what(),
                         "belongs to device 1, but the "
                         "programs of " SDFGRT_HOST_API_TEST_PROGRAMS
                         " run on device 0"))
        << error.what();
    EXPECT_EQ(lib.lastError(), error.what());
  }
  // The binding is unchanged, and nothing was ordered.
  EXPECT_EQ(lib.externalGpuStream(), streamA);
  EXPECT_EQ(lib.device(), 0);
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), 0);
  EXPECT_EQ(lib.trySetExternalGpuStream(streamB), Library::kFailure);

  // The first stream chooses the device: device 1 for a new Library.
  Library other(SDFGRT_HOST_API_TEST_PROGRAMS);
  other.setExternalGpuStream(streamB);
  EXPECT_EQ(other.device(), 1);
  EXPECT_EQ(other.trySetExternalGpuStream(streamA), Library::kFailure);
}

TEST_F(HostApiTest, CpuProgramsTakeNoStream) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  lib.setExternalGpuStream(streamA);
  int before = driver().totalCalls();
  int64_t value = 40;
  lib.callCpu("cpu_add", &value, int64_t(2));
  EXPECT_EQ(value, 42);
  EXPECT_EQ(driver().totalCalls(), before);
  // A CPU call is no GPU work: rebinding after it orders nothing.
  lib.setExternalGpuStream(streamA2);
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), 0);
}

TEST_F(HostApiTest, FailedCallThrowsTheRuntimesText) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  lib.setExternalGpuStream(streamA);
  driver().failingCall = "cuLaunchKernel";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  const char *expected = "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE "
                         "(invalid argument) at host-api.mlir:4:5";
  int64_t counter = 0;
  EXPECT_EQ(lib.tryCall("launch", &counter, int64_t(1)),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(lib.lastErrorCode(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(lib.lastError(), expected);
  try {
    lib.call("launch", &counter, int64_t(1));
    FAIL() << "no exception";
  } catch (const sdfgstream::Error &error) {
    EXPECT_EQ(error.code(), CUDA_ERROR_INVALID_VALUE);
    EXPECT_STREQ(error.what(), expected);
  }
}

TEST_F(HostApiTest, StreamCheckFailureIsReported) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  driver().failingCall = "cuStreamGetCtx";
  driver().failure = CUDA_ERROR_INVALID_HANDLE;
  EXPECT_EQ(lib.trySetExternalGpuStream(streamA), CUDA_ERROR_INVALID_HANDLE);
  char expected[256];
  snprintf(expected, sizeof(expected),
           "cuStreamGetCtx failed: CUDA_ERROR_INVALID_HANDLE (invalid "
           "resource handle): %p is not a stream the driver knows (never "
           "created, destroyed, or of a destroyed context) at unknown "
           "location",
           static_cast<void *>(streamA));
  EXPECT_EQ(lib.lastError(), expected);
  EXPECT_EQ(lib.externalGpuStream(), nullptr);
}

TEST_F(HostApiTest, TimersAreTheLibrarysOwn) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  lib.setExternalGpuStream(streamA);
  for (int i = 0; i < 3; ++i) {
    lib.call("timed_launch");
    driver().now += 2;
  }
  sdfgstream::TimerTotals totals = lib.queryTimer("timed_launch");
  EXPECT_EQ(totals.calls, 3);
  EXPECT_EQ(totals.pending, 0);
  // Each call's begin and end were recorded at the same fake time.
  EXPECT_DOUBLE_EQ(totals.milliseconds, 0);

  lib.resetTimers();
  try {
    lib.queryTimer("timed_launch");
    FAIL() << "no exception";
  } catch (const sdfgstream::Error &error) {
    EXPECT_EQ(error.code(), Library::kFailure);
    EXPECT_TRUE(contains(error.what(), "\"timed_launch\"")) << error.what();
  }
}

TEST_F(HostApiTest, ReservedStreamsAreMadeOnce) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  EXPECT_EQ(lib.tryReserveStreams(3), Library::kFailure);
  EXPECT_TRUE(contains(lib.lastError(), "no stream is set")) << lib.lastError();
  EXPECT_TRUE(driver().createdStreams.empty());

  lib.setExternalGpuStream(streamA2);
  lib.reserveStreams(3);
  ASSERT_EQ(driver().createdStreams.size(), 2u);
  for (CUstream created : driver().createdStreams)
    EXPECT_NE(created, streamA2);
  // Held by this thread now: asking again creates nothing.
  lib.reserveStreams(3);
  EXPECT_EQ(driver().createdStreams.size(), 2u);
}

TEST_F(HostApiTest, GraphModeIsTheLibrarysOwn) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  lib.setExternalGpuStream(streamA2);
  driver().kernelParams["kernel"] = {};
  lib.call("graph_launch");
  lib.call("graph_launch");
  sdfgrtGraphStats stats = lib.graphStats();
  EXPECT_EQ(stats.builds, 1);
  EXPECT_EQ(stats.replays, 1);
  EXPECT_EQ(stats.programs, 1);
  EXPECT_EQ(driver().graphLaunches, 2);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 0);
  // Off: the next call is eager.
  ASSERT_EQ(lib.trySetGraphMode("graph_launch", 0), 0);
  lib.call("graph_launch");
  EXPECT_EQ(driver().count("cuLaunchKernel"), 1);
  EXPECT_EQ(lib.tryReleaseGraphs(), 0);
  EXPECT_EQ(lib.graphStats().programs, 0);
  EXPECT_EQ(driver().graphExecsLive, 0);
  ASSERT_EQ(lib.trySetGraphMode(nullptr, 1), 0);
}

TEST_F(HostApiTest, MissingLibraryIsAnError) {
  try {
    Library lib("/nonexistent/libprograms.so");
    FAIL() << "no exception";
  } catch (const sdfgstream::Error &error) {
    EXPECT_EQ(error.code(), Library::kFailure);
    EXPECT_TRUE(contains(error.what(), "program library "
                                       "/nonexistent/libprograms.so could not "
                                       "be loaded: "))
        << error.what();
    EXPECT_TRUE(contains(error.what(), "No such file or directory"))
        << error.what();
  }
}

TEST_F(HostApiTest, LibraryWithoutTheRuntimeIsRejected) {
  try {
    Library lib("libm.so.6");
    FAIL() << "no exception";
  } catch (const sdfgstream::Error &error) {
    EXPECT_STREQ(error.what(), "libm.so.6 is not an SDFGStream program "
                               "library of this version: it lacks "
                               "sdfgrtGetLastError");
  }
}

TEST_F(HostApiTest, MissingProgramIsAnError) {
  Library lib(SDFGRT_HOST_API_TEST_PROGRAMS);
  EXPECT_EQ(lib.tryCall("nope"), Library::kFailure);
  EXPECT_EQ(lib.lastError(), "program \"nope\" not found in " +
                                 std::string(SDFGRT_HOST_API_TEST_PROGRAMS) +
                                 " (no symbol _mlir_ciface_nope)");
  EXPECT_THROW(lib.callCpu("nope"), sdfgstream::Error);
  EXPECT_EQ(driver().totalCalls(), 0);
}

TEST_F(HostApiTest, LibraryMovesWithItsBinding) {
  Library first(SDFGRT_HOST_API_TEST_PROGRAMS);
  first.setExternalGpuStream(streamA);
  int64_t counter = 0;
  first.call("launch", &counter, int64_t(1));
  Library second(std::move(first));
  EXPECT_EQ(second.externalGpuStream(), streamA);
  second.setExternalGpuStream(streamA2);
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), 1);
  second.call("launch", &counter, int64_t(1));
  EXPECT_EQ(counter, 2);
}

} // namespace
