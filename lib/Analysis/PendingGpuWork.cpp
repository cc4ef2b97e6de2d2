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

using namespace mlir;
using namespace mlir::sdfg;

/// The order of streams in an entry and of entries in a state.
static bool streamLess(Value a, Value b) {
  return a.getAsOpaquePointer() < b.getAsOpaquePointer();
}

bool PendingEntry::operator<(const PendingEntry &other) const {
  if (root != other.root)
    return root < other.root;
  if (write != other.write)
    return write < other.write;
  return std::lexicographical_compare(streams.begin(), streams.end(),
                                      other.streams.begin(),
                                      other.streams.end(), streamLess);
}

bool PendingEntry::operator==(const PendingEntry &other) const {
  return root == other.root && write == other.write &&
         streams == other.streams;
}

void PendingState::add(PendingEntry entry) {
  auto it = llvm::lower_bound(entries, entry);
  if (it == entries.end() || !(*it == entry))
    entries.insert(it, entry);
}

bool PendingState::join(const PendingState &other) {
  bool changed = other.unknown && !unknown;
  unknown |= other.unknown;
  for (const PendingEntry &entry : other.entries) {
    size_t size = entries.size();
    add(entry);
    changed |= entries.size() != size;
  }
  return changed;
}

static bool coveredBy(const PendingEntry &entry, ArrayRef<Value> streams) {
  return llvm::any_of(entry.streams, [&](Value stream) {
    return llvm::is_contained(streams, stream);
  });
}

void PendingState::clear(ArrayRef<Value> streams) {
  if (streams.empty())
    return;
  llvm::erase_if(entries, [&](const PendingEntry &entry) {
    return coveredBy(entry, streams);
  });
}

SmallVector<Value> mlir::sdfg::getStreamsToSync(
    const PendingState &state, const OpAccesses &accesses,
    const BufferAliasAnalysis &aliases, ArrayRef<Value> programStreams) {
  SmallVector<Value> streams;
  if (accesses.host.empty())
    return streams;
  if (state.unknown)
    return SmallVector<Value>(programStreams);
  SmallVector<const PendingEntry *> conflicts;
  for (const PendingEntry &entry : state.entries)
    if (entry.root != kWorkMarkerRoot &&
        llvm::any_of(accesses.host, [&](const BufferAccess &access) {
          return (entry.write || access.write) &&
                 aliases.mayAlias({entry.root}, access.roots);
        }))
      conflicts.push_back(&entry);
  return getCoveringStreams(conflicts);
}

SmallVector<Value>
mlir::sdfg::getCoveringStreams(ArrayRef<const PendingEntry *> entries) {
  SmallVector<Value> streams;
  SmallVector<const PendingEntry *> uncovered(entries);
  // The stream covering the most entries first (ties: the first seen).
  while (!uncovered.empty()) {
    SmallVector<std::pair<Value, unsigned>> counts;
    for (const PendingEntry *entry : uncovered)
      for (Value stream : entry->streams) {
        auto it = llvm::find_if(counts, [&](auto &c) { return c.first == stream; });
        if (it == counts.end())
          counts.push_back({stream, 1});
        else
          ++it->second;
      }
    Value best = counts.front().first;
    unsigned most = counts.front().second;
    for (auto [stream, count] : counts)
      if (count > most) {
        best = stream;
        most = count;
      }
    streams.push_back(best);
    llvm::erase_if(uncovered, [&](const PendingEntry *entry) {
      return coveredBy(*entry, best);
    });
  }
  return streams;
}

PendingState mlir::sdfg::applyAccesses(const PendingState &before,
                                       const OpAccesses &accesses,
                                       ArrayRef<Value> syncedBefore,
                                       ArrayRef<Value> programStreams) {
  PendingState after = before;
  SmallVector<Value> synced(syncedBefore);
  llvm::append_range(synced, accesses.synced);
  after.clear(synced);
  if (after.unknown &&
      llvm::all_of(programStreams, [&](Value stream) {
        return llvm::is_contained(synced, stream);
      }))
    after.unknown = false;
  for (auto [waiting, waitedOn] : accesses.streamWaits) {
    PendingState waited;
    waited.unknown = after.unknown;
    for (PendingEntry entry : after.entries) {
      if (llvm::is_contained(entry.streams, waitedOn) &&
          !llvm::is_contained(entry.streams, waiting)) {
        entry.streams.insert(
            llvm::lower_bound(entry.streams, waiting, streamLess), waiting);
      }
      waited.add(std::move(entry));
    }
    after = std::move(waited);
  }
  for (const StreamAccess &access : accesses.gpu)
    for (unsigned root : access.access.roots)
      after.add({{access.stream}, root, access.access.write});
  return after;
}

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
  propagateIfChanged(
      after, after->setState(transfer(op, before.getState(), opAccesses)));
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

SmallVector<Value> mlir::sdfg::getProgramStreams(FunctionOpInterface program) {
  SmallVector<Value> streams;
  auto add = [&](Value stream) {
    stream = getCanonicalStream(stream);
    if (!llvm::is_contained(streams, stream))
      streams.push_back(stream);
  };
  if (program.isExternal())
    return streams;
  for (BlockArgument argument : program.getArguments())
    if (isa<StreamType>(argument.getType()))
      if (!llvm::any_of(argument.getUsers(), [](Operation *user) {
            return isa<InitStreamsOp>(user);
          }))
        add(argument);
  if (InitStreamsOp init = getInitStreamsOp(program))
    for (Value slot : init.getSlots())
      add(slot);
  return streams;
}
