//===- InsertHostSyncs.cpp - Syncs exactly where the host needs results ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Solves PendingGpuWork (the data-flow problem, see
// SDFGStream/Analysis/PendingGpuWork.h) over each program on a stream and
// inserts one `sdfg.sync` before each op whose host accesses conflict with
// pending GPU work, of exactly the streams that work is on.
//
// Before that, syncs are hoisted out of loops: a loop whose host accesses
// conflict with work pending when it is entered, but not with any GPU work
// of the loop itself, gets one sync on its entry instead of one per
// iteration. Structured loops (LoopLikeOpInterface) get it right before the
// loop op; natural loops of a control-flow graph (CFGLoopInfo) on each
// entry edge that carries such work: at the end of the predecessor, or on
// a new block on that edge if the predecessor also branches elsewhere.
// Outer loops go first; each round of hoisting is followed by a new solve,
// so that a loop nested in one that got a sync sees nothing pending. What
// a loop's host accesses are, and which of them no GPU work of the loop
// conflicts with, is found once and kept across the rounds.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "SDFGStream/Analysis/PendingGpuWork.h"

#include "mlir/Analysis/CFGLoopInfo.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "llvm/ADT/PointerUnion.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_INSERTHOSTSYNCS
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sdfg-insert-host-syncs"

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct InsertHostSyncs
    : public sdfg::impl::InsertHostSyncsBase<InsertHostSyncs> {
  using InsertHostSyncsBase::InsertHostSyncsBase;
  void runOnOperation() override;
};

/// A loop of a program: a structured loop op, or a natural loop of the
/// control-flow graph of `region`.
struct LoopSite {
  Operation *op = nullptr;
  CFGLoop *loop = nullptr;
  Region *region = nullptr;
};

/// Places syncs in one program.
class SyncPlacer {
public:
  SyncPlacer(HostGpuAccesses &accesses, FunctionOpInterface program)
      : accesses(accesses), program(program),
        aliases(accesses.getAliases(program)),
        streams(getProgramStreams(program)) {}

  LogicalResult run(bool insert);

private:
  /// Solves the data-flow problem on the program as it is now.
  LogicalResult solve();
  /// The state before `op`, or null where the solver found it dead.
  const PendingState *stateBefore(Operation *op) const;
  /// One round of hoisting; returns true if it inserted a sync.
  bool hoistOutOfLoops();
  void collectLoops(SmallVectorImpl<LoopSite> &sites);
  /// Calls `fn` on every host op inside `site`.
  void forEachOpIn(const LoopSite &site, function_ref<void(Operation *)> fn);
  /// Returns true if `inner` is nested inside `outer`.
  bool encloses(const LoopSite &outer, Operation *inner) const;
  /// The host accesses of `site` that no GPU work of `site` conflicts with
  /// (computed on the first round that asks).
  const OpAccesses &getLoopInvariantAccesses(const LoopSite &site);
  /// Hoists for `site`; returns true if it inserted a sync.
  bool hoist(const LoopSite &site);
  Operation *getAnchor(const LoopSite &site) const {
    return site.op ? site.op : &site.loop->getHeader()->front();
  }

  HostGpuAccesses &accesses;
  FunctionOpInterface program;
  BufferAliasAnalysis &aliases;
  SmallVector<Value> streams;
  std::unique_ptr<DataFlowSolver> solver;
  SmallVector<std::unique_ptr<DominanceInfo>> dominance;
  SmallVector<std::unique_ptr<CFGLoopInfo>> loopInfos;
  /// getLoopInvariantAccesses of each loop, by its op, or for a natural loop
  /// its header (the CFGLoop is rebuilt every round, its header stays). A
  /// round only inserts syncs and edge blocks that hold a sync and branch to
  /// a header: none of them reads or writes a buffer, and a loop keeps its
  /// header and every op it had, so no entry goes stale.
  DenseMap<llvm::PointerUnion<Operation *, Block *>, OpAccesses>
      invariantAccesses;
};
} // namespace

LogicalResult SyncPlacer::solve() {
  solver = std::make_unique<DataFlowSolver>(
      DataFlowConfig().setInterprocedural(false));
  dataflow::loadBaselineAnalyses(*solver);
  solver->load<PendingGpuWorkAnalysis>(accesses, program, streams);
  return solver->initializeAndRun(program);
}

