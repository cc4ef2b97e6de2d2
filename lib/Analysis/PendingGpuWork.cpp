//===- PendingGpuWork.cpp - GPU accesses the host has not waited for ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See PendingGpuWork.h for the lattice and the transfer function.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/PendingGpuWork.h"
#include "SDFGStream/Analysis/StreamQueries.h"
#include "SDFGStream/Analysis/SlotOrdering.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sdfg-pending-gpu-work"

using namespace mlir;
using namespace mlir::sdfg;

ChangeResult PendingGpuWork::setState(PendingState newState) {
  if (state == newState)
    return ChangeResult::NoChange;
  state = std::move(newState);
  return ChangeResult::Change;
}

ChangeResult PendingGpuWork::join(const AbstractDenseLattice &rhs) {
  return state.join(static_cast<const PendingGpuWork &>(rhs).state)
             ? ChangeResult::Change
             : ChangeResult::NoChange;
}

void PendingGpuWork::print(raw_ostream &os) const {
  os << (state.unknown ? "unknown" : "known") << " {";
  llvm::interleaveComma(state.entries, os, [&](const PendingEntry &entry) {
    os << "({";
    llvm::interleaveComma(entry.streams, os, [&](Value stream) {
      os << stream.getAsOpaquePointer();
    });
    os << "}, " << entry.root
       << (entry.write ? ", write)" : ", read)");
  });
  os << "}";
}

PendingGpuWorkAnalysis::PendingGpuWorkAnalysis(DataFlowSolver &solver,
                                               HostGpuAccesses &accesses,
                                               FunctionOpInterface program,
                                               ArrayRef<Value> programStreams,
                                               Mode mode)
    : DenseForwardDataFlowAnalysis(solver), accesses(accesses),
      program(program), programStreams(programStreams), mode(mode) {}

PendingState PendingGpuWorkAnalysis::transfer(Operation *op,
                                              const PendingState &before,
                                              const OpAccesses &opAccesses) {
  BufferAliasAnalysis &aliases = accesses.getAliases(program);
  if (mode == Mode::SlotOrdering)
    return applySlotOrdering(
        before, opAccesses,
        getSlotWaits(before, opAccesses, aliases, programStreams),
        getWorkStreams(op, opAccesses, accesses.getSymbolTables()),
        programStreams);
  if (mode == Mode::ExitState)
    return applySlotOrdering(
        before, opAccesses, /*waits=*/{},
        getWorkStreams(op, opAccesses, accesses.getSymbolTables()),
        programStreams);
  SmallVector<Value> synced =
      getStreamsToSync(before, opAccesses, aliases, programStreams);
  return applyAccesses(before, opAccesses, synced, programStreams);
}

LogicalResult PendingGpuWorkAnalysis::visitOperation(
    Operation *op, const PendingGpuWork &before, PendingGpuWork *after) {
  if (isDeviceCode(op)) {
    propagateIfChanged(after, after->setState(before.getState()));
    return success();
  }
  OpAccesses opAccesses = accesses.getAccesses(op, program);
  PendingState state = transfer(op, before.getState(), opAccesses);
  LLVM_DEBUG({
    llvm::dbgs() << "[" DEBUG_TYPE "] after " << op->getName() << " at "
                 << op->getLoc() << ": ";
    PendingGpuWork shown(after->getAnchor());
    (void)shown.setState(state);
    shown.print(llvm::dbgs());
    llvm::dbgs() << "\n";
  });
  propagateIfChanged(after, after->setState(std::move(state)));
  return success();
}

void PendingGpuWorkAnalysis::visitCallControlFlowTransfer(
    CallOpInterface call, dataflow::CallControlFlowAction action,
    const PendingGpuWork &before, PendingGpuWork *after) {
  // Calls are not entered (the solver runs intraprocedurally): the callee's
  // summary is the transfer function.
  (void)visitOperation(call, before, after);
}

