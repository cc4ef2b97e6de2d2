//===- StreamTests.cu - Compiled programs on the caller's stream ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Runs programs compiled ahead of time (programs.mlir, sync-call.mlir) on an
// NVIDIA GPU and checks each claim of the lowering and the runtime; every
// test fails if its claim is false. lit runs one test per process
// (test/GPU/*.test, REQUIRES: cuda).
//
//===----------------------------------------------------------------------===//

#include "device-checks.h"
#include "host-reads.h"
#include "programs.h"
#include "sync-call.h"
#include "timers.h"

#include "SDFGStream/Runtime/HostAPI.h"
#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "CheckCuda.h"
#include "CuptiRecorder.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#define CHECK_CUPTI(call)                                                      \
  do {                                                                         \
    CUptiResult result_ = (call);                                              \
    ASSERT_EQ(result_, CUPTI_SUCCESS) << #call;                                \
  } while (0)

namespace {
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Spins for `nanoseconds` of GPU time, then copies src to dst (which may be
/// pinned host memory): work that the program must wait for on the stream.
__global__ void spinThenCopy(unsigned long long nanoseconds, const float *src,
                             float *dst, int64_t n) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

/// Spins for `nanoseconds`, then stores `value` to `*dst`.
__global__ void spinThenStore(unsigned long long nanoseconds, int *dst,
                              int value) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
  *dst = value;
}

void spin(cudaStream_t stream, double milliseconds, const float *src = nullptr,
          float *dst = nullptr, int64_t n = 0) {
  spinThenCopy<<<n ? 256 : 1, 256, 0, stream>>>(
      (unsigned long long)(milliseconds * 1e6), src, dst, n);
}

/// A pinned host vector viewed as a rank-1 memref descriptor.
struct PinnedArray {
  explicit PinnedArray(int64_t n) : n(n) {
    if (cudaMallocHost(&data, std::max<int64_t>(n, 1) * sizeof(float)) !=
        cudaSuccess)
      data = nullptr;
    descriptor = {data, data, 0, {n}, {1}};
  }
  ~PinnedArray() { cudaFreeHost(data); }
  float *data = nullptr;
  int64_t n;
  sdfg_memref_1d_float descriptor;
};

/// Runs @pipeline on `stream`: out = 3 * in + 6.
int32_t runPipeline(PinnedArray &in, PinnedArray &out, cudaStream_t stream) {
  return pipeline(&in.descriptor, &out.descriptor, in.n, stream);
}

/// Checks that `records` hold exactly the pipeline's 3 kernels, 3 copies and
/// 1 memset, all on the stream with CUPTI id `streamId`.
void expectPipelineOn(const std::vector<ActivityRecord> &records,
                      uint32_t streamId) {
  int kernels = 0, copies = 0, memsets = 0;
  for (const ActivityRecord &record : records) {
    EXPECT_EQ(record.streamId, streamId)
        << record.kind << " ran on stream " << record.streamId;
    kernels += !strcmp(record.kind, "kernel");
    copies += !strcmp(record.kind, "memcpy");
    memsets += !strcmp(record.kind, "memset");
  }
  EXPECT_EQ(kernels, 3);
  EXPECT_EQ(copies, 3);
  EXPECT_EQ(memsets, 1);
}

void fillRandom(PinnedArray &array, std::mt19937 &rng) {
  // Small integers: every intermediate of 3x + 6 is exact in float.
  std::uniform_int_distribution<int> value(-1000, 1000);
  for (int64_t i = 0; i < array.n; ++i)
    array.data[i] = float(value(rng));
}

int64_t countWrong(const std::vector<float> &in, const PinnedArray &out) {
  int64_t wrong = 0;
  for (int64_t i = 0; i < out.n; ++i)
    wrong += out.data[i] != 3.0f * in[i] + 6.0f;
  return wrong;
}
} // namespace

//===----------------------------------------------------------------------===//
// a. Ordering: everything runs on the caller's stream, after its earlier work.
//===----------------------------------------------------------------------===//

