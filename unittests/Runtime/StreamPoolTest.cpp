//===- StreamPoolTest.cpp - Forked stream slots on a fake driver ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfgrtForkStreams and sdfgrtReserveStreams (StreamPool.cpp) against
// FakeCudaDriver.cpp, whose streams carry the capture the test puts them in
// and join a capture by waiting on its events, as the driver's do: streams
// created once per thread and context and reused, exclusive to a thread
// while it lives, never the caller's, only of the caller's capture or none;
// one event recorded on the caller and waited for by each slot; created in
// relaxed capture mode; and a failed call joined back at its end.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "FakeCudaDriver.h"
#include "FakeDriverTest.h"
#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace sdfgrt;
using fakecuda::driver;

namespace {

class StreamPoolTest : public TwoContextTest {
protected:
  /// Forks `count` slots from `caller`, which must succeed.
  static std::vector<void *> fork(void *caller, int32_t count) {
    std::vector<void *> slots(count, nullptr);
    EXPECT_EQ(sdfgrtForkStreams(caller, count, slots.data()), 0)
        << sdfgrtGetLastError();
    return slots;
  }

  /// The slots a fork gave beyond slot 0 (the caller's).
  static std::set<void *> forked(const std::vector<void *> &slots) {
    return {slots.begin() + 1, slots.end()};
  }

  static StreamPoolCounts pool(CUcontext context) {
    return streamPoolForTesting(context->driverId);
  }

  /// Makes the current program call fail with a failure of the runtime's
  /// own (a launch of no kernel), which calls no driver entry that a test
  /// makes fail.
  static void failTheCall(void *stream) {
    mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr, 0);
    ASSERT_EQ(sdfgrtCallStatus(), kRuntimeFailure);
  }

  static CUstream asStream(void *slot) { return static_cast<CUstream>(slot); }
};

TEST_F(StreamPoolTest, SlotsAreDistinctNonBlockingStreamsOfTheCallersContext) {
  std::vector<void *> slots = fork(streamA, 4);
  EXPECT_EQ(slots[0], streamA);
  std::set<void *> others = forked(slots);
  EXPECT_EQ(others.size(), 3u);
  EXPECT_EQ(others.count(streamA), 0u);
  ASSERT_EQ(driver().createdStreams.size(), 3u);
  for (void *slot : others) {
    EXPECT_NE(std::find(driver().createdStreams.begin(),
                        driver().createdStreams.end(), asStream(slot)),
              driver().createdStreams.end());
    EXPECT_EQ(asStream(slot)->context, contextA);
    EXPECT_EQ(asStream(slot)->flags, unsigned(CU_STREAM_NON_BLOCKING));
  }
  StreamPoolCounts counts = pool(contextA);
  EXPECT_EQ(counts.created, 3);
  EXPECT_EQ(counts.leased, 3);
  EXPECT_EQ(counts.idle, 0);
  // One slot is the caller alone: nothing to do.
  int before = driver().totalCalls();
  std::vector<void *> one = fork(streamA, 1);
  EXPECT_EQ(one[0], streamA);
  EXPECT_EQ(driver().totalCalls(), before);
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
}

TEST_F(StreamPoolTest, ASecondCallReusesTheStreamsAndCreatesNone) {
  sdfgrtBeginCall();
  std::vector<void *> first = fork(streamA, 3);
  ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  ASSERT_EQ(driver().count("cuStreamCreate"), 2);
  sdfgrtBeginCall();
  std::vector<void *> second = fork(streamA, 3);
  EXPECT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(second, first);
  EXPECT_EQ(driver().count("cuStreamCreate"), 2);
  // A fork with fewer slots takes from the same streams.
  std::vector<void *> fewer = fork(streamA, 2);
  EXPECT_EQ(fewer[1], first[1]);
  EXPECT_EQ(driver().count("cuStreamCreate"), 2);
}

