//===- CudaTimerTest.cpp - Timers of the CUDA runtime on a fake driver ----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The timer ABI (sdfgrtTimer*) that sdfg-instrument-timers emits calls to,
// against FakeCudaDriver.cpp, whose events carry the times and completion the
// test sets: totals, resolution without waiting, waiting on events only, spans
// over several streams, capture, event reuse, reset and errors.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "FakeCudaDriver.h"
#include "FakeDriverTest.h"
#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace sdfgrt;
using fakecuda::driver;

namespace {

struct Totals {
  int32_t status;
  double milliseconds;
  int64_t calls;
  int64_t pending;
};

Totals query(const char *program, bool wait = false) {
  Totals totals = {};
  totals.status = sdfgrtTimerQuery(program, wait, &totals.milliseconds,
                                   &totals.calls, &totals.pending);
  return totals;
}

class CudaTimerTest : public TwoContextTest {
protected:
  void SetUp() override {
    TwoContextTest::SetUp();
    streamA2 = fakecuda::createStream(contextA);
  }

  /// A timed call of `program` on `stream` that takes `milliseconds` of the
  /// fake's GPU time, as instrumented code makes it.
  static void timedCall(const char *program, CUstream stream,
                        double milliseconds) {
    void *call = sdfgrtTimerBegin(program);
    sdfgrtTimerRecordBegin(call, stream);
    driver().now += milliseconds;
    sdfgrtTimerRecordEnd(call, stream);
    sdfgrtTimerEnd(call);
  }

  CUstream streamA2;
};

TEST_F(CudaTimerTest, TotalsAccumulatePerProgramName) {
  timedCall("prog", streamA, 1);
  timedCall("prog", streamB, 2);
  timedCall("other", streamA, 10);
  // The same text at another address is the same program.
  std::string name = "prog";
  timedCall(name.c_str(), streamA, 4);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();

  Totals prog = query("prog");
  EXPECT_EQ(prog.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(prog.calls, 3);
  EXPECT_EQ(prog.pending, 0);
  EXPECT_DOUBLE_EQ(prog.milliseconds, 7);
  Totals other = query("other");
  EXPECT_EQ(other.calls, 1);
  EXPECT_DOUBLE_EQ(other.milliseconds, 10);
  // Every record ran in its stream's context (the fake insists), and the
  // thread's context is left as it was.
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
  // Any output may be left out.
  EXPECT_EQ(sdfgrtTimerQuery("prog", 0, nullptr, nullptr, nullptr), 0);
}

TEST_F(CudaTimerTest, PendingCallIsResolvedAtTheNextBeginWithoutWaiting) {
  driver().eventsCompleteWhenRecorded = false;
  timedCall("prog", streamA, 5);
  Totals before = query("prog");
  EXPECT_EQ(before.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(before.calls, 0);
  EXPECT_EQ(before.pending, 1);

  // Still running: the next begin asks and leaves it pending.
  void *second = sdfgrtTimerBegin("prog");
  EXPECT_GE(driver().count("cuEventQuery"), 1);
  EXPECT_EQ(driver().count("cuEventElapsedTime"), 0);

  // Once its end event has completed, the next begin resolves it.
  fakecuda::completeEvents();
  void *third = sdfgrtTimerBegin("prog");
  EXPECT_EQ(driver().count("cuEventElapsedTime"), 1);
  EXPECT_EQ(driver().count("cuEventSynchronize"), 0);
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 0);
  sdfgrtTimerEnd(second);
  sdfgrtTimerEnd(third);
  EXPECT_EQ(driver().count("cuEventElapsedTime"), 1);

  Totals after = query("prog");
  EXPECT_EQ(after.calls, 1);
  EXPECT_EQ(after.pending, 0);
  EXPECT_DOUBLE_EQ(after.milliseconds, 5);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaTimerTest, WaitSynchronizesEventsNeverStreamsOrContexts) {
  driver().eventsCompleteWhenRecorded = false;
  timedCall("prog", streamA, 3);
  timedCall("prog", streamB, 4);
  EXPECT_EQ(query("prog").pending, 2);

  Totals totals = query("prog", /*wait=*/true);
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.calls, 2);
  EXPECT_EQ(totals.pending, 0);
  EXPECT_DOUBLE_EQ(totals.milliseconds, 7);
  EXPECT_EQ(driver().count("cuEventSynchronize"), 2);
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 0);
  EXPECT_EQ(driver().count("cuCtxSynchronize"), 0);
}