TEST(Stream, OrderedAfterCallersWork) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int64_t> size(1, 1 << 20);
  std::vector<double> callMs;
  int64_t wrongRuns = 0;
  for (int rep = 0; rep < 100; ++rep) {
    int64_t n = size(rng);
    PinnedArray source(n), in(n), out(n);
    ASSERT_TRUE(source.data && in.data && out.data);
    fillRandom(source, rng);
    std::fill(in.data, in.data + n, -7.0f);  // Stale input...
    std::fill(out.data, out.data + n, 0.0f);
    std::vector<float> expected(source.data, source.data + n);
    // ...replaced only after ~50 ms of GPU time on the caller's stream.
    spin(stream, 50, source.data, in.data, n);
    Clock::time_point start = Clock::now();
    ASSERT_EQ(runPipeline(in, out, stream), 0) << sdfgrtGetLastError();
    callMs.push_back(millisecondsSince(start));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    int64_t wrong = countWrong(expected, out);
    wrongRuns += wrong != 0;
    EXPECT_EQ(wrong, 0) << "repetition " << rep << ", n = " << n;
  }
  std::sort(callMs.begin(), callMs.end());
  printf("RESULT ordering: 100 runs, %lld wrong; host time per call: median "
         "%.3f ms, p10 %.3f ms, p90 %.3f ms\n",
         (long long)wrongRuns, callMs[50], callMs[10], callMs[90]);
  // The calls only enqueue: none waited for the 50 ms of spinning.
  EXPECT_LT(callMs[50], 25.0);
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// b. CUPTI: every kernel, copy and memset carries the caller's stream id.
//===----------------------------------------------------------------------===//

TEST(Stream, CuptiSeesOnlyTheCallersStream) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  PinnedArray in(4096), out(4096);
  std::mt19937 rng(7);
  fillRandom(in, rng);
  std::vector<float> expected(in.data, in.data + in.n);
  std::vector<ActivityRecord> records = recordActivities(
      [&] { EXPECT_EQ(runPipeline(in, out, stream), 0); });
  uint32_t id = cuptiStreamId(stream);
  expectPipelineOn(records, id);
  EXPECT_EQ(countWrong(expected, out), 0);
  printf("RESULT cupti: %zu activity records, all on stream id %u\n",
         records.size(), id);
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// c. Async calls return at once; sync calls wait for their own stream only.
//===----------------------------------------------------------------------===//

TEST(Stream, AsyncAndSyncCallsIgnoreOtherStreams) {
  cudaStream_t mine, other;
  CHECK_CUDA(cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  PinnedArray in(1 << 16), out(1 << 16);
  std::mt19937 rng(3);
  fillRandom(in, rng);
  std::vector<float> expected(in.data, in.data + in.n);
  // Warm up: load the kernels once.
  ASSERT_EQ(runPipeline(in, out, mine), 0);
  CHECK_CUDA(cudaStreamSynchronize(mine));

  spin(other, 20);
  Clock::time_point start = Clock::now();
  ASSERT_EQ(runPipeline(in, out, mine), 0);
  double asyncMs = millisecondsSince(start);
  EXPECT_EQ(cudaStreamQuery(other), cudaErrorNotReady)
      << "the unrelated kernel finished before the async call returned";
  CHECK_CUDA(cudaStreamSynchronize(mine));
  EXPECT_EQ(countWrong(expected, out), 0);
  CHECK_CUDA(cudaStreamSynchronize(other));

  float *device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, out.n * sizeof(float)));
  sdfg_memref_1d_float deviceView = {device, device, 0, {out.n}, {1}};
  spin(other, 20);
  start = Clock::now();
  ASSERT_EQ(fill_sync(&deviceView, &out.descriptor, 42.0f, mine), 0);
  double syncMs = millisecondsSince(start);
  // Returned with its own work done, while the other stream still runs.
  EXPECT_EQ(cudaStreamQuery(mine), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(other), cudaErrorNotReady)
      << "the sync call waited for the unrelated kernel";
  EXPECT_TRUE(std::all_of(out.data, out.data + out.n,
                          [](float v) { return v == 42.0f; }));
  EXPECT_LT(syncMs, 10.0);
  printf("RESULT async/sync: async call %.3f ms, sync call %.3f ms, while a "
         "20 ms kernel ran on another stream\n",
         asyncMs, syncMs);
  CHECK_CUDA(cudaStreamSynchronize(other));
  cudaFree(device);
  cudaStreamDestroy(mine);
  cudaStreamDestroy(other);
}

