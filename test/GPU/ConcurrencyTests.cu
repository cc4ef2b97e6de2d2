//===- ConcurrencyTests.cu - Concurrent stream slots on the GPU -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// GPU tests of concurrent stream slots (issue 14), with the programs of
// concurrency.mlir compiled three ways (CMakeLists.txt): concurrent
// (sdfg-compile --concurrent-streams), serialized (every slot the caller's
// stream) and the negative control without waits between slots and without
// the join (--test-omit-stream-waits). Each claim is checked on the
// concurrent build and shown to fail on a control in the same run:
//
//   * results right in 1000 of 1000 calls with a spinning workload queued
//     ahead on the caller's stream and a dependent one after the call, and
//     wrong at least once without the waits;
//   * CUPTI: the two kernels of two slots run on two streams, the caller's
//     and a pool stream, at the same time, and nothing the caller enqueued
//     after the call starts before both end (the serialized build runs them
//     one after the other on the caller's stream; the control lets the
//     caller's next kernel start early);
//   * a call captured into a CUDA graph (on a thread whose pool is empty, so
//     its streams are made during the capture) has the two kernels on
//     parallel branches, and the graph replays right.
//
//===----------------------------------------------------------------------===//

#include "CheckCuda.h"
#include "ProgramLibraries.h"
#include "SanitizerMode.h"
#include "CuptiRecorder.h"
#include "SpinFor.cuh"

#include "SDFGStream/Runtime/HostAPI.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {
/// 1000, a tenth of it under compute-sanitizer.
const int kRuns = repetitions(1000);
constexpr int64_t kElements = 1 << 18;
constexpr unsigned long long kAheadNanoseconds = 1000000; // 1 ms
constexpr int64_t kSlotNanoseconds = 200000;              // 200 us
constexpr int64_t kLongNanoseconds = 1000000;             // 1 ms



__global__ void fillValue(float *data, int64_t n, float value) {
  for (int64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    data[i] = value;
}

/// Enqueued by the caller after a call: records when it ran.
__global__ void afterCall() {}

class Concurrency : public ::testing::Test {
protected:
  void SetUp() override {
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    // The negative control frees a transient on slot 0 while slot 1 may
    // still write it: keep the pool's memory mapped (as frameworks do), so
    // that the control computes wrong values instead of faulting.
    cudaMemPool_t pool = nullptr;
    CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t threshold = UINT64_MAX;
    CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                       &threshold));
    for (float **buffer : {&a, &b, &c, &d})
      CHECK_CUDA(cudaMalloc(buffer, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&hostC, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&hostD, kElements * sizeof(float)));
    for (sdfgstream::Library *library : {&concurrent, &serial, &noWaits})
      library->setExternalGpuStream(stream);
  }
  void TearDown() override {
    cudaStreamSynchronize(stream);
    for (float *buffer : {a, b, c, d})
      cudaFree(buffer);
    cudaFreeHost(hostC);
    cudaFreeHost(hostD);
    cudaStreamDestroy(stream);
  }

  void fill(float *data, float value) {
    fillValue<<<64, 256, 0, stream>>>(data, kElements, value);
  }
  static bool allEqual(const float *data, float value) {
    for (int64_t i = 0; i < kElements; ++i)
      if (data[i] != value)
        return false;
    return true;
  }

  /// Copies `first` into hostC and `second` into hostD on the caller's
  /// stream, after what it holds, and waits for them.
  bool copyBack(const float *first, const float *second) {
    return cudaMemcpyAsync(hostC, first, kElements * sizeof(float),
                           cudaMemcpyDeviceToHost, stream) == cudaSuccess &&
           cudaMemcpyAsync(hostD, second, kElements * sizeof(float),
                           cudaMemcpyDeviceToHost, stream) == cudaSuccess &&
           cudaStreamSynchronize(stream) == cudaSuccess;
  }

  /// One run of @fork_join: the caller's stream spins, then writes A; the
  /// call; then the caller copies C and D back on its stream. Right if the
  /// call returned 0 and C = 4 A, D = value.
  bool forkJoinOnce(sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fill(c, -1.0f);
    fill(d, -1.0f);
    spinFor<<<1, 1, 0, stream>>>(kAheadNanoseconds);
    fill(a, value);
    Memref1D va = view(a, kElements), vc = view(c, kElements),
             vd = view(d, kElements);
    int32_t status = library.tryCall("fork_join", &va, &vc, &vd, kElements,
                                     value + 0.5f, kSlotNanoseconds);
    if (!copyBack(c, d))
      return false;
    return status == 0 && allEqual(hostC, 4 * value) &&
           allEqual(hostD, value + 0.5f);
  }

  int countWrong(sdfgstream::Library &library) {
    int wrong = 0;
    for (int run = 0; run < kRuns; ++run)
      wrong += !forkJoinOnce(library, run);
    return wrong;
  }

  /// The kernels of one @two_spins call of `library` (1 ms on slot 0, 1.5
  /// ms on slot 1, so that a kernel the caller enqueues after an unjoined
  /// call starts while slot 1 still runs) and of that kernel.
  struct TwoSpins {
    std::vector<ActivityRecord> slots;
    ActivityRecord after{};
    std::set<uint32_t> streams;
    bool overlap() const {
      return slots.size() == 2 &&
             std::max(slots[0].start, slots[1].start) <
                 std::min(slots[0].end, slots[1].end);
    }
    uint64_t slotsEnd() const {
      uint64_t end = 0;
      for (const ActivityRecord &slot : slots)
        end = std::max(end, slot.end);
      return end;
    }
    uint64_t span() const {
      return slots.size() == 2 ? slotsEnd() - std::min(slots[0].start,
                                                       slots[1].start)
                               : 0;
    }
  };
  TwoSpins recordTwoSpins(sdfgstream::Library &library) {
    Memref1D va = view(a, kElements), vb = view(b, kElements);
    TwoSpins result;
    int32_t status = 0;
    std::vector<ActivityRecord> records = recordActivities([&] {
      status = library.tryCall("two_spins", &va, &vb, kElements,
                               kLongNanoseconds, kLongNanoseconds * 3 / 2);
      afterCall<<<1, 1, 0, stream>>>();
    });
    EXPECT_EQ(status, 0) << library.lastError();
    for (const ActivityRecord &record : records) {
      if (record.name.find("spin_fill") != std::string::npos) {
        result.slots.push_back(record);
        result.streams.insert(record.streamId);
      } else if (record.name.find("afterCall") != std::string::npos) {
        result.after = record;
      }
    }
    return result;
  }

  cudaStream_t stream = nullptr;
  float *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  float *hostC = nullptr, *hostD = nullptr;
  sdfgstream::Library concurrent{
      nextToSelf("libsdfg-gpu-test-concurrency.so")};
  sdfgstream::Library serial{
      nextToSelf("libsdfg-gpu-test-concurrency-serial.so")};
  sdfgstream::Library noWaits{
      nextToSelf("libsdfg-gpu-test-concurrency-no-waits.so")};
};