TEST_F(CudaTimerTest, SpanRunsFromTheEarliestBeginToTheLatestEnd) {
  // Two streams of one context. A is busy, so its begin event completes
  // after A2's: measured from A's begin, A2's begin is negative.
  void *call = sdfgrtTimerBegin("prog");
  driver().now = 10;
  sdfgrtTimerRecordBegin(call, streamA);
  driver().now = 4;
  sdfgrtTimerRecordBegin(call, streamA2);
  driver().now = 12;
  sdfgrtTimerRecordEnd(call, streamA2);
  driver().now = 15;
  sdfgrtTimerRecordEnd(call, streamA);
  sdfgrtTimerEnd(call);
  Totals totals = query("prog");
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.calls, 1);
  EXPECT_DOUBLE_EQ(totals.milliseconds, 11);
}

TEST_F(CudaTimerTest, CallOnSeveralContextsCountsItsLongestSpan) {
  void *call = sdfgrtTimerBegin("prog");
  driver().now = 0;
  sdfgrtTimerRecordBegin(call, streamA);
  driver().now = 1;
  sdfgrtTimerRecordBegin(call, streamB);
  driver().now = 3;
  sdfgrtTimerRecordEnd(call, streamA);
  driver().now = 9;
  sdfgrtTimerRecordEnd(call, streamB);
  sdfgrtTimerEnd(call);
  Totals totals = query("prog");
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.calls, 1);
  // Events of different contexts are never compared (the fake would
  // refuse); B's span, 8 ms, is the longer one.
  EXPECT_DOUBLE_EQ(totals.milliseconds, 8);
}

TEST_F(CudaTimerTest, RepeatedStreamIsIgnored) {
  void *call = sdfgrtTimerBegin("prog");
  sdfgrtTimerRecordBegin(call, streamA);
  driver().now += 1;
  sdfgrtTimerRecordBegin(call, streamA);
  EXPECT_EQ(driver().count("cuEventRecord"), 1);
  driver().now += 2;
  sdfgrtTimerRecordEnd(call, streamA);
  sdfgrtTimerEnd(call);
  Totals totals = query("prog");
  EXPECT_EQ(totals.calls, 1);
  EXPECT_DOUBLE_EQ(totals.milliseconds, 3);
  EXPECT_EQ(driver().count("cuEventCreate"), 2);
}

TEST_F(CudaTimerTest, CapturedStreamIsNotTimed) {
  streamA->capturing = true;
  timedCall("prog", streamA, 5);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuEventRecord"), 0);
  EXPECT_EQ(driver().count("cuEventCreate"), 0);
  Totals totals = query("prog");
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.calls, 0);
  EXPECT_EQ(totals.pending, 0);

  // A call with one captured stream is not timed either; the event of its
  // other stream goes back to the pool.
  void *call = sdfgrtTimerBegin("prog");
  sdfgrtTimerRecordBegin(call, streamB);
  sdfgrtTimerRecordBegin(call, streamA);
  sdfgrtTimerRecordEnd(call, streamB);
  sdfgrtTimerRecordEnd(call, streamA);
  sdfgrtTimerEnd(call);
  EXPECT_EQ(driver().count("cuEventRecord"), 1);
  EXPECT_EQ(query("prog").calls, 0);

  streamA->capturing = false;
  timedCall("prog", streamB, 2);
  totals = query("prog");
  EXPECT_EQ(totals.calls, 1);
  EXPECT_DOUBLE_EQ(totals.milliseconds, 2);
  // The released event was reused as this call's begin event.
  EXPECT_EQ(driver().count("cuEventCreate"), 2);
}

