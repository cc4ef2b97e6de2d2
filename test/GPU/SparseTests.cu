//===- SparseTests.cu - Sparse ops on the caller's stream, on a GPU -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sparse.mlir compiled ahead of time: SpMV and SpMM of a CSR matrix through
// the runtime's cuSPARSE entries, on a non-blocking stream the test
// creates. The input vector reaches the GPU on that stream only after a
// host function that sleeps: a sparse operation on any other stream would
// read the zeros that were there before and give a wrong result.
//
//===----------------------------------------------------------------------===//

#include "sparse.h"

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "CheckCuda.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kRows = 64, kCols = 48, kN = 8;

/// Where the runtime finds cuSPARSE: the loader's path, else the CUDA
/// toolkit's library folder (SDFGRT_CUSPARSE_LIBRARY).
void findCusparse() {
  if (getenv("SDFGRT_CUSPARSE_LIBRARY"))
    return;
  if (void *handle = dlopen("libcusparse.so.12", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(handle);
    return;
  }
  const char *toolkit = "/usr/local/cuda/lib64/libcusparse.so.12";
  if (access(toolkit, R_OK) == 0)
    setenv("SDFGRT_CUSPARSE_LIBRARY", toolkit, 1);
}

struct Problem {
  std::vector<int32_t> pos, crd;
  std::vector<float> val, x, y, b, c, expectedY, expectedC;

  Problem() {
    pos.push_back(0);
    for (int i = 0; i < kRows; ++i) {
      for (int j = 0; j < kCols; ++j) {
        if ((i * 7 + j * 3) % 5 == 0) {
          crd.push_back(j);
          val.push_back(float((i + 2 * j) % 9 - 4));
        }
      }
      pos.push_back(int32_t(crd.size()));
    }
    for (int j = 0; j < kCols; ++j)
      x.push_back(float(j % 5 - 2));
    for (int i = 0; i < kRows; ++i)
      y.push_back(float(i % 3));
    for (int k = 0; k < kCols * kN; ++k)
      b.push_back(float(k % 7 - 3));
    for (int k = 0; k < kRows * kN; ++k)
      c.push_back(float(k % 4));
    // Small integers: every sum is exact in f32, whatever the order.
    expectedY = y;
    expectedC = c;
    for (int i = 0; i < kRows; ++i) {
      for (int k = pos[i]; k < pos[i + 1]; ++k) {
        expectedY[i] += val[k] * x[crd[k]];
        for (int n = 0; n < kN; ++n)
          expectedC[i * kN + n] += val[k] * b[crd[k] * kN + n];
      }
    }
  }
};

template <typename T> T *toDevice(const std::vector<T> &host) {
  T *device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T),
             cudaMemcpyHostToDevice);
  return device;
}

sdfg_memref_1d_float view(float *device, int64_t size) {
  return {device, device, 0, {size}, {1}};
}

sdfg_memref_1d_int32_t viewIndices(int32_t *device, int64_t size) {
  return {device, device, 0, {size}, {1}};
}

void CUDART_CB sleepOnTheStream(void *) { usleep(200 * 1000); }

/// One call of the program on `stream`, x copied in behind a sleeping host
/// function; returns the number of wrong elements of y and C.
int callAndCount(const Problem &p, cudaStream_t stream, int32_t &status) {
  int32_t *pos = toDevice(p.pos), *crd = toDevice(p.crd);
  float *val = toDevice(p.val), *y = toDevice(p.y), *b = toDevice(p.b),
        *c = toDevice(p.c);
  std::vector<float> zeros(kCols, 0.0f);
  float *x = toDevice(zeros);
  float *hostX = nullptr;
  cudaMallocHost(&hostX, kCols * sizeof(float));
  std::copy(p.x.begin(), p.x.end(), hostX);
  cudaDeviceSynchronize(); // the test's set-up, not the program's

  cudaLaunchHostFunc(stream, sleepOnTheStream, nullptr);
  cudaMemcpyAsync(x, hostX, kCols * sizeof(float), cudaMemcpyHostToDevice,
                  stream);
  sdfg_memref_1d_int32_t posRef = viewIndices(pos, p.pos.size()),
                         crdRef = viewIndices(crd, p.crd.size());
  sdfg_memref_1d_float valRef = view(val, p.val.size()), xRef = view(x, kCols),
                       yRef = view(y, kRows), bRef = view(b, kCols * kN),
                       cRef = view(c, kRows * kN);
  status = spmv_spmm(kRows, kCols, int64_t(p.val.size()), kN, &posRef, &crdRef,
                     &valRef, &xRef, &yRef, &bRef, &cRef, stream);

  std::vector<float> gotY(kRows), gotC(kRows * kN);
  cudaMemcpy(gotY.data(), y, kRows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(gotC.data(), c, kRows * kN * sizeof(float),
             cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < kRows; ++i)
    wrong += gotY[i] != p.expectedY[i];
  for (int k = 0; k < kRows * kN; ++k)
    wrong += gotC[k] != p.expectedC[k];
  for (void *ptr : {(void *)pos, (void *)crd, (void *)val, (void *)x, (void *)y,
                    (void *)b, (void *)c})
    cudaFree(ptr);
  cudaFreeHost(hostX);
  return wrong;
}

TEST(Sparse, SpMVAndSpMMOnANonBlockingCallerStream) {
  findCusparse();
  Problem p;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int32_t status = -2;
  int wrong = callAndCount(p, stream, status);
  ASSERT_EQ(status, 0) << sdfgrtGetLastError();
  EXPECT_EQ(wrong, 0);
  printf("RESULT sparse: %dx%d CSR (%zu non-zeros) SpMV and SpMM (%d "
         "columns) on a non-blocking stream behind a 200 ms host function: "
         "%d wrong elements\n",
         kRows, kCols, p.val.size(), kN, wrong);
  CHECK_CUDA(cudaStreamDestroy(stream));
}

TEST(Sparse, TheHandleFollowsEachCallsStream) {
  findCusparse();
  Problem p;
  cudaStream_t first, second;
  CHECK_CUDA(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  int wrong = 0;
  for (cudaStream_t stream : {first, second, first}) {
    int32_t status = -2;
    wrong += callAndCount(p, stream, status);
    ASSERT_EQ(status, 0) << sdfgrtGetLastError();
  }
  EXPECT_EQ(wrong, 0);
  CHECK_CUDA(cudaStreamDestroy(first));
  CHECK_CUDA(cudaStreamDestroy(second));
}

} // namespace
