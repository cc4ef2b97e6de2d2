//===- SpinFor.cuh - A kernel that keeps a stream busy ---------*- CUDA -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Queued ahead of a program on its stream, so that the program's results are
// late: a host access that does not wait for them reads stale data. The
// benchmarks (bench/) use it too, as the unrelated work on another stream.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TEST_GPU_SPINFOR_CUH
#define SDFGSTREAM_TEST_GPU_SPINFOR_CUH

namespace {
/// Keeps the stream it runs on busy for `nanoseconds` of GPU time.
__global__ void spinFor(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}
} // namespace

#endif // SDFGSTREAM_TEST_GPU_SPINFOR_CUH
