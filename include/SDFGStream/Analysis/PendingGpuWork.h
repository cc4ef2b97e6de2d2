//===- PendingGpuWork.h - GPU accesses the host has not waited for -*- C++ -*-//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The data-flow problem behind sdfg-insert-host-syncs (and, in its second mode,
// behind the ordering of concurrent stream slots: SlotOrdering.h), solved
// with MLIR's dense
// forward data-flow framework (control-flow graphs, RegionBranchOpInterface
// ops such as scf.while / scf.if / scf.index_switch / scf.for / scf.forall,
// dead code through DeadCodeAnalysis; calls are not entered but answered by
// the callee's summary, see HostGpuAccesses.h).
//
// Lattice, at each program point of a program's host code: a PendingState
// (PendingState.h): the GPU accesses that may still be pending, by stream,
// and whether the solver cannot tell.
//
// The entry of a region that no interface describes (an op that is not a
// RegionBranchOpInterface, e.g. omp.parallel) gets the state before the op,
// after the op's own sync (the op makes every host access nested in it, so
// the sync goes before it), joined with every GPU access nested in it: the
// region may run any number of times, in any order with that work.
//
// A region that runs later or elsewhere while the code after its op goes on
// (the body of async.execute: runsDetached) is entered with the state before
// its op, but what it does is not what follows the op: the state after the
// op is the state before it with every GPU access nested in the region
// added, and none of the region's syncs counted (the region may not have
// run yet, or may be halfway).
//
// Bottom is {} with unknown = false (nothing pending: a program's entry);
// join is set union (and `or` of unknown). Transfer of an op:
//
//   sync   = for the entries that conflict with a host access of the op (a
//            host read of a root that may alias a pending write, or a host
//            write of a root that may alias any pending access), the fewest
//            streams that cover them all (greedily); all streams of the
//            program if unknown and the op accesses anything on the host;
//   after  = before - entries covered by a stream in sync or synchronized
//            by the op itself (sdfg.sync)
//            + for each sdfg.stream_wait W after O: W added to the streams
//              of every entry that O covers
//            + the op's GPU accesses, each covered by its stream.
//
// The transfer already assumes that the sync the solution asks for is
// inserted before the op: a second read of the same result finds nothing
// pending, so the solution says exactly where the syncs go, and running the
// pass twice changes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_PENDINGGPUWORK_H
#define SDFGSTREAM_ANALYSIS_PENDINGGPUWORK_H

#include "SDFGStream/Analysis/PendingState.h"

#include "mlir/Analysis/DataFlow/DenseAnalysis.h"

namespace mlir {
namespace sdfg {

/// The dense lattice attached to program points.
class PendingGpuWork : public dataflow::AbstractDenseLattice {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PendingGpuWork)
  using AbstractDenseLattice::AbstractDenseLattice;

  const PendingState &getState() const { return state; }
  ChangeResult setState(PendingState newState);
  ChangeResult join(const AbstractDenseLattice &rhs) override;
  void print(raw_ostream &os) const override;

private:
  PendingState state;
};

/// The analysis over the host code of one program.
class PendingGpuWorkAnalysis
    : public dataflow::DenseForwardDataFlowAnalysis<PendingGpuWork> {
public:
  /// What is pending, and what removes it.
  enum class Mode {
    /// GPU work the host has not waited for; host syncs remove it (the
    /// ones getStreamsToSync asks for are assumed inserted).
    HostSyncs,
    /// GPU work that some stream is not ordered after yet; stream waits
    /// extend its streams (the ones getSlotWaits asks for are assumed
    /// inserted) and host syncs written in the program remove it. Every
    /// op also leaves a work marker on its stream (SlotOrdering.h).
    SlotOrdering,
    /// GPU work the host has not waited for, as the program is written:
    /// only its own sdfg.sync ops (and callees that end synced) remove it,
    /// only its own sdfg.stream_wait ops extend it. Every op leaves a work
    /// marker on its streams, and the entry has one on each (the caller's
    /// earlier work): a stream with no entry left at a return is idle
    /// there (getStreamsIdleAtExit).
    ExitState,
  };

  PendingGpuWorkAnalysis(DataFlowSolver &solver, HostGpuAccesses &accesses,
                         FunctionOpInterface program,
                         ArrayRef<Value> programStreams,
                         Mode mode = Mode::HostSyncs);

  LogicalResult visitOperation(Operation *op, const PendingGpuWork &before,
                               PendingGpuWork *after) override;
  void visitCallControlFlowTransfer(CallOpInterface call,
                                    dataflow::CallControlFlowAction action,
                                    const PendingGpuWork &before,
                                    PendingGpuWork *after) override;
  void setToEntryState(PendingGpuWork *lattice) override;
  void visitRegionBranchControlFlowTransfer(RegionBranchOpInterface branch,
                                            std::optional<unsigned> regionFrom,
                                            std::optional<unsigned> regionTo,
                                            const PendingGpuWork &before,
                                            PendingGpuWork *after) override;

private:
  /// The state after `op`, whose accesses are `opAccesses`.
  PendingState transfer(Operation *op, const PendingState &before,
                        const OpAccesses &opAccesses);

  HostGpuAccesses &accesses;
  FunctionOpInterface program;
  SmallVector<Value> programStreams;
  Mode mode;
};

/// The streams of `program` (getProgramStreams) that are idle at every
/// return, as the program is written: synchronized after the last GPU work
/// enqueued on them and after the caller's earlier work. Syncs
/// sdfg-insert-host-syncs adds later only make more streams idle.
SmallVector<Value> getStreamsIdleAtExit(HostGpuAccesses &accesses,
                                        FunctionOpInterface program);

/// Returns true if the regions of `op` run later or elsewhere while the code
/// after `op` goes on (async.execute), so that nothing they do, syncs
/// included, can be assumed done after `op`.
bool runsDetached(Operation *op);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_PENDINGGPUWORK_H