//===----------------------------------------------------------------------===//
// d. Transient buffers come from the stream-ordered pool of the device.
//===----------------------------------------------------------------------===//

static size_t usedHigh(cudaMemPool_t pool) {
  cuuint64_t value = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &value);
  return value;
}

static void resetUsedHigh(cudaMemPool_t pool) {
  cuuint64_t zero = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
}

TEST(Stream, TransientsComeFromTheCurrentPool) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int64_t n = 1 << 20;
  const size_t transients = 3 * n * sizeof(float);
  PinnedArray in(n), out(n);
  std::mt19937 rng(11);
  fillRandom(in, rng);
  std::vector<float> expected(in.data, in.data + n);

  cudaMemPool_t defaultPool;
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&defaultPool, 0));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  resetUsedHigh(defaultPool);
  ASSERT_EQ(runPipeline(in, out, stream), 0);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  size_t defaultHigh = usedHigh(defaultPool);
  EXPECT_GE(defaultHigh, transients);
  EXPECT_EQ(countWrong(expected, out), 0);

  // A pool the caller made current is the one used.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t custom;
  CHECK_CUDA(cudaMemPoolCreate(&custom, &props));
  CHECK_CUDA(cudaDeviceSetMemPool(0, custom));
  resetUsedHigh(defaultPool);
  resetUsedHigh(custom);
  ASSERT_EQ(runPipeline(in, out, stream), 0) << sdfgrtGetLastError();
  CHECK_CUDA(cudaStreamSynchronize(stream));
  size_t customHigh = usedHigh(custom);
  EXPECT_GE(customHigh, transients);
  EXPECT_EQ(usedHigh(defaultPool), 0u);
  EXPECT_EQ(countWrong(expected, out), 0);
  printf("RESULT pool: transients %zu B; default pool high-water %zu B; "
         "custom pool high-water %zu B (default pool untouched: %zu B)\n",
         transients, defaultHigh, customHigh, usedHigh(defaultPool));
  CHECK_CUDA(cudaDeviceSetMemPool(0, defaultPool));
  cudaMemPoolDestroy(custom);
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// e. Graph capture of a call (the first one of the process), replayed.
//===----------------------------------------------------------------------===//

TEST(Stream, CapturedIntoAGraph) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int64_t n = 100000;
  PinnedArray in(n), out(n);
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  int32_t status = runPipeline(in, out, stream);
  cudaGraph_t graph = nullptr;
  cudaError_t endError = cudaStreamEndCapture(stream, &graph);
  ASSERT_EQ(status, 0) << sdfgrtGetLastError();
  ASSERT_EQ(endError, cudaSuccess) << cudaGetErrorString(endError);
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  size_t nodes = 0;
  CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  std::mt19937 rng(5);
  int wrongReplays = 0;
  for (int replay = 0; replay < 10; ++replay) {
    fillRandom(in, rng);
    std::vector<float> expected(in.data, in.data + n);
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    int64_t wrong = countWrong(expected, out);
    wrongReplays += wrong != 0;
    EXPECT_EQ(wrong, 0) << "replay " << replay;
  }
  printf("RESULT graph: captured %zu nodes, 10 replays, %d wrong\n", nodes,
         wrongReplays);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// f. Stream 0 is the (legacy) default stream.
//===----------------------------------------------------------------------===//

TEST(Stream, NullStreamIsTheDefaultStream) {
  PinnedArray in(4096), out(4096);
  std::mt19937 rng(13);
  fillRandom(in, rng);
  std::vector<float> expected(in.data, in.data + in.n);
  std::vector<ActivityRecord> records = recordActivities(
      [&] { EXPECT_EQ(runPipeline(in, out, nullptr), 0); });
  uint32_t id = cuptiStreamId(nullptr);
  expectPipelineOn(records, id);
  EXPECT_EQ(countWrong(expected, out), 0);
  printf("RESULT null stream: %zu records on the default stream (id %u)\n",
         records.size(), id);
}

