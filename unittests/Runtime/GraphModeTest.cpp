//===- GraphModeTest.cpp - Graph mode against the fake driver -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Graph mode (GraphRecording.cpp, GraphCache.cpp) on the fake CUDA driver,
// with a program written the way generated code calls the runtime: a
// transient, a copy in, two kernels, a memset, a copy out. The fake runs
// copies and memsets on host memory and keeps each kernel launch's
// argument bytes, so a test sees what each call computed and whether it
// came from a graph.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "FakeDriverTest.h"

#include <cstring>
#include <thread>
#include <vector>

using fakecuda::driver;

namespace {

const char kCubin[] = "fake cubin";
constexpr size_t kElements = 64;

class GraphModeTest : public TwoContextTest {
protected:
  void SetUp() override {
    TwoContextTest::SetUp();
    driver().kernelParams["scale"] = {sizeof(void *), sizeof(float),
                                      sizeof(int64_t)};
    driver().kernelParams["add"] = {sizeof(void *), sizeof(void *)};
    module = mgpuModuleLoad(const_cast<char *>(kCubin), sizeof(kCubin));
    scale = mgpuModuleGetFunction(module, "scale");
    add = mgpuModuleGetFunction(module, "add");
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxPushCurrent(contextA), CUDA_SUCCESS);
    for (size_t i = 0; i < kElements; ++i)
      input[i] = float(i);
  }

  void TearDown() override {
    // What a user does before the fake driver goes: the programs' graphs
    // and transient buffers are released on a stream of their context.
    EXPECT_EQ(sdfgrtReleaseGraphs(streamA), 0) << sdfgrtGetLastError();
    EXPECT_EQ(sdfgrtReleaseGraphs(streamB), 0) << sdfgrtGetLastError();
    EXPECT_EQ(stats().programs, 0);
    EXPECT_EQ(stats().bufferBytes, 0);
    EXPECT_EQ(driver().graphExecsLive, 0);
    mgpuModuleUnload(module);
    TwoContextTest::TearDown();
  }

  struct Options {
    float factor = 2.0f;
    float *device = nullptr; // defaults to deviceA
    bool secondKernel = true;
    bool syncInTheMiddle = false;
    const char *program = "prog";
  };

  int32_t call(void *stream) { return call(stream, Options()); }

  /// One call of the program, as generated code makes it.
  int32_t call(void *stream, Options options) {
    float *device = options.device ? options.device : deviceA;
    sdfgrtBeginGraphCall(options.program);
    void *transient = mgpuMemAlloc(kElements * sizeof(float), stream, false);
    lastTransient = transient;
    mgpuMemcpy(device, input, sizeof(input), stream);
    int64_t n = kElements;
    void *scaleArgs[] = {&device, &options.factor, &n};
    mgpuLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, stream, scaleArgs, nullptr,
                     3);
    mgpuMemset32(transient, 7, kElements, stream);
    if (options.syncInTheMiddle) {
      mgpuMemcpy(output, transient, sizeof(output), stream);
      mgpuStreamSynchronize(stream);
      // The host reads what the first segment copied back.
      options.factor = output[0];
      mgpuLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, stream, scaleArgs, nullptr,
                       3);
    }
    if (options.secondKernel) {
      void *addArgs[] = {&device, &transient};
      mgpuLaunchKernel(add, 1, 1, 1, 64, 1, 1, 0, stream, addArgs, nullptr, 2);
    }
    mgpuMemcpy(output, device, sizeof(output), stream);
    mgpuMemFree(transient, stream);
    return sdfgrtEndCall();
  }

  static sdfgrtGraphStats stats() {
    sdfgrtGraphStats result{};
    sdfgrtGetGraphStats(&result);
    return result;
  }

  /// The float argument of the last launch of `scale`.
  static float lastFactor() {
    for (auto it = driver().launches.rbegin(); it != driver().launches.rend();
         ++it)
      if (it->kernel == "scale") {
        float factor;
        std::memcpy(&factor, it->arguments.data() + sizeof(void *),
                    sizeof(factor));
        return factor;
      }
    return -1;
  }

  /// What a 32-bit memset of `bits` leaves in a float.
  static float floatWithBits(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }

  void *module = nullptr, *scale = nullptr, *add = nullptr;
  void *lastTransient = nullptr;
  float input[kElements], output[kElements] = {};
  float deviceA[kElements] = {}, deviceB[kElements] = {};
};