TEST_F(CudaTimerTest, EventsArePooledAndReused) {
  for (int i = 0; i < 100; ++i)
    timedCall("prog", streamA, 1);
  EXPECT_EQ(driver().count("cuEventCreate"), 2);

  // While calls lag behind, more events are in use at once...
  driver().eventsCompleteWhenRecorded = false;
  for (int i = 0; i < 10; ++i)
    timedCall("prog", streamA, 1);
  EXPECT_EQ(driver().count("cuEventCreate"), 20);
  fakecuda::completeEvents();
  // ...and reused once they are resolved.
  driver().eventsCompleteWhenRecorded = true;
  for (int i = 0; i < 100; ++i)
    timedCall("prog", streamA, 1);
  EXPECT_EQ(driver().count("cuEventCreate"), 20);
  EXPECT_EQ(driver().count("cuEventDestroy"), 0);
  Totals totals = query("prog");
  EXPECT_EQ(totals.calls, 210);
  EXPECT_DOUBLE_EQ(totals.milliseconds, 210);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaTimerTest, IdleEventsAreBounded) {
  driver().eventsCompleteWhenRecorded = false;
  const int calls = 100;
  for (int i = 0; i < calls; ++i)
    timedCall("prog", streamA, 1);
  EXPECT_EQ(driver().count("cuEventCreate"), 2 * calls);
  EXPECT_EQ(query("prog", /*wait=*/true).calls, calls);
  EXPECT_EQ(driver().count("cuEventDestroy"),
            2 * calls - static_cast<int>(kMaxIdleEventsPerContext));
  EXPECT_EQ(fakecuda::liveEvents(), static_cast<int>(kMaxIdleEventsPerContext));
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaTimerTest, ResetForgetsTotalsAndDropsPendingCalls) {
  timedCall("prog", streamA, 1);
  timedCall("other", streamA, 1);
  driver().eventsCompleteWhenRecorded = false;
  timedCall("prog", streamA, 1);
  void *inFlight = sdfgrtTimerBegin("prog");
  sdfgrtTimerRecordBegin(inFlight, streamA);
  EXPECT_EQ(query("prog").pending, 1);
  int created = driver().count("cuEventCreate");

  sdfgrtTimerReset("prog");
  Totals forgotten = query("prog");
  EXPECT_EQ(forgotten.status, kRuntimeFailure);
  EXPECT_EQ(forgotten.calls, 0);
  // Only that program.
  EXPECT_EQ(query("other").calls, 1);

  // The call in flight at the reset is not counted when it ends.
  sdfgrtTimerRecordEnd(inFlight, streamA);
  sdfgrtTimerEnd(inFlight);
  driver().eventsCompleteWhenRecorded = true;
  timedCall("prog", streamA, 6);
  Totals after = query("prog");
  EXPECT_EQ(after.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(after.calls, 1);
  EXPECT_EQ(after.pending, 0);
  EXPECT_DOUBLE_EQ(after.milliseconds, 6);
  // The dropped calls' events were released and reused.
  EXPECT_EQ(driver().count("cuEventCreate"), created);

  sdfgrtTimerReset(nullptr);
  EXPECT_EQ(query("prog").status, kRuntimeFailure);
  EXPECT_EQ(query("other").status, kRuntimeFailure);
}

TEST_F(CudaTimerTest, UnknownProgramIsAnError) {
  timedCall("prog", streamA, 1);
  Totals totals = {0, 99, 99, 99};
  totals.status = sdfgrtTimerQuery("nope", 1, &totals.milliseconds,
                                   &totals.calls, &totals.pending);
  EXPECT_EQ(totals.status, kRuntimeFailure);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "sdfgrtTimerQuery: no timed call of program \"nope\" began "
               "since the start or the last sdfgrtTimerReset at unknown "
               "location");
  EXPECT_EQ(totals.milliseconds, 0);
  EXPECT_EQ(totals.calls, 0);
  EXPECT_EQ(totals.pending, 0);
  EXPECT_EQ(sdfgrtTimerQuery(nullptr, 0, nullptr, nullptr, nullptr),
            kRuntimeFailure);
}

TEST_F(CudaTimerTest, NestedCallsAreTimedSeparately) {
  void *outer = sdfgrtTimerBegin("outer");
  sdfgrtTimerRecordBegin(outer, streamA);
  driver().now = 1;
  void *inner = sdfgrtTimerBegin("inner");
  sdfgrtTimerRecordBegin(inner, streamA);
  driver().now = 3;
  sdfgrtTimerRecordEnd(inner, streamA);
  sdfgrtTimerEnd(inner);
  driver().now = 5;
  sdfgrtTimerRecordEnd(outer, streamA);
  sdfgrtTimerEnd(outer);
  EXPECT_DOUBLE_EQ(query("outer").milliseconds, 5);
  EXPECT_DOUBLE_EQ(query("inner").milliseconds, 2);
  EXPECT_EQ(query("outer").calls, 1);
  EXPECT_EQ(query("inner").calls, 1);
}