//===----------------------------------------------------------------------===//
// Errors are returned, never fatal.
//===----------------------------------------------------------------------===//

TEST(Stream, FailureIsReturnedWithItsLocation) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  PinnedArray out(16);
  // Not a device allocation: the memset fails, the copy after it is skipped.
  float *bogus = reinterpret_cast<float *>(0x1000);
  sdfg_memref_1d_float bad = {bogus, bogus, 0, {16}, {1}};
  std::fill(out.data, out.data + 16, -1.0f);
  int32_t status = fill_sync(&bad, &out.descriptor, 1.0f, stream);
  EXPECT_NE(status, 0);
  std::string error = sdfgrtGetLastError();
  printf("RESULT error: status %d, \"%s\"\n", status, error.c_str());
  EXPECT_NE(error.find("cuMemsetD32Async"), std::string::npos) << error;
  EXPECT_NE(error.find("sync-call.mlir:6"), std::string::npos) << error;
  EXPECT_EQ(out.data[0], -1.0f) << "the copy after the failure ran";
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// Host reads: a branch on a value copied to the host in the state before.
//===----------------------------------------------------------------------===//

TEST(HostReads, BranchSeesTheCopiedValue) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int *device = nullptr, *host = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&device, sizeof(int)));
  CHECK_CUDA(cudaMallocHost(&host, sizeof(int)));
  CHECK_CUDA(cudaMallocHost(&out, sizeof(int)));
  sdfg_memref_0d_int32_t deviceView = {device, device, 0};
  sdfg_memref_0d_int32_t hostView = {host, host, 0};
  sdfg_memref_0d_int32_t outView = {out, out, 0};
  std::mt19937 rng(17);
  int wrong = 0;
  for (int run = 0; run < 1000; ++run) {
    int value = (rng() & 1) ? run + 1 : -(run + 1);
    *host = -value; // Stale: the opposite branch.
    *out = 0;
    // The value appears on the device only after ~10 ms on the stream.
    spinThenStore<<<1, 1, 0, stream>>>(10000000ull, device, value);
    ASSERT_EQ(branch_on_copy(&deviceView, &hostView, &outView, stream), 0)
        << sdfgrtGetLastError();
    // The program returned after its own sync: `out` is final, no sync here.
    wrong += *out != (value > 0 ? 1 : 2);
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  printf("RESULT branch on copied value: 1000 runs, %d wrong\n", wrong);
  EXPECT_EQ(wrong, 0);
  cudaFree(device);
  cudaFreeHost(host);
  cudaFreeHost(out);
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// Overlapping device-to-device copies behave like memmove.
//===----------------------------------------------------------------------===//

TEST(DeviceCopies, OverlapIsMemmove) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int64_t maxLength = 64ll << 20;
  const int64_t capacity = 2 * maxLength + 64;
  uint8_t *device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, capacity));
  std::vector<uint8_t> initial(capacity), expected, actual(capacity);
  for (int64_t i = 0; i < capacity; ++i)
    initial[i] = uint8_t(i * 131 + (i >> 8) * 7 + 1);
  sdfg_memref_1d_int8_t view = {reinterpret_cast<int8_t *>(device),
                                reinterpret_cast<int8_t *>(device), 0,
                                {capacity}, {1}};
  int cases = 0, wrong = 0;
  for (int64_t length = 1; length <= maxLength; length *= 2) {
    for (int64_t extra : {int64_t(0), int64_t(3)}) {
      int64_t len = std::min(length + (length > 4 ? extra : 0), maxLength);
      for (int64_t shift : {int64_t(1), len / 3 + 1, len - 1}) {
        if (shift <= 0 || shift > len)
          continue;
        for (bool forward : {true, false}) {
          int64_t from = forward ? 16 : 16 + shift;
          int64_t to = forward ? 16 + shift : 16;
          CHECK_CUDA(cudaMemcpy(device, initial.data(), capacity,
                                cudaMemcpyHostToDevice));
          ASSERT_EQ(move_bytes(&view, from, to, len, stream), 0)
              << sdfgrtGetLastError();
          CHECK_CUDA(cudaMemcpyAsync(actual.data(), device, capacity,
                                     cudaMemcpyDeviceToHost, stream));
          CHECK_CUDA(cudaStreamSynchronize(stream));
          expected = initial;
          std::memmove(expected.data() + to, expected.data() + from, len);
          bool same = expected == actual;
          wrong += !same;
          ++cases;
          EXPECT_TRUE(same) << "length " << len << ", shift " << shift
                            << (forward ? " forward" : " backward");
        }
      }
    }
  }
  printf("RESULT overlapping device copies: %d cases (1 B to 64 MiB, both "
         "directions), %d differ from memmove\n",
         cases, wrong);
  cudaFree(device);
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// Nested programs and library nodes run on the caller's stream.
//===----------------------------------------------------------------------===//