const PendingState *SyncPlacer::stateBefore(Operation *op) const {
  const auto *lattice = solver->lookupState<PendingGpuWork>(
      solver->getProgramPointBefore(op));
  return lattice ? &lattice->getState() : nullptr;
}

void SyncPlacer::collectLoops(SmallVectorImpl<LoopSite> &sites) {
  dominance.clear();
  loopInfos.clear();
  auto addCfgLoops = [&](Region &region) {
    if (region.empty() || region.hasOneBlock())
      return;
    dominance.push_back(
        std::make_unique<DominanceInfo>(region.getParentOp()));
    loopInfos.push_back(std::make_unique<CFGLoopInfo>(
        dominance.back()->getDomTree(&region)));
    for (CFGLoop *loop : loopInfos.back()->getLoopsInPreorder())
      sites.push_back({nullptr, loop, &region});
  };
  addCfgLoops(program.getFunctionBody());
  walkHostCode(program.getFunctionBody(), [&](Operation *op) {
    if (isa<gpu::LaunchOp>(op)) // Its body is device code.
      return;
    if (isa<LoopLikeOpInterface>(op))
      sites.push_back({op, nullptr, nullptr});
    for (Region &region : op->getRegions())
      addCfgLoops(region);
  });
}

void SyncPlacer::forEachOpIn(const LoopSite &site,
                             function_ref<void(Operation *)> fn) {
  if (site.op) {
    for (Region &region : site.op->getRegions())
      walkHostCode(region, fn);
    return;
  }
  for (Block *block : site.loop->getBlocks())
    for (Operation &op : *block) {
      fn(&op);
      for (Region &region : op.getRegions())
        walkHostCode(region, fn);
    }
}

bool SyncPlacer::encloses(const LoopSite &outer, Operation *inner) const {
  if (outer.op)
    return outer.op != inner && outer.op->isAncestor(inner);
  Operation *op = inner;
  while (op && op->getParentRegion() != outer.region)
    op = op->getParentOp();
  return op && outer.loop->contains(op->getBlock());
}

const OpAccesses &SyncPlacer::getLoopInvariantAccesses(const LoopSite &site) {
  llvm::PointerUnion<Operation *, Block *> key = site.op;
  if (!site.op)
    key = site.loop->getHeader();
  auto [entry, isNew] = invariantAccesses.try_emplace(key);
  OpAccesses &invariant = entry->second;
  if (!isNew)
    return invariant;
  SmallVector<BufferAccess> host, gpu;
  forEachOpIn(site, [&](Operation *op) {
    OpAccesses opAccesses = accesses.getAccesses(op, program);
    llvm::append_range(host, opAccesses.host);
    for (const StreamAccess &access : opAccesses.gpu)
      gpu.push_back(access.access);
  });
  for (const BufferAccess &access : host)
    if (llvm::none_of(gpu, [&](const BufferAccess &work) {
          return (access.write || work.write) &&
                 aliases.mayAlias(access.roots, work.roots);
        }))
      invariant.host.push_back(access);
  return invariant;
}

