//===- OrderingRuntimeTests.cu - Graph mode and failed calls on the GPU ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// GPU tests of issue 22's classes 6, 8 and 9: the programs of
// ordering-runtime.mlir, built eager, in graph mode, and as negative
// controls (CMakeLists.txt): in graph mode without its checks (no flush
// before a call that leaves the runtime, graph mode though an allocation
// escapes, no record-time launch check) and eager with a runtime that frees
// a failed call's transients before joining its slots. Each runs 100 times
// as compiled (right every time) and as its control (wrong at least once)
// in the same run:
//
//   * 6: a kernel library built elsewhere (library_copy below) called on
//     the caller's stream with GPU-only buffers, no host sync before it,
//     sees the kernel queued before it; control: the library enqueuing on
//     a stream of its own instead;
//   * 8a: the same in graph mode: the recorded fill is flushed before the
//     library enqueues its copy;
//   * 8b: a program handing out its own GPU buffer through an out-pointer
//     hands out a new one each call, in graph mode too;
//   * 8c: a launch the device refuses (2048 threads per block) fails the
//     call in graph mode where the eager call fails: the host code after
//     it does not run; the next call works;
//   * 9: a call failing on slot 0 while slot 1 still writes its transient
//     frees the transient only after slot 1 joined: memory the caller then
//     allocates on another stream is not written by slot 1.
//
//===----------------------------------------------------------------------===//

#include "CheckCuda.h"
#include "ProgramLibraries.h"
#include "SanitizerMode.h"
#include "SpinFor.cuh"

#include "SDFGStream/Runtime/HostAPI.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {
/// 100, a tenth of it under compute-sanitizer.
const int kRuns = repetitions(100);
constexpr int64_t kElements = 1 << 20;
constexpr unsigned long long kSpinNanoseconds = 1000000; // 1 ms
/// Threads per block no device allows.
constexpr int64_t kRefusedThreads = 2048;

/// Where library_copy enqueues when set: a stream of its own, not the one
/// it is given (the control of class 6).
cudaStream_t libraryOwnStream = nullptr;

__global__ void copyElements(const float *from, float *to, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    to[i] = from[i];
}
} // namespace

/// The kernel library "built elsewhere" that ordering-runtime.mlir declares
/// as the body-less program @library_copy: memrefs as their descriptors'
/// fields, then n, then the stream. The test binary exports it
/// (kernel-library.exports) for the program libraries it loads.
extern "C" int32_t library_copy(float *, float *from, int64_t fromOffset,
                                int64_t, int64_t, float *, float *to,
                                int64_t toOffset, int64_t, int64_t, int64_t n,
                                void *stream) {
  cudaStream_t s =
      libraryOwnStream ? libraryOwnStream : static_cast<cudaStream_t>(stream);
  unsigned blocks = unsigned((n + 255) / 256);
  copyElements<<<blocks, 256, 0, s>>>(from + fromOffset, to + toOffset, n);
  return int32_t(cudaGetLastError());
}

namespace {
template <typename T> struct Memref0D {
  T *allocated, *aligned;
  int64_t offset;
};
template <typename T> Memref0D<T> scalar(T *data) { return {data, data, 0}; }

class RuntimeOrdering : public ::testing::Test {
protected:
  void SetUp() override {
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    CHECK_CUDA(cudaMalloc(&device, kElements * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&deviceOut, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&back, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&flag, sizeof(int32_t)));
    CHECK_CUDA(cudaMallocHost(&address, sizeof(int64_t)));
    for (sdfgstream::Library *library :
         {&eager, &graphs, &graphsUnchecked, &eagerControl})
      library->setExternalGpuStream(stream);
  }
  void TearDown() override {
    libraryOwnStream = nullptr;
    for (sdfgstream::Library *library : {&graphs, &graphsUnchecked})
      EXPECT_EQ(library->tryReleaseGraphs(), 0) << library->lastError();
    cudaDeviceSynchronize();
    cudaFree(device);
    cudaFree(deviceOut);
    cudaFreeHost(back);
    cudaFreeHost(flag);
    cudaFreeHost(address);
    cudaStreamDestroy(stream);
    cudaStreamDestroy(other);
  }

