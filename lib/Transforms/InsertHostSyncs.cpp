//===- InsertHostSyncs.cpp - Syncs exactly where the host needs results ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A forward "pending writes" analysis over each program: the state is the
// set of (stream, buffer) pairs whose GPU writes the host has not waited for.
// Control-flow graphs (states and interstate edges) are solved to a fixpoint
// first and rewritten after; structured regions are handled recursively, with
// loops iterated to a fixpoint. Syncs are hoisted out of loops when possible:
// out of structured loops (LoopLikeOpInterface) and out of the natural loops
// of a control-flow graph (states joined by a back edge), whose entry edges
// get the sync instead.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Analysis/CFGLoopInfo.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_INSERTHOSTSYNCS
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
/// GPU writes the host has not waited for: (stream, root buffer) pairs.
using Pending = llvm::SmallSetVector<std::pair<Value, Value>, 8>;

struct InsertHostSyncs
    : public sdfg::impl::InsertHostSyncsBase<InsertHostSyncs> {
  using InsertHostSyncsBase::InsertHostSyncsBase;
  void runOnOperation() override;
};

class HostSyncInserter {
public:
  explicit HostSyncInserter(SymbolTableCollection &symbolTables)
      : symbolTables(symbolTables) {}

  /// Processes `region` entered with `pending`; returns what is pending when
  /// it is left (at any of its exits). Inserts syncs if `insert`.
  Pending processRegion(Region &region, const Pending &pending, bool insert);

private:
  /// Pending writes at the entry and exit of each reachable block of a
  /// multi-block region, entered with `entry`.
  struct Solution {
    DenseMap<Block *, Pending> in, out;
  };
  Solution solve(Region &region, const Pending &entry);
  /// Syncs the results that a natural loop of `region` reads but does not
  /// write on the loop's entry edges, so that none is needed inside it.
  void hoistOutOfLoops(Region &region, const Pending &entry);
  /// Host reads and GPU writes of the ops in `blocks` (nested regions too):
  /// the roots of the buffers read on the host that no GPU op there writes.
  DenseSet<Value> getLoopInvariantReads(ArrayRef<Block *> blocks);
  void processOp(Operation *op, Pending &pending, bool insert);
  void processRegionOp(Operation *op, Pending &pending, bool insert);
  /// Removes every pair of the streams of `reads` from `pending`, inserting
  /// one sync of those streams before `op` if `insert`.
  void syncBefore(Operation *op, ArrayRef<Value> streams, Pending &pending,
                  bool insert);
  /// The streams with pending writes to buffers that `op` reads on the host.
  SmallVector<Value> getStreamsToSync(Operation *op, const Pending &pending);
  /// The stream a GPU op runs on, or null.
  Value getStream(Operation *op);
  /// The host-visible buffers `op` writes from the GPU.
  SmallVector<Value> getGpuWrites(Operation *op);

  SymbolTableCollection &symbolTables;
};
} // namespace

/// The buffer a memref value is a view of.
static Value getRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
    Value source = view.getViewSource();
    if (!source || source == value)
      break;
    value = source;
  }
  return value;
}

/// The canonical value of a stream: all slots of one init op are the same.
static Value canonicalStream(Value stream) {
  if (auto init = stream.getDefiningOp<InitStreamsOp>())
    return init.getSlots().front();
  return stream;
}

/// Host memory: the default memory space (or 0).
static bool isHostVisible(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return false;
  Attribute space = type.getMemorySpace();
  if (!space)
    return true;
  auto integer = dyn_cast<IntegerAttr>(space);
  return integer && integer.getInt() == 0;
}

Value HostSyncInserter::getStream(Operation *op) {
  if (auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op)) {
    OperandRange deps = asyncOp.getAsyncDependencies();
    if (deps.size() == 1)
      if (auto token = deps.front().getDefiningOp<StreamTokenOp>())
        return canonicalStream(token.getStream());
    return {};
  }
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        call.resolveCallableInTable(&symbolTables));
    if (!callee)
      return {};
    std::optional<unsigned> index = getExternalStreamArgIndex(callee);
    if (!index || *index >= call.getArgOperands().size())
      return {};
    return canonicalStream(call.getArgOperands()[*index]);
  }
  return {};
}

SmallVector<Value> HostSyncInserter::getGpuWrites(Operation *op) {
  SmallVector<Value> candidates;
  if (auto copy = dyn_cast<gpu::MemcpyOp>(op))
    candidates.push_back(copy.getDst());
  else if (auto memset = dyn_cast<gpu::MemsetOp>(op))
    candidates.push_back(memset.getDst());
  else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
    llvm::append_range(candidates, launch.getKernelOperands());
  else if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(launch.getBody(), captured);
    llvm::append_range(candidates, captured);
  } else if (auto call = dyn_cast<CallOpInterface>(op))
    llvm::append_range(candidates, call.getArgOperands());
  SmallVector<Value> writes;
  for (Value value : candidates)
    if (isHostVisible(value))
      writes.push_back(getRoot(value));
  return writes;
}

