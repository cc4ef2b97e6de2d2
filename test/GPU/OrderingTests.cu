//===- OrderingTests.cu - Ordering classes of issue 22 on the GPU ---------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// GPU tests of the ordering classes of issue 22 that order data: each
// program of ordering-classes.mlir (built with --concurrent-streams) has an
// access that is right only if it waits for GPU work queued on a stream,
// behind a spinning kernel: a buffer reached through a pointer table
// (escaped address), a token carried through scf.if and scf.for from another
// stream, a device global written on another slot, a callee's work on
// another stream it is given, a kernel writing host memory through a
// memory-space cast, a callee that syncs its stream after another slot's
// write. Each runs 1000 times as compiled (right every time)
// and as its negative control (syncs or waits withheld: wrong at least
// once), in the same run (HazardFixture.h).
//
// And the token shapes of issue 35, in upstream's async form: a token
// whose producer is written later in the text than its consumer (a loop's
// body, scf.for and cf; blocks out of execution order) and a token passed
// into a callee, and a GPU op in sync form followed by a new chain; each
// negative control lacks the cross-slot waits.
//
//===----------------------------------------------------------------------===//

#include "HazardFixture.h"

namespace {
/// A rank-1 memref<?xi64> descriptor.
struct MemrefI64 {
  int64_t *allocated, *aligned;
  int64_t offset, size, stride;
};

class Ordering : public HazardFixture {
protected:
  Ordering() : HazardFixture("sdfg-gpu-test-ordering") {}
  void SetUp() override {
    HazardFixture::SetUp();
    CHECK_CUDA(cudaMallocHost(&table, sizeof(int64_t)));
  }
  void TearDown() override {
    HazardFixture::TearDown();
    cudaFreeHost(table);
  }
  /// Issue 35's shapes: `program` fills d on one slot after a spin and
  /// copies it back to h on another, ordered by a token whose producer is
  /// written later in the text (or passed into a callee), or by a fill in
  /// sync form; out = h[n - 1].
  void checkLaterProducer(const char *program, const char *shape) {
    Memref1D d = view(device, kElements), h = view(host, kElements);
    Memref0D<float> o = scalar(out);
    auto once = [&](sdfgstream::Library &library, int run) {
      float value = float(run + 1);
      fillHost(host, -1.0f);
      *out = -2.0f;
      if (cudaMemset(device, 0, 256 * sizeof(float)) != cudaSuccess)
        return false;
      // One block fills (and spins): the copy moves all of d.
      int32_t status = library.tryCall(program, &d, &h, &o, int64_t(256),
                                       value, int64_t(kSpinNanoseconds));
      return status == 0 && *out == value;
    };
    int compiled = countWrong(libraries.compiled, stream, once);
    int withheld = countWrong(libraries.noWaits, stream, once);
    report(shape, compiled, withheld, "cross-slot waits");
  }
  int64_t *table = nullptr;
};
} // namespace

// Class 1: h's address is stored into a pointer table; a kernel writes h
// through it; the host reads h.
TEST_F(Ordering, EscapedAddressPointerTable) {
  Memref1D h = view(host, kElements);
  MemrefI64 t = {table, table, 0, 1, 1};
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *table = 0;
    *out = -2.0f;
    int32_t status =
        library.tryCall("pointer_table", &h, &t, &o, kElements, value);
    return status == 0 && *out == value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noSyncs, stream, once);
  report("escaped address (pointer table a kernel writes through)", compiled,
         withheld, "host syncs");
}

// Class 2: the token of a kernel on another stream reaches the copy back on
// the caller's stream through scf.if and scf.for.
TEST_F(Ordering, TokenThroughRegions) {
  Memref1D d = view(device, kElements), h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    if (cudaMemsetAsync(device, 0, kElements * sizeof(float), other) !=
        cudaSuccess)
      return false;
    int32_t status = library.tryCall("token_through_regions", &d, &h, &o,
                                     static_cast<void *>(other), kElements,
                                     value, true);
    return status == 0 && *out == value;
  };
  // The spin goes on the other stream: the program's own stream is idle.
  int compiled = countWrong(libraries.compiled, other, once);
  int withheld = countWrong(libraries.noWaits, other, once);
  report("token through scf.if and scf.for (from another stream)", compiled,
         withheld, "cross-stream waits");
}