  /// Whether the `n` floats at device address `data` all equal `value`.
  bool allEqual(const float *data, float value) {
    if (cudaMemcpy(back, data, kElements * sizeof(float),
                   cudaMemcpyDeviceToHost) != cudaSuccess)
      return false;
    for (int64_t i = 0; i < kElements; ++i)
      if (back[i] != value)
        return false;
    return true;
  }

  /// Runs `once(library, run)` kRuns times; how many runs it found wrong.
  template <typename Once>
  int countWrong(sdfgstream::Library &library, Once once) {
    int wrong = 0;
    for (int run = 0; run < kRuns; ++run) {
      bool right = once(library, run);
      if (cudaDeviceSynchronize() != cudaSuccess)
        return -1;
      wrong += !right;
    }
    return wrong;
  }

  void report(const char *hazard, int compiled, int withheld,
              const char *control) {
    printf("RESULT ordering %s: %d runs: %d wrong as compiled, %d wrong "
           "with %s\n",
           hazard, kRuns, compiled, withheld, control);
    EXPECT_EQ(compiled, 0);
    expectControlSawTheHazard(withheld);
  }

  /// One call of @fill_then_library behind a spin: right if the library's
  /// copy saw the fill.
  bool fillThenLibraryOnce(sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    if (cudaMemsetAsync(deviceOut, 0, kElements * sizeof(float), stream) !=
        cudaSuccess)
      return false;
    spinFor<<<1, 1, 0, stream>>>(kSpinNanoseconds);
    Memref1D d = view(device, kElements), o = view(deviceOut, kElements);
    int32_t status =
        library.tryCall("fill_then_library", &d, &o, kElements, value);
    if (status != 0 || cudaStreamSynchronize(stream) != cudaSuccess ||
        cudaStreamSynchronize(other) != cudaSuccess)
      return false;
    return allEqual(deviceOut, value);
  }

  cudaStream_t stream = nullptr, other = nullptr;
  float *device = nullptr, *deviceOut = nullptr, *back = nullptr;
  int32_t *flag = nullptr;
  int64_t *address = nullptr;
  sdfgstream::Library eager{
      nextToSelf("libsdfg-gpu-test-ordering-runtime.so")};
  sdfgstream::Library graphs{
      nextToSelf("libsdfg-gpu-test-ordering-runtime-graph.so")};
  sdfgstream::Library graphsUnchecked{
      nextToSelf("libsdfg-gpu-test-ordering-runtime-graph-unchecked.so")};
  sdfgstream::Library eagerControl{
      nextToSelf("libsdfg-gpu-test-ordering-runtime-control.so")};
};
} // namespace

// Class 6: no host sync before a body-less target(gpu) program given the
// caller's stream and GPU-only buffers; its work is ordered by the stream.
TEST_F(RuntimeOrdering, KernelLibraryOnTheCallersStream) {
  auto once = [&](sdfgstream::Library &library, int run) {
    return fillThenLibraryOnce(library, run);
  };
  int compiled = countWrong(eager, once);
  libraryOwnStream = other;
  int withheld = countWrong(eager, once);
  libraryOwnStream = nullptr;
  report("kernel library on the caller's stream, no host sync before it",
         compiled, withheld, "the library on a stream of its own");
}

// Class 8a: in graph mode, what the call recorded is launched before a
// kernel library enqueues its own work on the stream.
TEST_F(RuntimeOrdering, GraphModeFlushesBeforeAKernelLibrary) {
  auto once = [&](sdfgstream::Library &library, int run) {
    return fillThenLibraryOnce(library, run);
  };
  sdfgrtGraphStats before = graphs.graphStats();
  int compiled = countWrong(graphs, once);
  sdfgrtGraphStats after = graphs.graphStats();
  int withheld = countWrong(graphsUnchecked, once);
  report("graph mode, kernel library after a recorded kernel", compiled,
         withheld, "no flush before the library call");
  // The calls did record (not all eager).
  EXPECT_LT(after.eagerCalls - before.eagerCalls, kRuns);
}