TEST_F(GraphModeTest, FirstCallBuildsTheGraphLaterCallsReplayIt) {
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(driver().graphLaunches, 1);
  void *firstTransient = lastTransient;
  for (int i = 0; i < 3; ++i) {
    std::fill(output, output + kElements, -1.0f);
    input[0] = float(100 + i);
    ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
    // The copies ran (from the graph): the new input came back out.
    EXPECT_EQ(output[0], float(100 + i));
  }
  sdfgrtGraphStats s = stats();
  EXPECT_EQ(s.builds, 1);
  EXPECT_EQ(s.replays, 3);
  EXPECT_EQ(s.updates, 0);
  EXPECT_EQ(driver().graphLaunches, 4);
  // Every kernel ran from a graph, none was launched on its own; the
  // transient is the program's buffer, allocated once and never freed.
  EXPECT_EQ(driver().count("cuLaunchKernel"), 0);
  EXPECT_EQ(driver().launches.size(), 8u);
  for (const fakecuda::Launch &launch : driver().launches)
    EXPECT_TRUE(launch.fromGraph);
  EXPECT_EQ(lastTransient, firstTransient);
  EXPECT_EQ(driver().count("cuMemAllocAsync"), 1);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 0);
  EXPECT_EQ(s.bufferBytes, int64_t(kElements * sizeof(float)));
  EXPECT_EQ(driver().lastMemoryStream, streamA);
}

TEST_F(GraphModeTest, NewArgumentsUpdateTheNodesInPlace) {
  ASSERT_EQ(call(streamA), 0);
  Options other;
  other.factor = 3.0f;
  other.device = deviceB;
  ASSERT_EQ(call(streamA, other), 0) << sdfgrtGetLastError();
  sdfgrtGraphStats s = stats();
  EXPECT_EQ(s.builds, 1);
  EXPECT_EQ(s.updates, 1);
  // Both copies and both kernels name the other buffer; the memset not.
  EXPECT_EQ(s.nodesUpdated, 4);
  EXPECT_EQ(lastFactor(), 3.0f);
  EXPECT_EQ(deviceB[5], 5.0f);
  EXPECT_EQ(driver().count("cuGraphExecKernelNodeSetParams"), 2);
  EXPECT_EQ(driver().count("cuGraphExecMemcpyNodeSetParams"), 2);
  EXPECT_EQ(driver().count("cuGraphExecMemsetNodeSetParams"), 0);
  // And back: an update again, still no new graph.
  ASSERT_EQ(call(streamA), 0);
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(stats().updates, 2);
  EXPECT_EQ(lastFactor(), 2.0f);
}

TEST_F(GraphModeTest, SettledArgumentsGetAGraphBuiltAfresh) {
  // An updated executable graph launches slower than one as built (on the
  // H200): once the arguments settle after an update, the fourth unchanged
  // call builds the graph afresh, and later calls replay that one.
  Options other;
  other.device = deviceB;
  ASSERT_EQ(call(streamA), 0);
  ASSERT_EQ(call(streamA, other), 0);
  EXPECT_EQ(stats().updates, 1);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(call(streamA, other), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(stats().replays, 3);
  std::fill(deviceB, deviceB + kElements, -1.0f);
  ASSERT_EQ(call(streamA, other), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 2);
  EXPECT_EQ(deviceB[5], 5.0f); // the copy in ran, from the new graph
  EXPECT_EQ(driver().graphExecsLive, 1);
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(call(streamA, other), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 2);
  EXPECT_EQ(stats().replays, 13);
  // Arguments that keep alternating update in place and are never built
  // again.
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(call(streamA, i % 2 ? other : Options()), 0);
  EXPECT_EQ(stats().builds, 2);
  EXPECT_EQ(stats().updates, 11);
}

TEST_F(GraphModeTest, MemoryRegisteredAgainAtTheSameAddressIsNoReplay) {
  // A copy node fixes the mapping of its memory when it is built: host
  // memory unregistered and registered again (or freed and allocated again)
  // at the same address is another allocation, so the node is updated, not
  // replayed as built.
  ASSERT_EQ(cuMemHostRegister(input, sizeof(input), 0), CUDA_SUCCESS);
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().replays, 1); // the same allocation: replayed
  ASSERT_EQ(cuMemHostUnregister(input), CUDA_SUCCESS);
  ASSERT_EQ(cuMemHostRegister(input, sizeof(input), 0), CUDA_SUCCESS);
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().replays, 1);
  EXPECT_EQ(stats().updates, 1);
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(output[3], 3.0f);
  ASSERT_EQ(cuMemHostUnregister(input), CUDA_SUCCESS);
}