TEST(Nested, ProgramsAndLibraryNodesOnCallersStream) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int64_t n = 1 << 16;
  const int64_t times = 3;
  std::vector<float> host(n);
  double expectedSum = 0;
  for (int64_t i = 0; i < n; ++i) {
    host[i] = float(i % 7);
    expectedSum += host[i] + times;
  }
  float *x = nullptr, *sum = nullptr;
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&sum, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(x, host.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice));
  sdfg_memref_1d_float xView = {x, x, 0, {n}, {1}};
  sdfg_memref_0d_float sumView = {sum, sum, 0};
  std::vector<ActivityRecord> records = recordActivities([&] {
    EXPECT_EQ(nested_then_reduce(&xView, &sumView, n, times, stream), 0)
        << sdfgrtGetLastError();
  });
  uint32_t id = cuptiStreamId(stream);
  int kernels = 0, memsets = 0;
  for (const ActivityRecord &record : records) {
    EXPECT_EQ(record.streamId, id) << record.kind;
    kernels += !strcmp(record.kind, "kernel");
    memsets += !strcmp(record.kind, "memset");
  }
  EXPECT_EQ(kernels, times + 1); // The nested loop's launches + the reduction.
  EXPECT_EQ(memsets, 1);         // The reduction's output.
  float result = 0;
  CHECK_CUDA(cudaMemcpy(&result, sum, sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_EQ(double(result), expectedSum);
  printf("RESULT nested program + library node: %d kernels and %d memset, all "
         "on stream id %u; sum %.1f (expected %.1f)\n",
         kernels, memsets, id, result, expectedSum);
  cudaFree(x);
  cudaFree(sum);
  cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// Timers: events on the program's own stream, no device-wide sync.
//===----------------------------------------------------------------------===//

TEST(Timers, ReportTheProgramsOwnTimeNextToABusyStream) {
  const char *program = "timed_spin";
  const int64_t programNs = 5'000'000; // ~5 ms of GPU time per call
  cudaStream_t stream, busy;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking));
  cudaEvent_t before, after;
  CHECK_CUDA(cudaEventCreate(&before));
  CHECK_CUDA(cudaEventCreate(&after));
  // The first call loads the kernel; time the second.
  ASSERT_EQ(timed_spin(1000, stream), 0) << sdfgrtGetLastError();
  CHECK_CUDA(cudaStreamSynchronize(stream));
  sdfgrtTimerReset(program);

  // An unrelated 50 ms kernel on another stream; a timer that synchronized
  // the device would report >= 50 ms.
  spin(busy, 50.0);
  CHECK_CUDA(cudaEventRecord(before, stream));
  Clock::time_point start = Clock::now();
  int32_t status = timed_spin(programNs, stream);
  double hostMs = millisecondsSince(start);
  CHECK_CUDA(cudaEventRecord(after, stream));
  ASSERT_EQ(status, 0) << sdfgrtGetLastError();

  // The asynchronous call returned without waiting for its GPU work, and
  // its time is not resolved yet.
  double ms = -1;
  int64_t calls = -1, pending = -1;
  ASSERT_EQ(sdfgrtTimerQuery(program, /*wait=*/0, &ms, &calls, &pending), 0)
      << sdfgrtGetLastError();
  EXPECT_LT(hostMs, 2.0);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(pending, 1);

  // Asked to wait, it waits for the program's own end event only: the
  // unrelated kernel is still running afterwards.
  ASSERT_EQ(sdfgrtTimerQuery(program, /*wait=*/1, &ms, &calls, &pending), 0)
      << sdfgrtGetLastError();
  EXPECT_EQ(cudaStreamQuery(busy), cudaErrorNotReady)
      << "the timer waited for the unrelated kernel";
  CHECK_CUDA(cudaEventSynchronize(after));
  float ownMs = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ownMs, before, after));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(pending, 0);
  EXPECT_NEAR(ms, ownMs, 0.05 * ownMs);
  EXPECT_LT(ms, 50.0);
  printf("RESULT timer: reported %.3f ms, events around the call %.3f ms "
         "(%.2f%% apart), host time of the async call %.3f ms, unrelated "
         "50 ms kernel still running: %s\n",
         ms, ownMs, 100.0 * std::abs(ms - ownMs) / ownMs, hostMs,
         cudaStreamQuery(busy) == cudaErrorNotReady ? "yes" : "no");

  // A later call resolves finished calls without waiting.
  ASSERT_EQ(timed_spin(programNs, stream), 0) << sdfgrtGetLastError();
  CHECK_CUDA(cudaStreamSynchronize(stream));
  ASSERT_EQ(timed_spin(programNs, stream), 0) << sdfgrtGetLastError();
  ASSERT_EQ(sdfgrtTimerQuery(program, /*wait=*/0, &ms, &calls, &pending), 0);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(pending, 1);
  ASSERT_EQ(sdfgrtTimerQuery(program, /*wait=*/1, &ms, &calls, &pending), 0);
  EXPECT_EQ(calls, 3);
  EXPECT_NEAR(ms / 3, programNs / 1e6, 0.05 * programNs / 1e6);
  printf("RESULT timer: 3 calls, %.3f ms in all (%.3f ms per call)\n", ms,
         ms / 3);

  CHECK_CUDA(cudaStreamSynchronize(busy));
  cudaEventDestroy(before);
  cudaEventDestroy(after);
  cudaStreamDestroy(stream);
  cudaStreamDestroy(busy);
}