TEST_F(StreamPoolTest, TwoContextsHaveDistinctPools) {
  std::vector<void *> inA = fork(streamA, 3);
  std::vector<void *> inB = fork(streamB, 3);
  for (void *slot : forked(inA))
    EXPECT_EQ(asStream(slot)->context, contextA);
  for (void *slot : forked(inB))
    EXPECT_EQ(asStream(slot)->context, contextB);
  EXPECT_EQ(pool(contextA).created, 2);
  EXPECT_EQ(pool(contextB).created, 2);
  EXPECT_EQ(pool(fakecuda::context(3)).created, 0);
  // Each context's streams come back for its own callers only.
  EXPECT_EQ(fork(streamB, 3), inB);
  EXPECT_EQ(fork(streamA, 3), inA);
  EXPECT_EQ(driver().count("cuStreamCreate"), 4);
}

TEST_F(StreamPoolTest, TwoLiveThreadsForkOntoDistinctStreams) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::vector<std::promise<std::vector<void *>>> forks(2);
  std::vector<std::thread> threads;
  for (auto &result : forks)
    threads.emplace_back([&, slots = &result] {
      slots->set_value(fork(streamA, 3));
      released.wait(); // both leases are held at once
    });
  std::vector<void *> first = forks[0].get_future().get();
  std::vector<void *> second = forks[1].get_future().get();
  release.set_value();
  for (std::thread &thread : threads)
    thread.join();
  std::set<void *> all = forked(first);
  for (void *slot : forked(second))
    EXPECT_TRUE(all.insert(slot).second) << "two threads share " << slot;
  EXPECT_EQ(all.size(), 4u);
  EXPECT_EQ(pool(contextA).created, 4);
}

TEST_F(StreamPoolTest, AnExitingThreadsStreamsGoToTheNextThread) {
  std::vector<void *> first;
  std::thread([&] { first = fork(streamA, 3); }).join();
  ASSERT_EQ(driver().count("cuStreamCreate"), 2);
  StreamPoolCounts counts = pool(contextA);
  EXPECT_EQ(counts.idle, 2);
  EXPECT_EQ(counts.leased, 0);

  std::vector<void *> second;
  std::thread([&] { second = fork(streamA, 3); }).join();
  EXPECT_EQ(forked(second), forked(first));
  EXPECT_EQ(driver().count("cuStreamCreate"), 2);
  EXPECT_EQ(driver().count("cuThreadExchangeStreamCaptureMode"), 4);
  EXPECT_EQ(pool(contextA).idle, 2);
}

TEST_F(StreamPoolTest, ANestedForkOnALeaseStreamLeavesThatStreamOut) {
  std::vector<void *> outer = fork(streamA, 3);
  void *slot = outer[1];
  std::vector<void *> nested = fork(slot, 3);
  EXPECT_EQ(nested[0], slot);
  std::set<void *> others = forked(nested);
  EXPECT_EQ(others.size(), 2u);
  EXPECT_EQ(others.count(slot), 0u);
  // The lease's other stream, and one more.
  EXPECT_EQ(others.count(outer[2]), 1u);
  EXPECT_EQ(pool(contextA).created, 3);
  EXPECT_EQ(pool(contextA).leased, 3);
}

TEST_F(StreamPoolTest, OneEventIsRecordedOnTheCallerAndEachSlotWaitsAfter) {
  std::vector<void *> slots = fork(streamA, 4);
  ASSERT_EQ(driver().records.size(), 1u);
  const fakecuda::EventRecord &record = driver().records[0];
  EXPECT_EQ(record.stream, streamA);
  EXPECT_TRUE(record.event->flags & CU_EVENT_DISABLE_TIMING);
  ASSERT_EQ(driver().waits.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    const fakecuda::StreamWait &wait = driver().waits[k];
    EXPECT_EQ(wait.stream, slots[k + 1]);
    EXPECT_EQ(wait.event, record.event);
    EXPECT_EQ(wait.eventStream, streamA);
    EXPECT_GT(wait.order, record.order);
  }
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 0);
  EXPECT_EQ(driver().count("cuCtxSynchronize"), 0);
  EXPECT_EQ(driver().count("cuEventSynchronize"), 0);
  // The event is pooled: the next fork records it again.
  fork(streamA, 4);
  EXPECT_EQ(driver().count("cuEventCreate"), 1);
  EXPECT_EQ(driver().count("cuEventRecord"), 2);
}