TEST_F(GraphModeTest, ModeTwoBuildsAgainInsteadOfUpdating) {
  sdfgrtSetGraphMode("prog", 2);
  ASSERT_EQ(call(streamA), 0);
  ASSERT_EQ(call(streamA), 0);
  Options other;
  other.device = deviceB;
  ASSERT_EQ(call(streamA, other), 0) << sdfgrtGetLastError();
  sdfgrtGraphStats s = stats();
  EXPECT_EQ(s.builds, 2);
  EXPECT_EQ(s.replays, 1);
  EXPECT_EQ(s.updates, 0);
  EXPECT_EQ(driver().count("cuGraphExecKernelNodeSetParams"), 0);
  EXPECT_EQ(deviceB[5], 5.0f);
  // The first graph is gone, not leaked.
  EXPECT_EQ(driver().graphExecsLive, 1);
}

TEST_F(GraphModeTest, AnotherShapeBuildsTheGraphAgain) {
  ASSERT_EQ(call(streamA), 0);
  Options shorter;
  shorter.secondKernel = false;
  ASSERT_EQ(call(streamA, shorter), 0);
  EXPECT_EQ(stats().builds, 2);
  EXPECT_EQ(driver().graphExecsLive, 1);
  EXPECT_EQ(driver().graphsLive, 1);
  EXPECT_EQ(driver().launches.back().kernel, "scale");
}

TEST_F(GraphModeTest, AHostSyncEndsASegment) {
  Options split;
  split.syncInTheMiddle = true;
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(call(streamA, split), 0) << sdfgrtGetLastError();
    // The host read the memset's value after the sync, and passed it to the
    // second segment's kernel: the first segment had run when the stream
    // was synchronized (without that, it would read the stale 0).
    std::fill(output, output + kElements, 0.0f);
    EXPECT_EQ(lastFactor(), floatWithBits(7));
  }
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 2);
  sdfgrtGraphStats s = stats();
  EXPECT_EQ(s.builds, 2); // one graph per segment
  EXPECT_EQ(s.replays, 2);
  EXPECT_EQ(driver().graphLaunches, 4);
}

TEST_F(GraphModeTest, TimersBracketTheGraphs) {
  // As generated code times a call: the begin event after the call opens,
  // the end event before it ends, both on the caller's stream.
  for (int i = 0; i < 2; ++i) {
    sdfgrtBeginGraphCall("timed");
    void *timer = sdfgrtTimerBegin("timed");
    sdfgrtTimerRecordBegin(timer, streamA);
    mgpuMemcpy(deviceA, input, sizeof(input), streamA);
    int64_t n = kElements;
    float factor = 2.0f;
    float *device = deviceA;
    void *args[] = {&device, &factor, &n};
    mgpuLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, streamA, args, nullptr, 3);
    sdfgrtTimerRecordEnd(timer, streamA);
    sdfgrtTimerEnd(timer);
    ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  }
  // The graph of each call runs between its two timer events.
  ASSERT_EQ(driver().graphLaunchOrders.size(), 2u);
  std::vector<long> timerRecords;
  for (const fakecuda::EventRecord &record : driver().records)
    if (record.event->flags == CU_EVENT_DEFAULT) // timing events
      timerRecords.push_back(record.order);
  ASSERT_EQ(timerRecords.size(), 4u);
  for (size_t call = 0; call < 2; ++call) {
    EXPECT_LT(timerRecords[2 * call], driver().graphLaunchOrders[call]);
    EXPECT_GT(timerRecords[2 * call + 1], driver().graphLaunchOrders[call]);
  }
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(stats().replays, 1);
  double milliseconds = 0;
  int64_t calls = 0, pending = 0;
  EXPECT_EQ(sdfgrtTimerQuery("timed", 1, &milliseconds, &calls, &pending), 0);
  EXPECT_EQ(calls, 2);
}