//===----------------------------------------------------------------------===//
// Host API: rebinding a program library's stream keeps its calls in order.
//===----------------------------------------------------------------------===//

/// The program library made from host-api.mlir, next to this executable.
static std::string hostApiLibraryPath() {
  char self[4096];
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  std::string path(self, length > 0 ? length : 0);
  return path.substr(0, path.rfind('/') + 1) + "libsdfg-gpu-test-host-api.so";
}

TEST(HostApi, RebindingKeepsTheCallsInOrder) {
  cudaStream_t streams[2];
  for (cudaStream_t &stream : streams)
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int64_t n = 1 << 22;
  const int calls = 1000;
  float *x = nullptr;
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(x, 0, n * sizeof(float)));
  CHECK_CUDA(cudaDeviceSynchronize()); // The test's own sync, before.
  sdfg_memref_1d_float view = {x, x, 0, {n}, {1}};
  sdfgstream::Library library(hostApiLibraryPath());

  // Each call adds 1 to what the call before it wrote, alternately on A and
  // B. The first one also comes after 20 ms of GPU work on A: unless every
  // rebinding orders the new stream after the old one, calls on B run
  // before it, concurrently with calls on A, and increments are lost.
  library.setExternalGpuStream(streams[0]);
  spin(streams[0], 20);
  std::vector<double> callMs;
  for (int i = 0; i < calls; ++i) {
    Clock::time_point start = Clock::now();
    library.setExternalGpuStream(streams[i % 2]);
    int32_t status = library.tryCall("add_one", &view, n);
    callMs.push_back(millisecondsSince(start));
    ASSERT_EQ(status, 0) << library.lastError();
  }
  bool stillRunning = cudaStreamQuery(streams[1]) == cudaErrorNotReady;
  // The last call ran on B, which is ordered after all the others.
  CHECK_CUDA(cudaStreamSynchronize(streams[1]));
  std::vector<float> result(n);
  CHECK_CUDA(cudaMemcpy(result.data(), x, n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  int64_t wrong = 0;
  for (float value : result)
    wrong += value != float(calls);
  std::sort(callMs.begin(), callMs.end());
  printf("RESULT host API rebinding: %d calls alternating between two "
         "streams, each on the previous one's output: %lld of %lld elements "
         "wrong; host time per rebinding + call: median %.3f ms, p90 %.3f ms; "
         "GPU still busy when the loop ended: %s\n",
         calls, (long long)wrong, (long long)n, callMs[calls / 2],
         callMs[calls * 9 / 10], stillRunning ? "yes" : "no");
  EXPECT_EQ(wrong, 0);
  cudaFree(x);
  for (cudaStream_t stream : streams)
    cudaStreamDestroy(stream);
}

//===----------------------------------------------------------------------===//
// Device checks (--check-devices): data of the stream's device passes.
//===----------------------------------------------------------------------===//

TEST(DeviceChecks, BuffersOfTheStreamsDevicePass) {
  const int64_t n = 1 << 20;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  float *device = nullptr, *pooled = nullptr, *managed = nullptr,
        *pinned = nullptr;
  CHECK_CUDA(cudaMalloc(&device, n * sizeof(float)));
  CHECK_CUDA(cudaMallocAsync(&pooled, n * sizeof(float), stream));
  CHECK_CUDA(cudaMallocManaged(&managed, n * sizeof(float)));
  CHECK_CUDA(cudaMallocHost(&pinned, n * sizeof(float)));
  std::vector<float> host(n);
  for (int64_t i = 0; i < n; ++i)
    host[i] = float(i % 1000);
  struct Case {
    const char *what;
    float *data;
  } cases[] = {{"cudaMalloc", device},
               {"cudaMallocAsync (current pool)", pooled},
               {"managed", managed},
               {"pinned host", pinned}};
  std::string results;
  for (const Case &c : cases) {
    CHECK_CUDA(cudaMemcpyAsync(c.data, host.data(), n * sizeof(float),
                               cudaMemcpyDefault, stream));
    sdfg_memref_1d_float view = {c.data, c.data, 0, {n}, {1}};
    int32_t status = checked_add_one(&view, n, stream);
    EXPECT_EQ(status, 0) << c.what << ": " << sdfgrtGetLastError();
    std::vector<float> result(n);
    CHECK_CUDA(cudaMemcpyAsync(result.data(), c.data, n * sizeof(float),
                               cudaMemcpyDefault, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      wrong += result[i] != host[i] + 1.0f;
    EXPECT_EQ(wrong, 0) << c.what;
    results += std::string(results.empty() ? "" : "; ") + c.what +
               ": status " + std::to_string(status) + ", " +
               std::to_string(wrong) + " wrong";
  }

  // What the check costs: host time of a call, median of 1000.
  sdfg_memref_1d_float view = {device, device, 0, {n}, {1}};
  std::vector<double> times;
  for (int i = 0; i < 1000; ++i) {
    Clock::time_point start = Clock::now();
    ASSERT_EQ(checked_add_one(&view, n, stream), 0);
    times.push_back(millisecondsSince(start) * 1e3);
    if (i % 100 == 99)
      CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  std::sort(times.begin(), times.end());
  printf("RESULT device checks: %s; host time per checked call median "
         "%.1f us\n",
         results.c_str(), times[times.size() / 2]);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  cudaFreeAsync(pooled, stream);
  cudaStreamSynchronize(stream);
  cudaFree(device);
  cudaFree(managed);
  cudaFreeHost(pinned);
  cudaStreamDestroy(stream);
}