TEST_F(StreamPoolTest, OnlyStreamsOfTheCallersCaptureOrNoneAreUsed) {
  CUstream capturedA = fakecuda::createStream(contextA);
  capturedA->capturing = true;
  capturedA->captureId = 7;
  // The slot waits on capture 7's event: it joins that capture.
  void *inSeven = fork(capturedA, 2)[1];
  ASSERT_TRUE(asStream(inSeven)->capturing);
  ASSERT_EQ(asStream(inSeven)->captureId, 7u);
  ASSERT_EQ(sdfgrtStreamWaitStream(capturedA, inSeven), 0)
      << sdfgrtGetLastError();

  // Another capture must not use it (the driver would refuse the wait).
  streamA->capturing = true;
  streamA->captureId = 8;
  void *inEight = fork(streamA, 2)[1];
  EXPECT_NE(inEight, inSeven);
  EXPECT_EQ(asStream(inEight)->captureId, 8u);
  // Capture 7 may use its own again.
  EXPECT_EQ(fork(capturedA, 2)[1], inSeven);
  // A caller that is not capturing gets neither.
  CUstream plainA = fakecuda::createStream(contextA);
  void *plain = fork(plainA, 2)[1];
  EXPECT_NE(plain, inSeven);
  EXPECT_NE(plain, inEight);
  EXPECT_FALSE(asStream(plain)->capturing);
  EXPECT_EQ(pool(contextA).created, 3);

  // Once capture 7 ended, its stream serves any caller again.
  fakecuda::endCapture(7);
  EXPECT_EQ(fork(plainA, 2)[1], inSeven);
  EXPECT_EQ(pool(contextA).created, 3);
}

TEST_F(StreamPoolTest, AStreamCreatedDuringACaptureIsCreatedInRelaxedMode) {
  streamA->capturing = true;
  streamA->captureId = 5;
  // The fake, like the driver, refuses a stream to a thread in global mode
  // while a global-mode capture is on.
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxPushCurrent(contextA), CUDA_SUCCESS);
  CUstream refused = nullptr;
  EXPECT_EQ(cuStreamCreate(&refused, CU_STREAM_NON_BLOCKING),
            CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  CUcontext popped = nullptr;
  ASSERT_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
  driver().calls.clear();

  std::vector<void *> slots = fork(streamA, 2);
  EXPECT_EQ(driver().count("cuStreamCreate"), 1);
  EXPECT_EQ(driver().count("cuThreadExchangeStreamCaptureMode"), 2);
  EXPECT_EQ(fakecuda::threadCaptureMode(), CU_STREAM_CAPTURE_MODE_GLOBAL);
  // The new stream is a branch of the caller's capture.
  EXPECT_TRUE(asStream(slots[1])->capturing);
  EXPECT_EQ(asStream(slots[1])->captureId, 5u);
}

TEST_F(StreamPoolTest, AForkAfterAFailureOfTheCallIsSkipped) {
  sdfgrtBeginCall();
  failTheCall(streamA);
  int calls = driver().totalCalls();
  std::vector<void *> slots(3, nullptr);
  EXPECT_EQ(sdfgrtForkStreams(streamA, 3, slots.data()), kRuntimeFailure);
  EXPECT_EQ(slots, std::vector<void *>(3, streamA));
  EXPECT_EQ(driver().totalCalls(), calls);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_TRUE(driver().createdStreams.empty());
}