// Class 3: slot 1 sets a device global after a spin; slot 0's kernel reads
// it.
TEST_F(Ordering, DeviceGlobalAcrossSlots) {
  Memref1D d = view(device, kElements), h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    int32_t status = library.tryCall("device_global", &d, &h, &o, value,
                                     int64_t(kSpinNanoseconds));
    return status == 0 && *out == value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noWaits, stream, once);
  report("device global written on another slot", compiled, withheld,
         "cross-slot waits");
}

// Class 4: a callee fills and copies back on the other stream it is given;
// the caller reads the copy.
TEST_F(Ordering, CalleeWorkOnAnotherStream) {
  Memref1D d = view(device, kElements), h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    int32_t status = library.tryCall("callee_on_other_stream", &d, &h, &o,
                                     static_cast<void *>(other), kElements,
                                     value);
    return status == 0 && *out == value;
  };
  int compiled = countWrong(libraries.compiled, other, once);
  int withheld = countWrong(libraries.noSyncs, other, once);
  report("callee's work on another stream it is given", compiled, withheld,
         "host syncs");
}

// Class 7: a kernel writes pinned host memory through a view cast to the
// GPU's global space; the host reads it through both views.
TEST_F(Ordering, KernelWritesThroughMemorySpaceCast) {
  Memref1D h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    int32_t status =
        library.tryCall("cast_view_write", &h, &o, kElements, value);
    return status == 0 && *out == 2 * value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noSyncs, stream, once);
  report("kernel writes host memory through memory_space_cast", compiled,
         withheld, "host syncs");
}

// Callees that sync: slot 1 fills d after a spin; a callee on slot 0
// copies d back and syncs its stream before it returns; the caller reads
// the copy. Its GPU work must wait for slot 1 (it did not, while the
// analysis dropped a syncing callee's accesses).
TEST_F(Ordering, SyncingCalleeAcrossSlots) {
  Memref1D d = view(device, kElements), h = view(host, kElements);
  Memref0D<float> o = scalar(out);
  auto once = [&](sdfgstream::Library &library, int run) {
    float value = float(run + 1);
    fillHost(host, -1.0f);
    *out = -2.0f;
    // One block fills (and spins): the copy back moves all of d.
    int32_t status =
        library.tryCall("syncing_callee_across_slots", &d, &h, &o,
                        int64_t(256), value, int64_t(kSpinNanoseconds));
    return status == 0 && *out == value;
  };
  int compiled = countWrong(libraries.compiled, stream, once);
  int withheld = countWrong(libraries.noWaits, stream, once);
  report("callee that syncs its stream, after another slot's write",
         compiled, withheld, "cross-slot waits");
}

// Issue 35: a token's producer written later in the text than the op that
// waits for it; the stream passes solve the tokens to a fixpoint.
TEST_F(Ordering, LoopCarriedTokenFor) {
  checkLaterProducer("loop_carried_for",
                     "loop-carried token (scf.for), producer later in the body");
}
TEST_F(Ordering, LoopCarriedTokenCf) {
  checkLaterProducer("loop_carried_cf",
                     "loop-carried token (cf loop), producer later in the block");
}
TEST_F(Ordering, BlocksOutOfOrder) {
  checkLaterProducer("blocks_out_of_order",
                     "token from a block written after its consumer's");
}
TEST_F(Ordering, TokenIntoCallee) {
  checkLaterProducer("token_into_callee", "token passed into a callee");
}
TEST_F(Ordering, SyncFormThenChain) {
  checkLaterProducer("sync_form_then_chain",
                     "GPU op in sync form, then a new chain");
}