// Class 8b: a GPU buffer that leaves the call through an out-pointer is
// the call's own, in graph mode too: two calls, two buffers.
TEST_F(RuntimeOrdering, GraphModeHandsOutABufferPerCall) {
  constexpr int64_t n = 1 << 16;
  auto once = [&](sdfgstream::Library &library, int run) {
    float first = float(2 * run + 1), second = float(2 * run + 2);
    Memref0D<int64_t> out = scalar(address);
    *address = 0;
    if (library.tryCall("hand_out_buffer", &out, n, first) != 0)
      return false;
    float *a = reinterpret_cast<float *>(*address);
    *address = 0;
    if (library.tryCall("hand_out_buffer", &out, n, second) != 0)
      return false;
    float *b = reinterpret_cast<float *>(*address);
    if (cudaStreamSynchronize(stream) != cudaSuccess)
      return false;
    bool right = a && b && a != b;
    for (auto [buffer, value] : {std::pair(a, first), std::pair(b, second)}) {
      if (!right)
        break;
      right = cudaMemcpy(back, buffer, n * sizeof(float),
                         cudaMemcpyDeviceToHost) == cudaSuccess;
      for (int64_t i = 0; right && i < n; ++i)
        right = back[i] == value;
    }
    // Distinct buffers are the caller's to free; one handed out twice is
    // the program's kept buffer (the control), which its graphs free.
    if (a && b && a != b) {
      cudaFreeAsync(a, stream);
      cudaFreeAsync(b, stream);
    }
    return right;
  };
  int eagerWrong = countWrong(eager, once);
  int compiled = countWrong(graphs, once);
  int withheld = countWrong(graphsUnchecked, once);
  printf("RESULT ordering eager reference of the buffer handed out: %d "
         "runs, %d wrong\n",
         kRuns, eagerWrong);
  EXPECT_EQ(eagerWrong, 0);
  report("graph mode, a GPU buffer handed out through an out-pointer",
         compiled, withheld, "graph mode kept though the buffer escapes");
}

// Class 8c: a launch the device refuses fails a graph-mode call at the
// launch, as the eager call does: the host code after it never runs.
TEST_F(RuntimeOrdering, GraphModeFailsAtARefusedLaunch) {
  auto once = [&](sdfgstream::Library &library, int) {
    Memref1D d = view(device, kElements);
    Memref0D<int32_t> f = scalar(flag);
    *flag = 0;
    int32_t refused = library.tryCall("launch_then_host_store", &d, &f,
                                      kElements, kRefusedThreads);
    bool right = refused != 0 && *flag == 0;
    // The library works on after the failure.
    int32_t accepted = library.tryCall("launch_then_host_store", &d, &f,
                                       kElements, int64_t(256));
    return right && accepted == 0 && *flag == 1;
  };
  int eagerWrong = countWrong(eager, once);
  int compiled = countWrong(graphs, once);
  int withheld = countWrong(graphsUnchecked, once);
  printf("RESULT ordering eager reference of the refused launch: %d runs, "
         "%d wrong\n",
         kRuns, eagerWrong);
  EXPECT_EQ(eagerWrong, 0);
  report("graph mode, a launch the device refuses (host code after it)",
         compiled, withheld, "no record-time launch check");
}

// Class 9: a call that fails on slot 0 while slot 1 still writes its
// transient frees it only after slot 1 joined; memory the caller allocates
// on another stream right after the call is not written by slot 1.
TEST_F(RuntimeOrdering, AFailedCallFreesAfterItsSlotsJoin) {
  auto once = [&](sdfgstream::Library &library, int) {
    Memref1D d = view(device, kElements);
    int32_t status =
        library.tryCall("fail_while_a_slot_writes", &d, kElements,
                        int64_t(2 * kSpinNanoseconds), kRefusedThreads);
    if (status == 0)
      return false;
    // A free that does not wait for slot 1 has run by now; slot 1 spins.
    usleep(300);
    float *fresh = nullptr;
    if (cudaMallocAsync(&fresh, kElements * sizeof(float), other) !=
            cudaSuccess ||
        cudaMemsetAsync(fresh, 0, kElements * sizeof(float), other) !=
            cudaSuccess ||
        cudaDeviceSynchronize() != cudaSuccess)
      return false;
    bool right = allEqual(fresh, 0.0f);
    cudaFreeAsync(fresh, other);
    return right;
  };
  int compiled = countWrong(eager, once);
  int withheld = countWrong(eagerControl, once);
  report("a failed call's transient, still written by another slot",
         compiled, withheld, "the frees before the joins");
}