TEST_F(StreamPoolTest, AFailedForkFailsTheCallAndEverySlotIsTheCaller) {
  driver().failingCall = "cuStreamWaitEvent";
  driver().failure = CUDA_ERROR_INVALID_HANDLE;
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:3:1");
  std::vector<void *> slots(3, nullptr);
  EXPECT_EQ(sdfgrtForkStreams(streamA, 3, slots.data()),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(slots, std::vector<void *>(3, streamA));
  EXPECT_EQ(sdfgrtCallStatus(), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuStreamWaitEvent failed: CUDA_ERROR_INVALID_HANDLE (invalid "
               "resource handle) at prog.mlir:3:1");
  // A failed fork is not joined at the end: no further record.
  EXPECT_EQ(driver().count("cuEventRecord"), 1);

  // A stream that cannot be created leaves the thread's mode restored.
  driver().failingCall = "cuStreamCreate";
  sdfgrtBeginCall();
  EXPECT_EQ(sdfgrtForkStreams(streamB, 2, slots.data()),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(slots[1], streamB);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(fakecuda::threadCaptureMode(), CU_STREAM_CAPTURE_MODE_GLOBAL);
}

TEST_F(StreamPoolTest, AFailedCallJoinsItsForksBackInnermostFirst) {
  sdfgrtBeginCall();
  void *outer = fork(streamA, 2)[1];
  // A nested program on the outer slot stream.
  sdfgrtBeginCall();
  void *inner = fork(outer, 2)[1];
  ASSERT_NE(inner, outer);
  failTheCall(inner);
  std::string error = sdfgrtGetLastError();
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  size_t records = driver().records.size(), waits = driver().waits.size();
  // The inner end is not the outermost: nothing is joined yet.
  ASSERT_EQ(records, 2u);
  ASSERT_EQ(waits, 2u);

  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_EQ(sdfgrtGetLastError(), error);
  ASSERT_EQ(driver().records.size(), records + 2);
  ASSERT_EQ(driver().waits.size(), waits + 2);
  // The inner slot joins the outer slot, then the outer slot the caller.
  EXPECT_EQ(driver().records[records].stream, inner);
  EXPECT_EQ(driver().waits[waits].stream, outer);
  EXPECT_EQ(driver().waits[waits].eventStream, inner);
  EXPECT_EQ(driver().records[records + 1].stream, outer);
  EXPECT_EQ(driver().waits[waits + 1].stream, streamA);
  EXPECT_EQ(driver().waits[waits + 1].eventStream, outer);
  EXPECT_GT(driver().records[records + 1].order, driver().waits[waits].order);
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 0);
}

TEST_F(StreamPoolTest, AFailedCallFreesItsTransientsAfterEverySlotJoined) {
  // A transient on the caller's stream that a slot uses, one on a slot, and
  // one on the slot of a nested program's fork: each is freed on the
  // caller's stream, after both joins (a free on its own stream would not
  // wait for the other slots still using it).
  sdfgrtBeginCall();
  void *slot = fork(streamA, 2)[1];
  void *onCaller = mgpuMemAlloc(64, streamA, false);
  void *onSlot = mgpuMemAlloc(64, slot, false);
  sdfgrtBeginCall();
  void *inner = fork(slot, 2)[1];
  void *onInner = mgpuMemAlloc(64, inner, false);
  ASSERT_NE(onCaller, nullptr);
  ASSERT_NE(onSlot, nullptr);
  ASSERT_NE(onInner, nullptr);
  failTheCall(inner);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_TRUE(driver().asyncFrees.empty());
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  ASSERT_EQ(driver().asyncFrees.size(), 3u);
  ASSERT_GE(driver().waits.size(), 2u);
  long lastJoin = driver().waits.back().order;
  EXPECT_EQ(driver().waits.back().stream, streamA);
  std::set<void *> freed;
  for (const auto &free : driver().asyncFrees) {
    EXPECT_EQ(free.stream, streamA);
    EXPECT_GT(free.order, lastJoin);
    freed.insert(reinterpret_cast<void *>(free.pointer));
  }
  EXPECT_EQ(freed, (std::set<void *>{onCaller, onSlot, onInner}));
}

TEST_F(StreamPoolTest, FailingJoinsAreAllTriedAndKeepTheCallsFirstError) {
  sdfgrtBeginCall();
  std::vector<void *> slots = fork(streamA, 3);
  sdfgrtSetLocation("prog.mlir:8:2");
  failTheCall(streamA);
  std::string error = sdfgrtGetLastError();
  driver().failingCall = "cuStreamWaitEvent";
  driver().failure = CUDA_ERROR_INVALID_HANDLE;
  int waits = driver().count("cuStreamWaitEvent");
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_EQ(sdfgrtGetLastError(), error);
  EXPECT_NE(error.find("prog.mlir:8:2"), std::string::npos) << error;
  // Both slots were joined, the second after the first one's wait failed.
  EXPECT_EQ(driver().count("cuStreamWaitEvent"), waits + 2);
}

TEST_F(StreamPoolTest, ASucceedingCallAddsNoJoinAndALaterFailureNone) {
  sdfgrtBeginCall();
  std::vector<void *> slots = fork(streamA, 3);
  // The program's own joins.
  for (size_t k = 1; k < slots.size(); ++k)
    ASSERT_EQ(sdfgrtStreamWaitStream(streamA, slots[k]), 0)
        << sdfgrtGetLastError();
  size_t waits = driver().waits.size();
  EXPECT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().waits.size(), waits);

  // The next call forks nothing and fails: the earlier forks are not its.
  sdfgrtBeginCall();
  failTheCall(streamA);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_EQ(driver().waits.size(), waits);
}

TEST_F(StreamPoolTest, SlotCountsOutsideOneTo1024Fail) {
  std::vector<void *> slots(kMaxStreamSlots + 1, nullptr);
  for (int32_t count : {0, -1, kMaxStreamSlots + 1}) {
    std::fill(slots.begin(), slots.end(), nullptr);
    EXPECT_EQ(sdfgrtForkStreams(streamA, count, slots.data()), kRuntimeFailure);
    std::string text = sdfgrtGetLastError();
    EXPECT_NE(text.find("sdfgrtForkStreams: " + std::to_string(count) +
                        " stream slots, but a program has 1 to 1024"),
              std::string::npos)
        << text;
    // Every slot there is is the caller.
    EXPECT_EQ(std::count(slots.begin(), slots.end(), streamA),
              std::max(count, 0));
    EXPECT_EQ(sdfgrtReserveStreams(streamA, count), kRuntimeFailure);
    EXPECT_NE(std::string(sdfgrtGetLastError()).find("sdfgrtReserveStreams"),
              std::string::npos);
  }
  EXPECT_EQ(sdfgrtForkStreams(streamA, 2, nullptr), kRuntimeFailure);
  EXPECT_EQ(driver().totalCalls(), 0);
  // The most slots a program has are fine.
  std::vector<void *> most = fork(streamA, kMaxStreamSlots);
  EXPECT_EQ(forked(most).size(), size_t(kMaxStreamSlots - 1));
}

TEST_F(StreamPoolTest, ReservedStreamsLetAForkDuringACaptureCreateNone) {
  ASSERT_EQ(sdfgrtReserveStreams(streamA, 4), 0) << sdfgrtGetLastError();
  EXPECT_EQ(pool(contextA).created, 3);
  EXPECT_EQ(pool(contextA).leased, 3);
  std::set<void *> reserved(driver().createdStreams.begin(),
                            driver().createdStreams.end());
  // Reserving again, or fewer, creates none.
  EXPECT_EQ(sdfgrtReserveStreams(streamA, 4), 0) << sdfgrtGetLastError();
  EXPECT_EQ(sdfgrtReserveStreams(streamA, 2), 0) << sdfgrtGetLastError();
  EXPECT_EQ(sdfgrtReserveStreams(streamA, 1), 0) << sdfgrtGetLastError();
  EXPECT_EQ(pool(contextA).created, 3);
  EXPECT_TRUE(driver().records.empty());

  streamA->capturing = true;
  streamA->captureId = 9;
  int exchanges = driver().count("cuThreadExchangeStreamCaptureMode");
  std::vector<void *> slots = fork(streamA, 4);
  EXPECT_EQ(forked(slots), reserved);
  EXPECT_EQ(driver().count("cuStreamCreate"), 3);
  EXPECT_EQ(driver().count("cuThreadExchangeStreamCaptureMode"), exchanges);
}

} // namespace