TEST_F(CudaTimerTest, FailedCallIsNotTimed) {
  void *module = mgpuModuleLoad(const_cast<char *>("cubin"), 6);
  void *kernel = mgpuModuleGetFunction(module, "kernel");
  driver().failingCall = "cuLaunchKernel";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  sdfgrtBeginCall();
  void *call = sdfgrtTimerBegin("prog");
  sdfgrtTimerRecordBegin(call, streamA);
  mgpuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, streamA, nullptr, nullptr, 0);
  sdfgrtTimerRecordEnd(call, streamA);
  sdfgrtTimerEnd(call);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(driver().count("cuEventRecord"), 1);

  Totals totals = query("prog");
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.calls, 0);
  EXPECT_EQ(totals.pending, 0);
  // Its begin event was released: the next call creates only its end.
  driver().failingCall.clear();
  timedCall("prog", streamA, 1);
  EXPECT_EQ(driver().count("cuEventCreate"), 2);
  EXPECT_EQ(query("prog").calls, 1);
  mgpuModuleUnload(module);
}

TEST_F(CudaTimerTest, FailureWhileResolvingIsReportedAndDropsTheCall) {
  timedCall("prog", streamA, 1);
  driver().failingCall = "cuEventElapsedTime";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  Totals totals = query("prog");
  EXPECT_EQ(totals.status, CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuEventElapsedTime failed: CUDA_ERROR_INVALID_VALUE (invalid "
               "argument) at unknown location");
  EXPECT_EQ(totals.calls, 0);
  EXPECT_EQ(totals.pending, 0);
  driver().failingCall.clear();
  totals = query("prog");
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.pending, 0);
}

TEST_F(CudaTimerTest, FailureWhileResolvingAtBeginIsKeptForTheQuery) {
  timedCall("prog", streamA, 1);
  driver().failingCall = "cuEventElapsedTime";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  // The program call that meets the failure while resolving its earlier
  // call does not fail for it.
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:2:3");
  void *call = sdfgrtTimerBegin("prog");
  EXPECT_EQ(driver().count("cuEventElapsedTime"), 1);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  sdfgrtTimerRecordBegin(call, streamA);
  sdfgrtTimerRecordEnd(call, streamA);
  sdfgrtTimerEnd(call);
  EXPECT_EQ(sdfgrtEndCall(), 0);
  driver().failingCall.clear();

  // The next query reports it, once; the failed call is not counted.
  Totals totals = query("prog");
  EXPECT_EQ(totals.status, CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuEventElapsedTime failed: CUDA_ERROR_INVALID_VALUE (invalid "
               "argument) at prog.mlir:2:3");
  EXPECT_EQ(totals.calls, 1);
  EXPECT_EQ(totals.pending, 0);
  totals = query("prog");
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.calls, 1);
}

TEST_F(CudaTimerTest, EndOnAStreamWithoutBeginIsAnError) {
  void *call = sdfgrtTimerBegin("prog");
  sdfgrtTimerRecordBegin(call, streamA);
  sdfgrtTimerRecordEnd(call, streamB);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_NE(
      std::string(sdfgrtGetLastError()).find("sdfgrtTimerRecordEnd: stream "),
      std::string::npos)
      << sdfgrtGetLastError();
  sdfgrtTimerEnd(call);
  EXPECT_EQ(query("prog").calls, 0);
}

TEST_F(CudaTimerTest, ConcurrentCallsOfOneProgramAreAllCounted) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      CUstream stream = t % 2 ? streamA : streamB;
      for (int i = 0; i < 100; ++i) {
        void *call = sdfgrtTimerBegin("prog");
        sdfgrtTimerRecordBegin(call, stream);
        sdfgrtTimerRecordEnd(call, stream);
        sdfgrtTimerEnd(call);
      }
      EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
    });
  for (std::thread &thread : threads)
    thread.join();
  Totals totals = query("prog", /*wait=*/true);
  EXPECT_EQ(totals.status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(totals.calls, 800);
  EXPECT_EQ(totals.pending, 0);
}

} // namespace
