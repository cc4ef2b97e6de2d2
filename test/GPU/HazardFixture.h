//===- HazardFixture.h - Programs run behind a spin, with and without syncs ===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The fixture of the ordering tests (HazardTests.cu, OrderingTests.cu): a
// program library built three times (as compiled, with its host syncs
// withheld, with its cross-stream waits withheld), pinned host buffers,
// device buffers and two non-blocking streams. countWrong runs a call
// kRuns times with a spinning kernel queued ahead of it; report expects
// the compiled build right every time and the negative control wrong at
// least once.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TEST_GPU_HAZARDFIXTURE_H
#define SDFGSTREAM_TEST_GPU_HAZARDFIXTURE_H

#include "CheckCuda.h"
#include "ProgramLibraries.h"
#include "SanitizerMode.h"
#include "SpinFor.cuh"

#include "SDFGStream/Runtime/HostAPI.h"

#include <cuda_runtime.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {
/// 1000, a tenth of it under compute-sanitizer.
const int kRuns = repetitions(1000);
constexpr int64_t kElements = 1 << 20;
constexpr unsigned long long kSpinNanoseconds = 1000000; // 1 ms


template <typename T> struct Memref0D {
  T *allocated, *aligned;
  int64_t offset;
};
template <typename T> Memref0D<T> scalar(T *data) { return {data, data, 0}; }


/// A program library as compiled, without host syncs, without waits:
/// lib<base>.so, lib<base>-no-syncs.so, lib<base>-no-waits.so next to the
/// test binary.
struct HazardLibraries {
  explicit HazardLibraries(const std::string &base)
      : compiled(nextToSelf(("lib" + base + ".so").c_str())),
        noSyncs(nextToSelf(("lib" + base + "-no-syncs.so").c_str())),
        noWaits(nextToSelf(("lib" + base + "-no-waits.so").c_str())) {}
  sdfgstream::Library compiled, noSyncs, noWaits;
};

/// Buffers, a non-blocking stream for the calls and another one shared by
/// the tests of the programs in library `base`.
class HazardFixture : public ::testing::Test {
protected:
  explicit HazardFixture(const std::string &base) : libraries(base) {}

  void SetUp() override {
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    CHECK_CUDA(cudaMalloc(&device, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&host, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&spare, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&back, kElements * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&out, sizeof(float)));
    CHECK_CUDA(cudaMalloc(&deviceCount, sizeof(int32_t)));
    CHECK_CUDA(cudaMallocHost(&hostCount, sizeof(int32_t)));
    CHECK_CUDA(cudaMallocHost(&iterations, sizeof(int32_t)));
  }
  void TearDown() override {
    cudaStreamSynchronize(stream);
    cudaStreamSynchronize(other);
    cudaFree(device);
    cudaFreeHost(host);
    cudaFreeHost(spare);
    cudaFreeHost(back);
    cudaFreeHost(out);
    cudaFree(deviceCount);
    cudaFreeHost(hostCount);
    cudaFreeHost(iterations);
    cudaStreamDestroy(stream);
    cudaStreamDestroy(other);
  }
  void fillHost(float *data, float value) {
    for (int64_t i = 0; i < kElements; ++i)
      data[i] = value;
  }
  /// Runs `once(library, run)` kRuns times on `library` with the spin queued
  /// ahead on `spinStream`; returns how many runs `once` found wrong.
  template <typename Once>
  int countWrong(sdfgstream::Library &library, cudaStream_t spinStream,
                 Once once) {
    library.setExternalGpuStream(stream);
    int wrong = 0;
    for (int run = 0; run < kRuns; ++run) {
      spinFor<<<1, 1, 0, spinStream>>>(kSpinNanoseconds);
      bool right = once(library, run);
      // Idle streams before the next run resets its buffers.
      if (cudaStreamSynchronize(stream) != cudaSuccess ||
          cudaStreamSynchronize(other) != cudaSuccess)
        return -1;
      wrong += !right;
    }
    return wrong;
  }
  void report(const char *hazard, int compiled, int withheld,
              const char *control) {
    printf("RESULT hazard %s: %d runs: %d wrong as compiled, %d wrong with "
           "the %s withheld\n",
           hazard, kRuns, compiled, withheld, control);
    EXPECT_EQ(compiled, 0);
    expectControlSawTheHazard(withheld);
  }

  cudaStream_t stream = nullptr, other = nullptr;
  float *device = nullptr, *host = nullptr, *spare = nullptr, *back = nullptr,
        *out = nullptr;
  int32_t *deviceCount = nullptr, *hostCount = nullptr, *iterations = nullptr;
  HazardLibraries libraries;
};
} // namespace

#endif // SDFGSTREAM_TEST_GPU_HAZARDFIXTURE_H
