// The hand-written CUDA baseline of the DaCe bandwidth benchmark
// (bench/dace/bandwidth.py): the STREAM triad A = B + s * C on device arrays
// of doubles, one element per thread, 256-thread blocks, on the caller's
// stream, as a CUDA programmer writes it for a bandwidth-bound loop. Built
// here by bench/dace/build.sh (nvcc, sm_90) into libtriad_hand.so.
#include <cuda_runtime.h>

__global__ void triadKernel(double *__restrict__ a, const double *__restrict__ b,
                            const double *__restrict__ c, double s, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

extern "C" int triad_hand(double *a, const double *b, const double *c, double s,
                          long long n, void *stream) {
  if (n <= 0)
    return 0;
  const int block = 256;
  long long grid = (n + block - 1) / block;
  triadKernel<<<static_cast<unsigned>(grid), block, 0,
                static_cast<cudaStream_t>(stream)>>>(a, b, c, s, n);
  return static_cast<int>(cudaGetLastError());
}
