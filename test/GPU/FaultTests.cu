//===- FaultTests.cu - Failing calls on a real GPU -------------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The programs of faults.mlir, compiled ahead of time, failing on the GPU: an
// allocation larger than the device and an illegal address in a kernel. Each
// call returns its status at once (the host code after the failure does not
// run), what it allocated goes back to the stream's pool, and the process
// stays usable where CUDA allows it (an illegal address is sticky: the
// context is lost, so that test runs last in its own process).
//
//===----------------------------------------------------------------------===//

#include "faults.h"

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "CheckCuda.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Bytes the device's current memory pool has handed out (the transients'
/// pool: the runtime allocates with cuMemAllocAsync on the stream).
uint64_t poolBytesInUse() {
  int device = 0;
  cudaGetDevice(&device);
  cudaMemPool_t pool;
  if (cudaDeviceGetMemPool(&pool, device) != cudaSuccess)
    return ~0ull;
  uint64_t used = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  return used;
}

TEST(Faults, OversizedAllocationReturnsAndFreesTheOtherTransient) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int64_t small = 1 << 20; // 4 MiB
  size_t freeBytes = 0, totalBytes = 0;
  CHECK_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
  const int64_t huge = int64_t(2 * totalBytes / sizeof(float)); // 2x device
  std::vector<float> out(small, -1.0f);
  sdfg_memref_1d_float outRef = {out.data(), out.data(), 0, {small}, {1}};

  // Warm up (module load, pool growth), then measure.
  int32_t after = 0;
  sdfg_memref_0d_int32_t afterRef = {&after, &after, 0};
  ASSERT_EQ(two_transients(&outRef, small, 1, 3.0f, &afterRef, stream), 0);
  ASSERT_EQ(after, 7);
  ASSERT_EQ(out[small - 1], 3.0f);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  uint64_t before = poolBytesInUse();

  int failures = 0;
  std::string error;
  for (int call = 0; call < 100; ++call) {
    after = 0;
    int32_t status =
        two_transients(&outRef, small, huge, 5.0f, &afterRef, stream);
    failures += status == CUDA_ERROR_OUT_OF_MEMORY;
    EXPECT_EQ(after, 0) << "host code after the failed allocation ran";
    error = sdfgrtGetLastError();
  }
  EXPECT_EQ(failures, 100);
  EXPECT_TRUE(contains(error, "cuMemAllocAsync failed")) << error;
  EXPECT_TRUE(contains(error, "faults.mlir:32")) << error;
  EXPECT_EQ(out[0], 3.0f) << "the copy after the failure ran";
  CHECK_CUDA(cudaStreamSynchronize(stream));
  uint64_t afterFailures = poolBytesInUse();
  EXPECT_EQ(afterFailures, before) << "transients of failed calls leaked";

  // The process is still usable: the next call computes its result.
  ASSERT_EQ(two_transients(&outRef, small, 1, 4.0f, &afterRef, stream), 0);
  EXPECT_EQ(after, 7);
  EXPECT_EQ(out[0], 4.0f);
  EXPECT_EQ(out[small - 1], 4.0f);
  printf("RESULT oversized allocation: 100/100 calls returned %d "
         "(CUDA_ERROR_OUT_OF_MEMORY), pool in use %llu -> %llu bytes, next "
         "call right; \"%s\"\n",
         CUDA_ERROR_OUT_OF_MEMORY, (unsigned long long)before,
         (unsigned long long)afterFailures, error.c_str());
  cudaStreamDestroy(stream);
}

TEST(Faults, IllegalAddressIsReturnedByTheCallThatReadsItsResult) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // Right first.
  float *target = nullptr;
  const int64_t n = 1 << 16;
  CHECK_CUDA(cudaMalloc(&target, n * sizeof(float)));
  float out = 0;
  int32_t after = 0;
  sdfg_memref_1d_float targetRef = {target, target, 0, {n}, {1}};
  sdfg_memref_1d_float outRef = {&out, &out, 0, {1}, {1}};
  sdfg_memref_0d_int32_t afterRef = {&after, &after, 0};
  ASSERT_EQ(fill_then_read(&targetRef, n, &outRef, &afterRef, stream), 0);
  EXPECT_EQ(out, 4.0f);
  EXPECT_EQ(after, 7);

  // An address that is no GPU memory: the kernel faults, the host sync
  // before the read reports it, and the read never happens.
  float *bogus = reinterpret_cast<float *>(0x10000);
  sdfg_memref_1d_float bogusRef = {bogus, bogus, 0, {n}, {1}};
  out = -1.0f;
  after = 0;
  int32_t status = fill_then_read(&bogusRef, n, &outRef, &afterRef, stream);
  std::string error = sdfgrtGetLastError();
  EXPECT_EQ(status, CUDA_ERROR_ILLEGAL_ADDRESS) << error;
  EXPECT_EQ(after, 0) << "host code after the failure ran";
  EXPECT_EQ(out, -1.0f) << "the host read after the failure ran";
  EXPECT_TRUE(contains(error, "CUDA_ERROR_ILLEGAL_ADDRESS")) << error;
  EXPECT_TRUE(contains(error, "faults.mlir:")) << error;
  // Sticky: CUDA keeps failing in this context (documented in
  // docs/lowering.md); the next call says so instead of crashing.
  int32_t next = fill_then_read(&targetRef, n, &outRef, &afterRef, stream);
  EXPECT_EQ(next, CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(after, 0);
  printf("RESULT illegal address: status %d, next call %d; \"%s\"\n", status,
         next, error.c_str());
}

} // namespace
