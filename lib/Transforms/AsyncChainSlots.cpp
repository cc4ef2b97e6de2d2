//===- AsyncChainSlots.cpp - Stream slots from a program's token chains ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A program in upstream's async form says which GPU work is independent:
// each GPU op with a token and no async dependencies (`gpu.wait async`,
// most often) starts a chain, which upstream's gpu-to-llvm runs on a stream
// of its own. Here each chain gets a stream slot instead, and the program's
// slots become concurrent: slot 0 is the caller's stream, the others are
// forked from it at entry and joined back before each return, so the call
// stays one ordered unit on the caller's stream. Upstream has no notion of
// a caller's stream (it creates and destroys a stream per chain), which is
// why this is ours.
//
// Only the roots get a slot: moveGpuWorkOntoStreams then puts each op on
// the stream of its first dependency, and where an op depends on tokens of
// several chains (a `gpu.wait async [%a, %b]` join, a launch after both) it
// waits for the others' streams first. The program states the order by its
// tokens, so between chains no wait is added for shared buffers (two
// kernels of two chains may be meant to run at once); the host syncs are
// sdfg-insert-host-syncs' as for any slots.
//
// A chain that a blocking `gpu.wait` has finished frees its slot for the
// chains that start after that wait in the same block, so a program of
// upstream's `gpu-async-region` shape (one chain per run of GPU work
// between host code, each ended by a blocking wait) needs one slot, not
// one per run.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/StreamThreading.h"

#include "SDFGStream/Analysis/HostGpuAccesses.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sdfg;

/// Whether `op` starts a chain: a GPU op in async form that yields a token
/// and depends on nothing.
static bool isChainRoot(Operation *op) {
  auto async = dyn_cast<gpu::AsyncOpInterface>(op);
  return async && async.getAsyncToken() &&
         async.getAsyncDependencies().empty();
}

/// Collects the roots of the chains `token` comes from, following async
/// dependencies of GPU ops only. Returns false if some source is anything
/// else (a block argument, a region op's result, a call's): then nobody
/// can tell which chains the token finishes.
static bool collectChainRoots(Value token,
                              llvm::SetVector<Operation *> &roots) {
  SmallVector<Value> worklist{token};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    auto async = value.getDefiningOp<gpu::AsyncOpInterface>();
    if (!async)
      return false;
    if (isChainRoot(async)) {
      roots.insert(async);
      continue;
    }
    llvm::append_range(worklist, async.getAsyncDependencies());
  }
  return true;
}

/// Whether the blocking wait `wait` (which finishes chains rooted before it
/// in its block) has run whenever `root` runs: some block holds both an
/// ancestor of `wait` (or it) and, later, one of `root` (or it). A chain
/// that starts and is finished in a loop's body, say, is finished before
/// whatever follows the loop.
static bool runsBefore(Operation *wait, Operation *root) {
  for (Operation *ancestor = wait; ancestor;
       ancestor = ancestor->getParentOp()) {
    Block *block = ancestor->getBlock();
    if (!block)
      return false;
    Operation *rootAncestor = block->findAncestorOpInBlock(*root);
    if (!rootAncestor)
      continue;
    return rootAncestor != ancestor && ancestor->isBeforeInBlock(rootAncestor);
  }
  return false;
}

int64_t mlir::sdfg::deriveSlotsFromTokenChains(FunctionOpInterface program) {
  if (program.isExternal() || getInitStreamsOp(program) ||
      getNumStreamSlots(program) > 1)
    return 0;
  MLIRContext *context = program->getContext();
  auto slotAttr = SDFGDialect::StreamSlotAttrHelper(context);
  SmallVector<Operation *> roots;
  bool handPlaced = false;
  SmallVector<gpu::WaitOp> blockingWaits;
  walkHostCode(program.getFunctionBody(), [&](Operation *op) {
    handPlaced |= slotAttr.isAttrPresent(op);
    if (isChainRoot(op))
      roots.push_back(op);
    if (auto wait = dyn_cast<gpu::WaitOp>(op); wait && !wait.getAsyncToken())
      blockingWaits.push_back(wait);
  });
  if (handPlaced || roots.size() < 2)
    return 0;

  // Where each chain is finished: the first blocking wait after its root,
  // in its block, that waits for it.
  DenseMap<Operation *, Operation *> finishedAt;
  for (gpu::WaitOp wait : blockingWaits) {
    llvm::SetVector<Operation *> waitedOn;
    bool known = llvm::all_of(wait.getAsyncDependencies(), [&](Value dep) {
      return collectChainRoots(dep, waitedOn);
    });
    if (!known)
      continue;
    for (Operation *root : waitedOn) {
      if (root->getBlock() != wait->getBlock() ||
          !root->isBeforeInBlock(wait))
        continue;
      Operation *&at = finishedAt[root];
      if (!at || wait->isBeforeInBlock(at))
        at = wait;
    }
  }

  // Each root takes the lowest slot whose chains are all finished whenever
  // it starts, or a new one.
  SmallVector<SmallVector<Operation *>> chainsOfSlot;
  for (Operation *root : roots) {
    auto isFree = [&](ArrayRef<Operation *> chains) {
      return llvm::all_of(chains, [&](Operation *other) {
        Operation *at = finishedAt.lookup(other);
        return at && runsBefore(at, root);
      });
    };
    auto *free = llvm::find_if(chainsOfSlot, isFree);
    int64_t slot = free - chainsOfSlot.begin();
    if (free == chainsOfSlot.end()) {
      if (static_cast<int64_t>(chainsOfSlot.size()) ==
          SDFGDialect::getMaxStreamSlots())
        slot = chainsOfSlot.size() - 1; // The last slot takes the rest.
      else
        chainsOfSlot.emplace_back();
    }
    chainsOfSlot[slot].push_back(root);
    slotAttr.setAttr(root, IntegerAttr::get(IntegerType::get(context, 64),
                                            slot));
  }
  int64_t count = chainsOfSlot.size();
  if (count < 2) {
    // One chain at a time: the caller's stream is all it needs.
    for (Operation *root : roots)
      slotAttr.removeAttr(root);
    return 0;
  }
  auto countAttr = IntegerAttr::get(IntegerType::get(context, 64), count);
  if (auto sdfg = dyn_cast<SDFGOp>(program.getOperation()))
    sdfg.setNumStreams(count);
  else
    SDFGDialect::NumStreamsAttrHelper(context).setAttr(program, countAttr);
  SDFGDialect::ConcurrentStreamsAttrHelper(context).setAttr(
      program, UnitAttr::get(context));
  SDFGDialect::TokenChainsAttrHelper(context).setAttr(program,
                                                      UnitAttr::get(context));
  return count;
}
