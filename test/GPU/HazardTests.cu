//===- HazardTests.cu - Host/GPU hazards with and without their syncs -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// GPU tests of sdfg-insert-host-syncs (issue 10): each program of hazards.mlir
// has a host access that is right only if the host waits for GPU work still
// queued on the caller's stream. Every test runs the program 1000 times on a
// non-blocking stream with pinned host memory and a spinning kernel queued
// ahead of it, as compiled (must be right every time) and, in the same run,
// as its negative control compiled with the syncs (or the cross-stream
// waits) withheld (must go wrong at least once): proof that the test sees
// the hazard it claims the pass prevents.
//
//===----------------------------------------------------------------------===//

#include "HazardFixture.h"

namespace {
class Hazards : public HazardFixture {
protected:
  Hazards() : HazardFixture("sdfg-gpu-test-hazards") {}
};
} // namespace

// Class 1: the copied-back result read through casts, select and scf.if.
TEST_F(Hazards, ReadThroughAliases) {
  Memref1D d = view(device, kElements), h = view(host, kElements),
           s = view(spare, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    int32_t status = library.tryCall("alias_read", &d, &h, &s, &o, kElements,
                                     value, true);
    return status == 0 && *out == value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noSyncs, stream, once);
  report("aliases (reinterpret_cast, select, scf.if, unranked round trip)",
         compiled, withheld, "host syncs");
}

// Class 2: a host function that takes the result as memref<*xf32>.
TEST_F(Hazards, UnrankedArgument) {
  Memref1D d = view(device, kElements), h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    int32_t status =
        library.tryCall("unranked_read", &d, &h, &o, kElements, value);
    return status == 0 && *out == value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noSyncs, stream, once);
  report("unranked memref argument", compiled, withheld, "host syncs");
}

// Class 3: the host overwrites the source of an upload still queued.
TEST_F(Hazards, WriteAfterRead) {
  Memref1D h = view(host, kElements), d = view(device, kElements),
           b = view(back, kElements);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, value);
    fillHost(back, -1.0f);
    int32_t status = library.tryCall("write_after_read", &h, &d, &b,
                                     kElements, -3.0f);
    if (status != 0 || cudaStreamSynchronize(stream) != cudaSuccess)
      return false;
    return back[0] == value && back[kElements - 1] == value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noSyncs, stream, once);
  report("write after read (upload source overwritten)", compiled, withheld,
         "host syncs");
}

// Class 4: an scf.while whose condition reads what its body copies back.
TEST_F(Hazards, WhileLoopCondition) {
  Memref0D<int32_t> dc = scalar(deviceCount), hc = scalar(hostCount),
                    its = scalar(iterations);
  const int32_t limit = 5;
  auto once = [&](sdfgstream::Library &library, int) {
    *hostCount = 0;
    *iterations = -1;
    int32_t status = library.tryCall("while_count", &dc, &hc, &its, limit);
    return status == 0 && *iterations == limit;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noSyncs, stream, once);
  report("scf.while condition on a copied-back counter", compiled, withheld,
         "host syncs");
}

// Class 5: a kernel writes pinned host memory directly; the host reads it.
TEST_F(Hazards, KernelWritesMappedHostMemory) {
  Memref1D h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    int32_t status =
        library.tryCall("mapped_write", &h, &o, kElements, value);
    return status == 0 && *out == value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noSyncs, stream, once);
  report("kernel writing mapped host memory", compiled, withheld,
         "host syncs");
}

// Class 8: a copy on the program's stream depends on a kernel on another
// stream (queued behind the spin there).
TEST_F(Hazards, JoinedStreams) {
  Memref1D d = view(device, kElements), h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    if (cudaMemsetAsync(device, 0, kElements * sizeof(float), other) !=
        cudaSuccess)
      return false;
    int32_t status = library.tryCall("joined", &d, &h, &o,
                                     static_cast<void *>(other), kElements,
                                     value);
    return status == 0 && *out == value;
  };
  // The spin goes on the other stream: the program's own stream is idle.
  int compiled = countWrong(libraries.compiled, other, once);
  int withheld = countWrong(libraries.noWaits, other, once);
  report("joined streams (dependency on another stream's kernel)", compiled,
         withheld, "cross-stream waits");
}