TEST_F(GraphModeTest, AStreamOfAnotherContextRecordsInItsContext) {
  // contextA is current; streamB is of contextB: graph mode makes contextB
  // current for its own driver calls (the fake fails any stream, event or
  // graph operation made in the wrong context) and restores contextA.
  for (int i = 0; i < 2; ++i)
    ASSERT_EQ(call(streamB), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(stats().replays, 1);
  EXPECT_EQ(driver().graphLaunches, 2);
  EXPECT_EQ(fakecuda::currentContext(), contextA);
  EXPECT_EQ(output[4], 4.0f);
}

TEST_F(GraphModeTest, DeviceChecksRunBeforeTheGraphs) {
  // As sdfg-check-argument-devices opens a call: the check of each GPU buffer
  // argument, then the program. contextA is on device 0.
  auto checkedCall = [&](float *buffer) {
    sdfgrtBeginGraphCall("checked");
    sdfgrtCheckDevicePointer(buffer, streamA, 0);
    if (sdfgrtCallStatus() != 0)
      return sdfgrtEndCall(); // the failure exit generated code takes
    mgpuMemcpy(buffer, input, sizeof(input), streamA);
    mgpuMemcpy(output, buffer, sizeof(output), streamA);
    return sdfgrtEndCall();
  };
  driver().allocations[reinterpret_cast<uintptr_t>(deviceA)] = {
      sizeof(deviceA), 0, false};
  driver().allocations[reinterpret_cast<uintptr_t>(deviceB)] = {
      sizeof(deviceB), 1, false};
  ASSERT_EQ(checkedCall(deviceA), 0) << sdfgrtGetLastError();
  ASSERT_EQ(checkedCall(deviceA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(stats().replays, 1);
  EXPECT_EQ(output[6], 6.0f);
  // A buffer of device 1: the call fails before any work, no graph runs.
  EXPECT_NE(checkedCall(deviceB), 0);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("device 1"),
            std::string::npos)
      << sdfgrtGetLastError();
  EXPECT_EQ(driver().graphLaunches, 2);
  EXPECT_EQ(deviceB[6], 0.0f);
}

TEST_F(GraphModeTest, ACapturingStreamGetsTheWorkEagerly) {
  streamA->capturing = true;
  streamA->captureId = 9;
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  fakecuda::endCapture(9);
  EXPECT_EQ(stats().builds, 0);
  EXPECT_EQ(stats().eagerCalls, 1);
  EXPECT_EQ(driver().graphLaunches, 0);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 2);
  // An ordinary transient, freed in the call.
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 1);
}

TEST_F(GraphModeTest, ReleasingOnACapturingStreamIsRefused) {
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  int frees = driver().count("cuMemFreeAsync");
  // The frees would be captured into the caller's graph, which cannot free
  // memory that is no graph allocation: refused, the graphs kept.
  streamA->capturing = true;
  streamA->captureId = 11;
  EXPECT_EQ(sdfgrtReleaseGraphs(streamA), -1);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("capturing"),
            std::string::npos);
  fakecuda::endCapture(11);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), frees);
  EXPECT_EQ(stats().programs, 1);
}

TEST_F(GraphModeTest, ModeOffRunsEagerly) {
  sdfgrtSetGraphMode("prog", 0);
  ASSERT_EQ(call(streamA), 0);
  EXPECT_EQ(driver().graphLaunches, 0);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 2);
  Options other;
  other.program = "other";
  ASSERT_EQ(call(streamA, other), 0);
  EXPECT_EQ(driver().graphLaunches, 1);
  sdfgrtSetGraphMode(nullptr, 1);
  ASSERT_EQ(call(streamA), 0);
  EXPECT_EQ(driver().graphLaunches, 2);
}

