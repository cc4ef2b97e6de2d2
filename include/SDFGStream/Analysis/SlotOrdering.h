//===- SlotOrdering.h - Which waits order concurrent slots -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The ordering of a program's concurrent stream slots (sdfg.init_streams
// concurrent): work on one slot that uses what another slot produced (or
// overwrites what it still reads) must wait for it, through an event, on
// the GPU; independent work must not. The problem is PendingGpuWork's
// solver in its SlotOrdering mode over PendingState.h's lattice, where an
// entry (streams, root, kind) says: GPU work on a stream may still read or
// write root `root`, and the later work of each of `streams` (its own
// stream and those that waited for it since) is ordered after it.
//
// Transfer of an op that enqueues GPU work on stream S:
//
//   waits  = for the entries that conflict with an access of the op on S
//            (one of the two writes, the roots may alias) and that S is not
//            ordered after yet, the fewest streams that cover them all
//            (greedily): S waits for each (sdfg.stream_wait S after W); for
//            every other stream if the state is unknown;
//   after  = before, with S added to the streams of every entry a wait
//            covers, minus what an sdfg.sync in the program completed,
//            + the op's GPU accesses, each covered by its stream,
//            + a work marker (root kWorkMarkerRoot, aliasing nothing) on
//              each stream the op enqueues work on.
//
// A join before a return waits, on slot 0, for the fewest streams that
// cover every entry (work markers included) slot 0 is not ordered after.
// Host syncs that sdfg-insert-host-syncs adds later are not seen: they only
// make some of these waits redundant, never wrong.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_SLOTORDERING_H
#define SDFGSTREAM_ANALYSIS_SLOTORDERING_H

#include "SDFGStream/Analysis/PendingState.h"

namespace mlir {
namespace sdfg {

/// The (waiting, waitedOn) stream pairs that order the GPU work of an op
/// with `accesses` after every conflicting access pending on another
/// stream.
SmallVector<std::pair<Value, Value>>
getSlotWaits(const PendingState &state, const OpAccesses &accesses,
             const BufferAliasAnalysis &aliases,
             ArrayRef<Value> programStreams);

/// The streams that `op` enqueues work on: those of its GPU accesses and
/// the stream it runs on, if any (canonical).
SmallVector<Value> getWorkStreams(Operation *op, const OpAccesses &accesses,
                                  SymbolTableCollection &symbolTables);

/// The state after an op with `accesses` that enqueues work on
/// `workStreams`, given the state before it and the `waits` placed before
/// it.
PendingState applySlotOrdering(const PendingState &before,
                               const OpAccesses &accesses,
                               ArrayRef<std::pair<Value, Value>> waits,
                               ArrayRef<Value> workStreams,
                               ArrayRef<Value> programStreams);

/// The streams `joining` must wait for so that it is ordered after all
/// work pending in `state` (the join of a program's slots before it
/// returns).
SmallVector<Value> getJoinWaits(const PendingState &state, Value joining,
                                ArrayRef<Value> programStreams);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_SLOTORDERING_H