/// Whether `to` is reachable from `from` along the graph's edges.
bool reachable(cudaGraphNode_t from, cudaGraphNode_t to) {
  std::vector<cudaGraphNode_t> work = {from};
  std::set<cudaGraphNode_t> seen;
  while (!work.empty()) {
    cudaGraphNode_t node = work.back();
    work.pop_back();
    if (node == to)
      return true;
    if (!seen.insert(node).second)
      continue;
    size_t count = 0;
    cudaGraphNodeGetDependentNodes(node, nullptr, nullptr, &count);
    std::vector<cudaGraphNode_t> next(count);
    cudaGraphNodeGetDependentNodes(node, next.data(), nullptr, &count);
    work.insert(work.end(), next.begin(), next.end());
  }
  return false;
}
} // namespace

TEST_F(Concurrency, ForkJoinRightIn1000Runs) {
  int compiled = countWrong(concurrent);
  int withheld = countWrong(noWaits);
  printf("RESULT concurrent slots (fork, RAW across slots, stream-ordered "
         "transient, join): %d runs: %d wrong as compiled, %d wrong with the "
         "waits and the join withheld\n",
         kRuns, compiled, withheld);
  EXPECT_EQ(compiled, 0);
  expectControlSawTheHazard(withheld);
}

TEST_F(Concurrency, SlotsRunInParallelOnPoolStreams) {
  // Warm up (module loads, the pool's streams), outside the records.
  Memref1D va = view(a, kElements), vb = view(b, kElements);
  for (sdfgstream::Library *library : {&concurrent, &serial, &noWaits})
    ASSERT_EQ(library->tryCall("two_spins", &va, &vb, kElements, int64_t(0),
                               int64_t(0)),
              0);
  CHECK_CUDA(cudaStreamSynchronize(stream));

  uint32_t callerId = cuptiStreamId(stream);
  TwoSpins parallel = recordTwoSpins(concurrent);
  TwoSpins serialized = recordTwoSpins(serial);
  TwoSpins unjoined = recordTwoSpins(noWaits);
  printf("RESULT two kernels (1 ms, 1.5 ms) on two slots: concurrent span %.3f ms on "
         "%zu streams, serialized span %.3f ms on %zu stream(s)\n",
         parallel.span() * 1e-6, parallel.streams.size(),
         serialized.span() * 1e-6, serialized.streams.size());
  ASSERT_EQ(parallel.slots.size(), 2u);
  ASSERT_EQ(serialized.slots.size(), 2u);
  ASSERT_EQ(unjoined.slots.size(), 2u);
  // Concurrent: the caller's stream and one pool stream, at the same time;
  // the caller's next kernel after both.
  EXPECT_EQ(parallel.streams.size(), 2u);
  EXPECT_EQ(parallel.streams.count(callerId), 1u);
  EXPECT_TRUE(parallel.overlap());
  EXPECT_EQ(parallel.after.streamId, callerId);
  EXPECT_GE(parallel.after.start, parallel.slotsEnd());
  // Serialized: both on the caller's stream, one after the other.
  EXPECT_EQ(serialized.streams, std::set<uint32_t>{callerId});
  EXPECT_FALSE(serialized.overlap());
  // Without the join the caller's next kernel starts before the pool
  // stream's kernel ends: what the join prevents.
  printf("RESULT without the join the caller's next kernel starts %.3f ms "
         "before the slots end; with it %.3f ms after\n",
         (double(unjoined.slotsEnd()) - double(unjoined.after.start)) * 1e-6,
         (double(parallel.after.start) - double(parallel.slotsEnd())) * 1e-6);
  EXPECT_LT(unjoined.after.start, unjoined.slotsEnd());
}