SmallVector<Value> HostSyncInserter::getStreamsToSync(Operation *op,
                                                      const Pending &pending) {
  SmallVector<Value> streams;
  auto addReadsOf = [&](Value value) {
    if (!isa<MemRefType>(value.getType()))
      return;
    Value root = getRoot(value);
    for (auto [stream, buffer] : pending)
      if (buffer == root && !llvm::is_contained(streams, stream))
        streams.push_back(stream);
  };
  for (Value operand : op->getOperands())
    addReadsOf(operand);
  return streams;
}

void HostSyncInserter::syncBefore(Operation *op, ArrayRef<Value> streams,
                                  Pending &pending, bool insert) {
  if (streams.empty())
    return;
  Pending remaining;
  for (auto pair : pending)
    if (!llvm::is_contained(streams, pair.first))
      remaining.insert(pair);
  pending = std::move(remaining);
  if (!insert)
    return;
  OpBuilder builder(op);
  SyncOp::create(builder, op->getLoc(), streams);
}

void HostSyncInserter::processOp(Operation *op, Pending &pending,
                                 bool insert) {
  if (auto sync = dyn_cast<SyncOp>(op)) {
    SmallVector<Value> streams;
    for (Value stream : sync.getStreams())
      streams.push_back(canonicalStream(stream));
    syncBefore(op, streams, pending, /*insert=*/false);
    return;
  }
  if (isa<StreamTokenOp, InitStreamsOp>(op))
    return;

  // GPU work is ordered on its stream: its own uses need no sync, and it
  // leaves its writes pending. A call of a program on the stream does both:
  // the callee may read the buffers on the host and may leave GPU writes to
  // them pending.
  if (Value stream = getStream(op)) {
    if (isa<CallOpInterface>(op))
      syncBefore(op, getStreamsToSync(op, pending), pending, insert);
    for (Value buffer : getGpuWrites(op))
      pending.insert({stream, buffer});
    return;
  }
  if (isa<gpu::AsyncOpInterface>(op))
    return; // Not on a stream: blocking, nothing pending.

  syncBefore(op, getStreamsToSync(op, pending), pending, insert);
  if (op->getNumRegions())
    processRegionOp(op, pending, insert);
}

void HostSyncInserter::processRegionOp(Operation *op, Pending &pending,
                                       bool insert) {
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
    // Results pending before the loop that the loop reads but does not
    // write: one sync before the loop serves every iteration.
    llvm::DenseSet<Value> writtenInLoop;
    op->walk([&](Operation *nested) {
      if (getStream(nested))
        for (Value buffer : getGpuWrites(nested))
          writtenInLoop.insert(buffer);
    });
    SmallVector<Value> hoisted;
    op->walk([&](Operation *nested) {
      if (nested == op || getStream(nested) || isa<SyncOp>(nested))
        return;
      for (Value operand : nested->getOperands()) {
        if (!isa<MemRefType>(operand.getType()))
          continue;
        Value root = getRoot(operand);
        if (writtenInLoop.contains(root))
          continue;
        for (auto [stream, buffer] : pending)
          if (buffer == root && !llvm::is_contained(hoisted, stream))
            hoisted.push_back(stream);
      }
    });
    syncBefore(op, hoisted, pending, insert);

    // Iterations: what is pending at the start of the body is what was
    // pending before the loop or at the end of an earlier iteration.
    Pending entry = pending;
    for (Region &region : op->getRegions()) {
      for (;;) {
        Pending exit = processRegion(region, entry, /*insert=*/false);
        unsigned size = entry.size();
        entry.insert(exit.begin(), exit.end());
        if (entry.size() == size)
          break;
      }
      Pending exit = processRegion(region, entry, insert);
      entry.insert(exit.begin(), exit.end());
    }
    pending = std::move(entry);
    return;
  }

  // Other region ops (scf.if, scf.execute_region, ...): each region starts
  // from the same state; afterwards anything pending on any path is.
  Pending merged = pending;
  for (Region &region : op->getRegions()) {
    Pending exit = processRegion(region, pending, insert);
    merged.insert(exit.begin(), exit.end());
  }
  pending = std::move(merged);
}

