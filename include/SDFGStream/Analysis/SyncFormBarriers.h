//===- SyncFormBarriers.h - GPU ops in sync form among token chains -*- C++ -*-//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// In upstream's async form, a GPU op written in sync form (no token) is
// blocking: it runs after the work the program started before it and
// before anything the program starts after it. Once a program's token
// chains run on concurrent slots (AsyncChainSlots.cpp), that order has to
// be stated with stream waits: the op's stream waits for every chain open
// before it, and every other stream waits for the op's stream before its
// next work. A dense forward data-flow problem (MLIR's framework: any
// control flow, loops to a fixpoint) over the program's host code, with
// the stream of each GPU op given (the solution of TokenChains.h):
//
//   open    = streams with chain (async-form) work no sync-form op joined
//             yet;
//   barrier = pairs (s, p): stream p has not waited yet for the sync-form
//             work on s.
//
// Bottom: both empty (the program's entry: the caller's work is ordered by
// the caller). Join: union of both. Transfer of an op on stream x:
//
//   waits   = {s | (s, x) in barrier} + (sync form: open - {x});
//   chain   : open += {x}, barrier -= {(s, x)};
//   sync    : open = {}, barrier = {(x, p) | p a stream of the program,
//             p != x};
//   host wait of streams L (a blocking gpu.wait): open -= L, barrier -=
//             {(s, p) | s in L}.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_SYNCFORMBARRIERS_H
#define SDFGSTREAM_ANALYSIS_SYNCFORMBARRIERS_H

#include "mlir/Analysis/DataFlow/DenseAnalysis.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace sdfg {

/// What an op is to the barrier problem.
struct BarrierRole {
  enum class Kind { Chain, SyncForm, HostWait };
  Kind kind;
  /// The stream the op runs on (Chain, SyncForm), canonical.
  Value stream;
  /// The streams a host wait completes (HostWait), canonical.
  SmallVector<Value> synced;
};

/// The stream waits that order the sync-form GPU ops of `program` among its
/// token chains: for each op of `roles`, the streams (canonical, each
/// once) its stream must wait for before it. `streams` are the program's
/// distinct streams. Ops not in `roles` enqueue nothing. Fails if the
/// solver does not converge.
FailureOr<DenseMap<Operation *, SmallVector<Value>>>
getSyncFormBarrierWaits(FunctionOpInterface program,
                        const DenseMap<Operation *, BarrierRole> &roles,
                        ArrayRef<Value> streams);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_SYNCFORMBARRIERS_H