TEST_F(Concurrency, CapturedGraphHasParallelBranches) {
  // The library's first call (its device query) outside the capture.
  Memref1D va = view(a, kElements), vb = view(b, kElements),
           vc = view(c, kElements), vd = view(d, kElements);
  ASSERT_EQ(concurrent.tryCall("two_spins", &va, &vb, kElements, int64_t(0),
                               int64_t(0)),
            0);
  CHECK_CUDA(cudaStreamSynchronize(stream));

  // A new thread holds no pool streams yet: they are made while its
  // caller's stream is capturing.
  cudaGraph_t spins = nullptr, forkJoin = nullptr;
  int32_t spinStatus = -1, forkJoinStatus = -1;
  std::thread capture([&] {
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    spinStatus = concurrent.tryCall("two_spins", &va, &vb, kElements,
                                    kSlotNanoseconds, kSlotNanoseconds);
    CHECK_CUDA(cudaStreamEndCapture(stream, &spins));
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    forkJoinStatus = concurrent.tryCall("fork_join", &va, &vc, &vd, kElements,
                                        7.0f, kSlotNanoseconds);
    CHECK_CUDA(cudaStreamEndCapture(stream, &forkJoin));
  });
  capture.join();
  ASSERT_EQ(spinStatus, 0) << concurrent.lastError();
  ASSERT_EQ(forkJoinStatus, 0) << concurrent.lastError();

  size_t count = 0;
  CHECK_CUDA(cudaGraphGetNodes(spins, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  CHECK_CUDA(cudaGraphGetNodes(spins, nodes.data(), &count));
  std::vector<cudaGraphNode_t> kernels;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    CHECK_CUDA(cudaGraphNodeGetType(node, &type));
    if (type == cudaGraphNodeTypeKernel)
      kernels.push_back(node);
  }
  ASSERT_EQ(kernels.size(), 2u);
  bool parallel = !reachable(kernels[0], kernels[1]) &&
                  !reachable(kernels[1], kernels[0]);
  printf("RESULT captured call: %zu nodes, 2 kernel nodes on %s branches\n",
         count, parallel ? "parallel" : "one chain of");
  EXPECT_TRUE(parallel);

  // Replays: two_spins refills A and B; fork_join computes C = 4 A, D = 7
  // from whatever A holds at the replay.
  cudaGraphExec_t spinsExec = nullptr, forkJoinExec = nullptr;
  CHECK_CUDA(cudaGraphInstantiate(&spinsExec, spins, 0));
  CHECK_CUDA(cudaGraphInstantiate(&forkJoinExec, forkJoin, 0));
  int wrong = 0;
  const int replays = 100;
  for (int replay = 0; replay < replays; ++replay) {
    fill(a, 0.0f);
    fill(b, 0.0f);
    CHECK_CUDA(cudaGraphLaunch(spinsExec, stream));
    bool right = copyBack(a, b) && allEqual(hostC, 1.0f) &&
                 allEqual(hostD, 2.0f);
    float value = float(replay + 1);
    fill(c, -1.0f);
    fill(d, -1.0f);
    spinFor<<<1, 1, 0, stream>>>(kAheadNanoseconds / 4);
    fill(a, value);
    CHECK_CUDA(cudaGraphLaunch(forkJoinExec, stream));
    right = right && copyBack(c, d) && allEqual(hostC, 4 * value) &&
            allEqual(hostD, 7.0f);
    wrong += !right;
  }
  printf("RESULT graph replays: %d of %d wrong\n", wrong, 2 * replays);
  EXPECT_EQ(wrong, 0);
  cudaGraphExecDestroy(spinsExec);
  cudaGraphExecDestroy(forkJoinExec);
  cudaGraphDestroy(spins);
  cudaGraphDestroy(forkJoin);
}