TEST_F(GraphModeTest, AGraphThatCannotBeBuiltRunsEagerly) {
  driver().failingCall = "cuGraphInstantiate";
  driver().failure = CUDA_ERROR_OUT_OF_MEMORY;
  // Graph mode does not fail a call that succeeds eagerly.
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(output[3], 3.0f);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 2);
  EXPECT_EQ(driver().graphsLive, 0);
  EXPECT_EQ(driver().graphExecsLive, 0);
  EXPECT_EQ(stats().eagerCalls, 1);
  // The segment stays eager (no build is tried again) until released.
  driver().failingCall.clear();
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuGraphInstantiate"), 1);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 4);
  EXPECT_EQ(stats().eagerCalls, 2); // once per call
  EXPECT_EQ(sdfgrtReleaseGraphs(streamA), 0);
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(driver().graphLaunches, 1);
}

TEST_F(GraphModeTest, AnUpdateTheDriverRefusesBuildsAgain) {
  ASSERT_EQ(call(streamA), 0);
  driver().failingCall = "cuGraphExecKernelNodeSetParams";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  Options other;
  other.factor = 5.0f;
  ASSERT_EQ(call(streamA, other), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 2);
  EXPECT_EQ(stats().updates, 0);
  EXPECT_EQ(lastFactor(), 5.0f);
  EXPECT_EQ(driver().graphExecsLive, 1);
}

TEST_F(GraphModeTest, AGraphLaunchTheDriverRefusesRunsEagerly) {
  // cuGraphLaunch enqueues nothing when it fails (no memory for the launch,
  // say): the segment runs eagerly and the call succeeds, as it would
  // have without graph mode; no graph of it stays.
  driver().failingCall = "cuGraphLaunch";
  driver().failure = CUDA_ERROR_OUT_OF_MEMORY;
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(output[3], 3.0f);
  EXPECT_EQ(driver().graphsLive, 0);
  EXPECT_EQ(driver().graphExecsLive, 0);
  EXPECT_EQ(stats().eagerCalls, 1);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 2);
  // Later calls run that segment eagerly, without trying again.
  driver().failingCall.clear();
  output[3] = 0;
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 1);
  EXPECT_EQ(driver().graphLaunches, 0);
  EXPECT_EQ(output[3], 3.0f);
}

TEST_F(GraphModeTest, ACallOnAnotherStreamWaitsForTheLastOne) {
  ASSERT_EQ(call(streamA), 0);
  CUstream other = fakecuda::createStream(contextA);
  ASSERT_EQ(call(other), 0) << sdfgrtGetLastError();
  ASSERT_FALSE(driver().waits.empty());
  const fakecuda::StreamWait &wait = driver().waits.back();
  EXPECT_EQ(wait.stream, other);
  EXPECT_EQ(wait.eventStream, streamA);
  EXPECT_EQ(stats().replays, 1);
}

TEST_F(GraphModeTest, WorkOnAForkedSlotRunsEagerly) {
  // A call whose first work is on a stream it forked (a concurrent slot):
  // the program's done event could not follow the caller's stream there.
  sdfgrtBeginGraphCall("forked");
  void *slots[2] = {};
  ASSERT_EQ(sdfgrtForkStreams(streamA, 2, slots), 0) << sdfgrtGetLastError();
  ASSERT_NE(slots[1], static_cast<void *>(streamA));
  mgpuMemcpy(deviceB, input, sizeof(input), slots[1]);
  mgpuMemcpy(deviceA, input, sizeof(input), streamA);
  sdfgrtStreamWaitStream(streamA, slots[1]);
  ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(stats().builds, 0);
  EXPECT_EQ(stats().eagerCalls, 1);
  EXPECT_EQ(deviceB[5], 5.0f);
  EXPECT_EQ(deviceA[5], 5.0f);
}