SmallVector<Value>
mlir::sdfg::getStreamsIdleAtExit(HostGpuAccesses &accesses,
                                 FunctionOpInterface program) {
  SmallVector<Value> idle;
  if (program.isExternal())
    return idle;
  SmallVector<Value> streams = getProgramStreams(program);
  DataFlowSolver solver(DataFlowConfig().setInterprocedural(false));
  dataflow::loadBaselineAnalyses(solver);
  solver.load<PendingGpuWorkAnalysis>(accesses, program, streams,
                                      PendingGpuWorkAnalysis::Mode::ExitState);
  if (failed(solver.initializeAndRun(program)))
    return idle;
  SmallVector<const PendingState *> exits;
  bool unknown = false;
  for (Block &block : program.getFunctionBody()) {
    Operation *terminator = block.getTerminator();
    if (!terminator || !terminator->hasTrait<OpTrait::ReturnLike>())
      continue;
    const auto *lattice = solver.lookupState<PendingGpuWork>(
        solver.getProgramPointAfter(terminator));
    if (!lattice) // Dead, or never reached by the solver.
      continue;
    exits.push_back(&lattice->getState());
    unknown |= lattice->getState().unknown;
  }
  if (exits.empty() || unknown)
    return idle;
  for (Value stream : streams)
    if (llvm::none_of(exits, [&](const PendingState *state) {
          return llvm::any_of(state->entries, [&](const PendingEntry &entry) {
            return llvm::is_contained(entry.streams, stream);
          });
        }))
      idle.push_back(stream);
  return idle;
}

bool mlir::sdfg::runsDetached(Operation *op) {
  return isa<async::ExecuteOp>(op);
}

void PendingGpuWorkAnalysis::visitRegionBranchControlFlowTransfer(
    RegionBranchOpInterface branch, std::optional<unsigned> regionFrom,
    std::optional<unsigned> regionTo, const PendingGpuWork &before,
    PendingGpuWork *after) {
  if (!regionFrom || regionTo || !runsDetached(branch)) {
    DenseForwardDataFlowAnalysis::visitRegionBranchControlFlowTransfer(
        branch, regionFrom, regionTo, before, after);
    return;
  }
  // Leaving a detached region to the code after its op: the state before
  // the op, with the region's GPU work pending and its syncs not counted.
  const auto *atOp = static_cast<const PendingGpuWork *>(getLatticeFor(
      getProgramPointAfter(branch), getProgramPointBefore(branch)));
  OpAccesses nestedWork;
  nestedWork.gpu = accesses.getNestedAccesses(branch, program).gpu;
  PendingState state =
      applyAccesses(atOp->getState(), nestedWork, {}, programStreams);
  if (mode != Mode::HostSyncs) {
    // Each stream the region may have enqueued work on has work to wait
    // for; the region's own waits are kept as it leaves them.
    for (const StreamAccess &access : nestedWork.gpu)
      state.add({{access.stream}, kWorkMarkerRoot, /*write=*/false});
    state.join(before.getState());
  }
  PendingState joined = after->getState();
  joined.join(state);
  propagateIfChanged(after, after->setState(std::move(joined)));
}

void PendingGpuWorkAnalysis::setToEntryState(PendingGpuWork *lattice) {
  PendingState state;
  auto *point = dyn_cast_if_present<ProgramPoint *>(lattice->getAnchor());
  Block *block = point ? point->getBlock() : nullptr;
  Operation *parent = block ? block->getParentOp() : nullptr;
  if (block && block->isEntryBlock() && parent == program.getOperation()) {
    // The entry of the program: nothing it can see is pending (the caller
    // orders its own work before the call), but the caller's work may still
    // run on every stream.
    if (mode == Mode::ExitState)
      for (Value stream : programStreams)
        state.add({{stream}, kWorkMarkerRoot, /*write=*/false});
  } else if (parent && parent != program.getOperation() && point &&
             point->isBlockStart() && !isDeviceCode(parent) &&
             !isa<gpu::LaunchOp>(parent)) {
    // A region whose entries no interface describes (or whose predecessors
    // the solver does not know): it may run any number of times, after the
    // region op's own sync and in any order with the GPU work nested in it.
    // For slot ordering, the region op waits for what its nested work
    // conflicts with (its accesses include the nested ones) and leaves that
    // work pending.
    const auto *before = static_cast<const PendingGpuWork *>(
        getLatticeFor(point, getProgramPointBefore(parent)));
    OpAccesses own = accesses.getAccesses(parent, program);
    if (mode != Mode::HostSyncs) {
      state = transfer(parent, before->getState(), own);
    } else {
      SmallVector<Value> synced =
          getStreamsToSync(before->getState(), own,
                           accesses.getAliases(program), programStreams);
      OpAccesses nestedWork;
      nestedWork.gpu = accesses.getNestedAccesses(parent, program).gpu;
      state = applyAccesses(before->getState(), nestedWork, synced,
                            programStreams);
    }
  } else {
    state.unknown = true;
  }
  propagateIfChanged(lattice, lattice->setState(std::move(state)));
}