HostSyncInserter::Solution HostSyncInserter::solve(Region &region,
                                                   const Pending &entry) {
  // May be pending on entry to a block = pending at the end of any
  // predecessor; iterate to a fixpoint without rewriting anything.
  Solution solution;
  solution.in[&region.front()] = entry;
  SmallVector<Block *> worklist = {&region.front()};
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    Pending state = solution.in[block];
    for (Operation &op : *block)
      processOp(&op, state, /*insert=*/false);
    solution.out[block] = state;
    for (Block *successor : block->getSuccessors()) {
      Pending &successorIn = solution.in[successor];
      unsigned size = successorIn.size();
      bool first = !solution.out.count(successor);
      successorIn.insert(state.begin(), state.end());
      if (successorIn.size() != size || first)
        worklist.push_back(successor);
    }
  }
  return solution;
}

DenseSet<Value>
HostSyncInserter::getLoopInvariantReads(ArrayRef<Block *> blocks) {
  DenseSet<Value> written, read;
  for (Block *block : blocks) {
    block->walk([&](Operation *op) {
      if (getStream(op))
        for (Value buffer : getGpuWrites(op))
          written.insert(buffer);
      // GPU ops read their operands on the stream, in order; calls of
      // programs on the stream may read them on the host.
      if (isa<SyncOp>(op) ||
          (getStream(op) && !isa<CallOpInterface>(op)))
        return;
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()))
          read.insert(getRoot(operand));
    });
  }
  DenseSet<Value> invariant;
  for (Value root : read)
    if (!written.contains(root))
      invariant.insert(root);
  return invariant;
}

void HostSyncInserter::hoistOutOfLoops(Region &region, const Pending &entry) {
  DominanceInfo dominance(region.getParentOp());
  CFGLoopInfo loopInfo(dominance.getDomTree(&region));
  // Outer loops first: a sync hoisted out of an outer loop also serves the
  // loops nested in it.
  for (CFGLoop *loop : loopInfo.getLoopsInPreorder()) {
    Block *header = loop->getHeader();
    DenseSet<Value> invariant = getLoopInvariantReads(loop->getBlocks());
    if (invariant.empty())
      continue;
    Solution solution = solve(region, entry);
    SmallVector<Block *> predecessors(header->getPredecessors());
    llvm::SmallPtrSet<Block *, 4> seen;
    for (Block *predecessor : predecessors) {
      if (loop->contains(predecessor) || !seen.insert(predecessor).second ||
          !solution.out.count(predecessor))
        continue;
      SmallVector<Value> streams;
      for (auto [stream, buffer] : solution.out[predecessor])
        if (invariant.contains(buffer) && !llvm::is_contained(streams, stream))
          streams.push_back(stream);
      if (streams.empty())
        continue;
      Operation *terminator = predecessor->getTerminator();
      Location loc = terminator->getLoc();
      if (predecessor->getNumSuccessors() == 1) {
        OpBuilder builder(terminator);
        SyncOp::create(builder, loc, streams);
        continue;
      }
      // The edge also leads elsewhere: sync on a new state on the way into
      // the loop only.
      auto *edge = new Block();
      region.getBlocks().insert(header->getIterator(), edge);
      for (BlockArgument argument : header->getArguments())
        edge->addArgument(argument.getType(), argument.getLoc());
      OpBuilder builder = OpBuilder::atBlockEnd(edge);
      SyncOp::create(builder, loc, streams);
      cf::BranchOp::create(builder, loc, header, edge->getArguments());
      for (unsigned i = 0, e = terminator->getNumSuccessors(); i < e; ++i)
        if (terminator->getSuccessor(i) == header)
          terminator->setSuccessor(edge, i);
    }
  }
}

Pending HostSyncInserter::processRegion(Region &region, const Pending &entry,
                                        bool insert) {
  if (region.empty())
    return entry;
  auto processBlock = [&](Block &block, Pending state, bool doInsert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      processOp(&op, state, doInsert);
    return state;
  };
  if (region.hasOneBlock())
    return processBlock(region.front(), entry, insert);

  // A control-flow graph: states and interstate edges. Hoist what loops
  // only read, solve, then rewrite each block once from its solved entry.
  if (insert)
    hoistOutOfLoops(region, entry);
  Solution solution = solve(region, entry);
  Pending exits;
  for (Block &block : region) {
    if (!solution.in.count(&block))
      continue; // Unreachable.
    Pending result = processBlock(block, solution.in[&block], insert);
    if (block.getSuccessors().empty())
      exits.insert(result.begin(), result.end());
  }
  return exits;
}

void InsertHostSyncs::runOnOperation() {
  SymbolTableCollection symbolTables;
  HostSyncInserter inserter(symbolTables);
  forEachProgramOnStream(
      getOperation(), [&](FunctionOpInterface program, InitStreamsOp) {
        inserter.processRegion(program.getFunctionBody(), {}, /*insert=*/true);
      });
}