TEST_F(GraphModeTest, AFailedCallsDoneEventFollowsItsJoins) {
  // Recorded on the caller's stream, then work on a forked slot (eagerly)
  // fails: the join that the failure clean-up makes comes before the
  // program's done event, which a later call on another stream waits for.
  sdfgrtBeginGraphCall("joined");
  void *slots[2] = {};
  ASSERT_EQ(sdfgrtForkStreams(streamA, 2, slots), 0) << sdfgrtGetLastError();
  mgpuMemcpy(deviceA, input, sizeof(input), streamA);
  driver().failingCall = "cuLaunchKernel";
  driver().failure = CUDA_ERROR_INVALID_VALUE;
  int64_t n = kElements;
  float factor = 2.0f;
  float *device = deviceB;
  void *args[] = {&device, &factor, &n};
  mgpuLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, slots[1], args, nullptr, 3);
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_VALUE);
  driver().failingCall.clear();
  long join = -1, done = -1;
  for (const fakecuda::StreamWait &wait : driver().waits)
    if (wait.stream == streamA && wait.eventStream == slots[1])
      join = wait.order;
  for (const fakecuda::EventRecord &record : driver().records)
    if (record.stream == streamA)
      done = record.order;
  ASSERT_GE(join, 0);
  EXPECT_GT(done, join) << "the done event does not follow the join";
}

TEST_F(GraphModeTest, ACallWaitsForTheLastOneOnTheSameHandleToo) {
  // A stream handle equal to the last call's may be a new stream (the old
  // one destroyed while its work still ran, its handle reused): the call
  // waits for the program's done event all the same.
  ASSERT_EQ(call(streamA), 0);
  size_t waits = driver().waits.size();
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  ASSERT_GT(driver().waits.size(), waits);
  const fakecuda::StreamWait &wait = driver().waits[waits];
  EXPECT_EQ(wait.stream, streamA);
  EXPECT_EQ(wait.eventStream, streamA);
}

TEST_F(GraphModeTest, TheCacheKeepsAtMostItsLimit) {
  sdfgrtSetGraphCacheLimit(1);
  ASSERT_EQ(call(streamA), 0);
  Options other;
  other.program = "other";
  ASSERT_EQ(call(streamA, other), 0);
  sdfgrtGraphStats s = stats();
  EXPECT_EQ(s.programs, 1);
  // The first program's graph and buffer went, its buffer freed on the
  // stream after waiting for its last call.
  EXPECT_EQ(driver().graphExecsLive, 1);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 1);
  EXPECT_EQ(s.bufferBytes, int64_t(kElements * sizeof(float)));
  EXPECT_EQ(sdfgrtReleaseGraphs(streamA), 0);
  EXPECT_EQ(stats().programs, 0);
  EXPECT_EQ(stats().bufferBytes, 0);
  EXPECT_EQ(driver().graphExecsLive, 0);
  EXPECT_EQ(driver().graphsLive, 0);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 2);
}

TEST_F(GraphModeTest, WithoutParameterSizesKernelsRunEagerly) {
  driver().kernelParams.erase("scale");
  ASSERT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  // The copy before the first kernel ran as a graph, the rest eagerly.
  EXPECT_EQ(driver().graphLaunches, 1);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 2);
  EXPECT_EQ(stats().eagerCalls, 1);
  EXPECT_EQ(output[9], 9.0f);
}

TEST_F(GraphModeTest, ACallOfTheSameProgramOnAnotherThreadRunsEagerly) {
  // This thread holds the program's graphs from its first operation on.
  sdfgrtBeginGraphCall("prog");
  void *transient = mgpuMemAlloc(64, streamA, false);
  std::thread other([&] {
    ASSERT_EQ(cuCtxPushCurrent(contextA), CUDA_SUCCESS);
    EXPECT_EQ(call(streamA), 0) << sdfgrtGetLastError();
  });
  other.join();
  mgpuMemFree(transient, streamA);
  EXPECT_EQ(sdfgrtEndCall(), 0);
  EXPECT_EQ(stats().eagerCalls, 1);
  EXPECT_EQ(driver().count("cuLaunchKernel"), 2);
}

} // namespace