bool SyncPlacer::hoist(const LoopSite &site) {
  const OpAccesses &invariant = getLoopInvariantAccesses(site);
  if (invariant.host.empty())
    return false;
  if (site.op) {
    const PendingState *state = stateBefore(site.op);
    if (!state)
      return false;
    SmallVector<Value> toSync =
        getStreamsToSync(*state, invariant, aliases, streams);
    if (toSync.empty())
      return false;
    OpBuilder builder(site.op);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] sync hoisted before "
                            << site.op->getName() << " at "
                            << site.op->getLoc() << "\n");
    SyncOp::create(builder, site.op->getLoc(), toSync);
    return true;
  }

  bool inserted = false;
  Block *header = site.loop->getHeader();
  SmallVector<Block *> predecessors(header->getPredecessors());
  llvm::SmallPtrSet<Block *, 4> seen;
  for (Block *predecessor : predecessors) {
    if (site.loop->contains(predecessor) || !seen.insert(predecessor).second)
      continue;
    Operation *terminator = predecessor->getTerminator();
    const PendingState *state = stateBefore(terminator);
    if (!state)
      continue;
    SmallVector<Value> toSync =
        getStreamsToSync(*state, invariant, aliases, streams);
    if (toSync.empty())
      continue;
    inserted = true;
    Location loc = terminator->getLoc();
    if (predecessor->getNumSuccessors() == 1) {
      OpBuilder builder(terminator);
      SyncOp::create(builder, loc, toSync);
      continue;
    }
    // The edge also leads elsewhere: sync on a new block on the way into
    // the loop only.
    auto *edge = new Block();
    site.region->getBlocks().insert(header->getIterator(), edge);
    for (BlockArgument argument : header->getArguments())
      edge->addArgument(argument.getType(), argument.getLoc());
    OpBuilder builder = OpBuilder::atBlockEnd(edge);
    SyncOp::create(builder, loc, toSync);
    cf::BranchOp::create(builder, loc, header, edge->getArguments());
    for (unsigned i = 0, e = terminator->getNumSuccessors(); i < e; ++i)
      if (terminator->getSuccessor(i) == header)
        terminator->setSuccessor(edge, i);
  }
  return inserted;
}

bool SyncPlacer::hoistOutOfLoops() {
  SmallVector<LoopSite> sites;
  collectLoops(sites);
  // Outer loops first: a loop inside one that got a sync this round waits
  // for the next solve.
  SmallVector<std::pair<unsigned, unsigned>> byDepth; // (depth, index)
  for (unsigned index = 0, e = sites.size(); index < e; ++index) {
    // Not a structured binding: C++17 lambdas cannot capture one.
    const LoopSite &site = sites[index];
    unsigned depth = llvm::count_if(sites, [&](const LoopSite &outer) {
      return &outer != &site && encloses(outer, getAnchor(site));
    });
    byDepth.push_back({depth, index});
  }
  llvm::stable_sort(byDepth);
  SmallVector<const LoopSite *> hoisted;
  for (auto [depth, index] : byDepth) {
    const LoopSite &site = sites[index];
    if (llvm::any_of(hoisted, [&](const LoopSite *outer) {
          return encloses(*outer, getAnchor(site));
        }))
      continue;
    if (hoist(site))
      hoisted.push_back(&site);
  }
  return !hoisted.empty();
}

LogicalResult SyncPlacer::run(bool insert) {
  if (failed(solve()))
    return failure();
  if (!insert)
    return success();
  // Each round hoists at least one sync out of a loop that had none; a loop
  // gets at most one, so this ends.
  while (hoistOutOfLoops())
    if (failed(solve()))
      return failure();

  SmallVector<std::pair<Operation *, SmallVector<Value>>> syncs;
  walkHostCode(program.getFunctionBody(), [&](Operation *op) {
    const PendingState *state = stateBefore(op);
    if (!state)
      return;
    SmallVector<Value> toSync = getStreamsToSync(
        *state, accesses.getAccesses(op, program), aliases, streams);
    if (!toSync.empty())
      syncs.emplace_back(op, std::move(toSync));
  });
  for (auto &[op, toSync] : syncs) {
    OpBuilder builder(op);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] sync of " << toSync.size()
                            << " stream(s) before " << op->getName() << " at "
                            << op->getLoc() << "\n");
    SyncOp::create(builder, op->getLoc(), toSync);
  }
  return success();
}

void InsertHostSyncs::runOnOperation() {
  HostGpuAccesses accesses(getOperation());
  // Every function with a stream: programs on one (their init op's slots)
  // and functions given a stream they only pass on to callees that enqueue
  // work on it. Callees first: a caller then sees the syncs its callees end
  // with (a stream a callee leaves idle needs no sync after the call).
  for (Operation *op : accesses.getCalleesFirst()) {
    auto program = dyn_cast<FunctionOpInterface>(op);
    if (!program || getProgramStreams(program).empty())
      continue;
    SyncPlacer placer(accesses, program);
    if (failed(placer.run(/*insert=*/!testOmitSyncs))) {
      program.emitOpError() << "host-sync analysis did not converge";
      return signalPassFailure();
    }
    accesses.forgetExitSyncs(program);
  }
}
