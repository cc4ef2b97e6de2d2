//===- PendingState.h - GPU work pending at a program point -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The lattice value that PendingGpuWork.h solves for and SlotOrdering.h
// transfers: which GPU accesses are pending, on which streams, and what
// syncs and stream waits do to them. Kept apart from the solver so that the
// slot-ordering transfer and the solver each depend on it and not on each
// other.
//
//   pending = a set of (streams, root, kind) entries: GPU work may still
//             read (kind = read) or write (kind = write) memory of buffer
//             root `root` (BufferAliasAnalysis.h), and a sync of any one of
//             `streams` waits for it (the stream it was enqueued on, and
//             every stream that was ordered after that one since, by
//             sdfg.stream_wait); root kWorkMarkerRoot marks work a join
//             must wait for without naming memory;
//   unknown = whether anything may be pending on every stream (where the
//             solver cannot tell what came before).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_PENDINGSTATE_H
#define SDFGSTREAM_ANALYSIS_PENDINGSTATE_H

#include "SDFGStream/Analysis/HostGpuAccesses.h"

#include <limits>

namespace mlir {
class AsmState;

namespace sdfg {

/// The root of a work marker: an entry that aliases no buffer, only saying
/// that its stream has work a join must wait for.
constexpr unsigned kWorkMarkerRoot = std::numeric_limits<unsigned>::max();

/// One pending GPU access.
struct PendingEntry {
  /// Sorted; a sync of any of them waits for the access.
  SmallVector<Value, 1> streams;
  unsigned root;
  bool write;
  bool operator<(const PendingEntry &other) const;
  bool operator==(const PendingEntry &other) const;
};

/// The lattice value: sorted, unique entries and the unknown flag.
struct PendingState {
  SmallVector<PendingEntry, 4> entries;
  bool unknown = false;
  bool operator==(const PendingState &other) const {
    return unknown == other.unknown && entries == other.entries;
  }
  /// Joins `other` in; returns true if this grew.
  bool join(const PendingState &other);
  /// Removes every entry that a sync of one of `streams` waits for.
  void clear(ArrayRef<Value> streams);
  void add(PendingEntry entry);
};

/// The streams whose pending work a host access in `accesses` conflicts
/// with: the streams a sync before the op must wait for. `programStreams`
/// are all streams of the program (synced when the state is unknown).
SmallVector<Value> getStreamsToSync(const PendingState &state,
                                    const OpAccesses &accesses,
                                    const BufferAliasAnalysis &aliases,
                                    ArrayRef<Value> programStreams);

/// The fewest streams such that every entry of `entries` has one of them
/// among its streams, greedily (the stream covering the most first).
SmallVector<Value> getCoveringStreams(ArrayRef<const PendingEntry *> entries);

/// The state after an op with `accesses`, given the state before it and
/// the streams synced right before it.
PendingState applyAccesses(const PendingState &before,
                           const OpAccesses &accesses,
                           ArrayRef<Value> syncedBefore,
                           ArrayRef<Value> programStreams);

/// Prints `state` with streams and roots by name (`printStream`,
/// BufferAliasAnalysis::printRoot): "unknown {(%s0 %s1; arg 1; write),
/// (%s0; work)}".
void printPendingState(const PendingState &state, raw_ostream &os,
                       const BufferAliasAnalysis &aliases, AsmState &asmState);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_PENDINGSTATE_H