// A launch the device refuses fails the call where it is enqueued, as it
// does eagerly, so that no host code after it runs (the status checks
// sdfg-insert-failure-exits places after it see the failure): what the segment
// recorded before it is launched first, then it runs eagerly and fails.
TEST_F(GraphModeTest, ALaunchTheDeviceRefusesFailsTheCallWhereItIsEnqueued) {
  driver().maxThreadsPerBlock["add"] = 256; // its launch bounds
  struct Shape {
    void *function;
    unsigned block[3], grid[3];
  };
  const Shape refused[] = {
      {scale, {2048, 1, 1}, {1, 1, 1}}, // more threads than a block has
      {scale, {1, 1, 128}, {1, 1, 1}},  // z past 64
      {scale, {64, 1, 1}, {1, 70000, 1}}, // grid y past 65535
      {add, {512, 1, 1}, {1, 1, 1}},      // past the kernel's own bound
  };
  for (const Shape &shape : refused) {
    sdfgrtBeginGraphCall("refused");
    float factor = 2.0f;
    int64_t n = kElements;
    void *scaleArgs[] = {&deviceA, &factor, &n};
    void *addArgs[] = {&deviceA, &deviceA};
    mgpuMemcpy(deviceA, input, sizeof(input), streamA);
    mgpuLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, streamA, scaleArgs, nullptr,
                     3);
    ASSERT_EQ(sdfgrtCallStatus(), 0) << sdfgrtGetLastError();
    size_t launches = driver().launches.size();
    int graphLaunches = driver().graphLaunches;
    bool isScale = shape.function == scale;
    mgpuLaunchKernel(shape.function, shape.grid[0], shape.grid[1],
                     shape.grid[2], shape.block[0], shape.block[1],
                     shape.block[2], 0, streamA, isScale ? scaleArgs : addArgs,
                     nullptr, isScale ? 3 : 2);
    EXPECT_NE(sdfgrtCallStatus(), 0);
    EXPECT_NE(std::string(sdfgrtGetLastError())
                  .find("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE"),
              std::string::npos)
        << sdfgrtGetLastError();
    // The recorded copy and kernel ran first, as one graph.
    EXPECT_EQ(driver().graphLaunches, graphLaunches + 1);
    EXPECT_GE(driver().launches.size(), launches + 1);
    EXPECT_NE(sdfgrtEndCall(), 0);
    sdfgrtClearError();
  }
  // A shape the device takes is recorded as before.
  sdfgrtBeginGraphCall("accepted");
  float *device = deviceA;
  void *addArgs[] = {&device, &device};
  mgpuLaunchKernel(add, 1, 1, 1, 256, 1, 1, 0, streamA, addArgs, nullptr, 2);
  EXPECT_EQ(sdfgrtCallStatus(), 0);
  EXPECT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
}

// sdfgrtFlushGraphWork (before code that leaves the runtime) launches what
// the call recorded, once; outside a graph-mode call it does nothing.
TEST_F(GraphModeTest, FlushingLaunchesWhatWasRecordedBeforeCodeThatLeaves) {
  sdfgrtFlushGraphWork();
  EXPECT_EQ(driver().graphLaunches, 0);
  sdfgrtBeginGraphCall("flushed");
  float factor = 2.0f;
  int64_t n = kElements;
  float *device = deviceA;
  void *scaleArgs[] = {&device, &factor, &n};
  mgpuMemcpy(deviceA, input, sizeof(input), streamA);
  mgpuLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, streamA, scaleArgs, nullptr,
                   3);
  EXPECT_EQ(driver().graphLaunches, 0);
  EXPECT_TRUE(driver().launches.empty());
  sdfgrtFlushGraphWork();
  // The recorded copy and kernel ran (as one graph) before what follows.
  EXPECT_EQ(driver().graphLaunches, 1);
  ASSERT_EQ(driver().launches.size(), 1u);
  EXPECT_EQ(driver().launches[0].kernel, "scale");
  sdfgrtFlushGraphWork(); // nothing new recorded: nothing launched
  EXPECT_EQ(driver().graphLaunches, 1);
  EXPECT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().graphLaunches, 1);
}
