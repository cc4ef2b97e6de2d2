//===- SlotOrdering.cpp - Which waits order concurrent slots --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See SlotOrdering.h for the transfer function; the lattice, its solver
// and the greedy cover are PendingGpuWork's.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/SlotOrdering.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

using namespace mlir;
using namespace mlir::sdfg;

/// Every program stream but `stream`.
static SmallVector<Value> otherStreams(ArrayRef<Value> programStreams,
                                       Value stream) {
  SmallVector<Value> others;
  for (Value other : programStreams)
    if (other != stream)
      others.push_back(other);
  return others;
}

SmallVector<std::pair<Value, Value>>
mlir::sdfg::getSlotWaits(const PendingState &state, const OpAccesses &accesses,
                         const BufferAliasAnalysis &aliases,
                         ArrayRef<Value> programStreams) {
  SmallVector<Value> streams;
  for (const StreamAccess &access : accesses.gpu)
    if (!llvm::is_contained(streams, access.stream))
      streams.push_back(access.stream);

  SmallVector<std::pair<Value, Value>> waits;
  for (Value stream : streams) {
    if (state.unknown) {
      for (Value other : otherStreams(programStreams, stream))
        waits.push_back({stream, other});
      continue;
    }
    SmallVector<const PendingEntry *> conflicts;
    for (const PendingEntry &entry : state.entries) {
      if (entry.root == kWorkMarkerRoot ||
          llvm::is_contained(entry.streams, stream))
        continue;
      if (llvm::any_of(accesses.gpu, [&](const StreamAccess &access) {
            return access.stream == stream &&
                   (entry.write || access.access.write) &&
                   aliases.mayAlias({entry.root}, access.access.roots);
          }))
        conflicts.push_back(&entry);
    }
    for (Value waitedOn : getCoveringStreams(conflicts))
      waits.push_back({stream, waitedOn});
  }
  return waits;
}

SmallVector<Value>
mlir::sdfg::getWorkStreams(Operation *op, const OpAccesses &accesses,
                           SymbolTableCollection &symbolTables) {
  SmallVector<Value> streams;
  auto add = [&](Value stream) {
    if (stream && !llvm::is_contained(streams, stream))
      streams.push_back(stream);
  };
  for (const StreamAccess &access : accesses.gpu)
    add(access.stream);
  // Ordering and timing ops enqueue nothing that a join must wait for.
  if (!isa<StreamWaitOp, SyncOp, TimerBeginOp, TimerEndOp>(op))
    add(getStreamOf(op, symbolTables));
  return streams;
}

PendingState mlir::sdfg::applySlotOrdering(
    const PendingState &before, const OpAccesses &accesses,
    ArrayRef<std::pair<Value, Value>> waits, ArrayRef<Value> workStreams,
    ArrayRef<Value> programStreams) {
  // The waits go before the op, its own ones (sdfg.stream_wait) are it.
  OpAccesses ordered = accesses;
  ordered.streamWaits.assign(waits.begin(), waits.end());
  llvm::append_range(ordered.streamWaits, accesses.streamWaits);
  PendingState after =
      applyAccesses(before, ordered, /*syncedBefore=*/{}, programStreams);
  // A stream the op leaves idle (a callee's sync) has no work left on it.
  for (Value stream : workStreams)
    if (!llvm::is_contained(accesses.syncedAfter, stream))
      after.add({{stream}, kWorkMarkerRoot, /*write=*/false});
  return after;
}

SmallVector<Value> mlir::sdfg::getJoinWaits(const PendingState &state,
                                            Value joining,
                                            ArrayRef<Value> programStreams) {
  if (state.unknown)
    return otherStreams(programStreams, joining);
  SmallVector<const PendingEntry *> unordered;
  for (const PendingEntry &entry : state.entries)
    if (!llvm::is_contained(entry.streams, joining))
      unordered.push_back(&entry);
  return getCoveringStreams(unordered);
}
