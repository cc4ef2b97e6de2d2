//===- InsertFailureExits.cpp - Leave a program call at its first failure -===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The runtime records the first failure of a program call and skips the
// call's later GPU operations, but only generated code can stop the host
// code in between: a host loop waiting for a flag that a skipped copy never
// brings back would spin forever. This pass makes every operation that can
// fail a call an exit point of its function (see Passes.td). Upstream has no
// notion of a call status, so this is ours; it reuses MLIR's dominance
// information and the runtime's one list of entry points
// (RuntimeEntries.def) for what can fail.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"

#include "FailureModel.h"

#include "SDFGStream/Conversion/RuntimeEntries.h"

#include "SDFGStream/Analysis/BufferAliasAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_INSERTFAILUREEXITS
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

//===----------------------------------------------------------------------===//
// Host buffers to free on the way out
//===----------------------------------------------------------------------===//

/// Whether every use of `buffer` (and of the views made of it) reads or
/// writes it in place, so that the function still owns it wherever it has
/// not freed it; `frees` gets the deallocs of `buffer` itself.
static bool isOwnedLocally(Value buffer, SmallVectorImpl<Operation *> &frees,
                           bool isRoot = true) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user)) {
      if (!isRoot)
        return false; // freed through a view: not ours to reason about
      frees.push_back(user);
      continue;
    }
    if (isa<gpu::HostRegisterOp, gpu::HostUnregisterOp>(user))
      return false; // the GPU may still reach it after a failure
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() == buffer &&
          !isOwnedLocally(view->getResult(0), frees, /*isRoot=*/false))
        return false;
      continue;
    }
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
      if (!isOwnedLocally(metadata.getBaseBuffer(), frees, /*isRoot=*/false))
        return false;
      continue;
    }
    if (isa<func::CallOp, gpu::MemcpyOp, gpu::MemsetOp, gpu::LaunchFuncOp,
            memref::CopyOp, memref::ExtractAlignedPointerAsIndexOp,
            memref::DimOp>(user))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffectsOnValue(buffer, instances);
    if (llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
          return !isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect());
        }))
      return false;
    if (instances.empty() && !isMemoryEffectFree(user))
      return false;
  }
  return true;
}

namespace {

/// A host buffer that the function allocates and frees itself.
struct LocalBuffer {
  memref::AllocOp alloc;
  SmallVector<Operation *> frees;
};

} // namespace

/// Whether some path reaches `point` from one of `buffer`'s frees without
/// passing its allocation again, i.e. `buffer` may already be freed there.
static bool mayBeFreedAt(LocalBuffer &buffer, Operation *point) {
  llvm::SmallPtrSet<Operation *, 4> frees(buffer.frees.begin(),
                                          buffer.frees.end());
  Operation *alloc = buffer.alloc;
  // Scans `block` backwards from `from` (exclusive; null: its end): true if
  // a free comes first, and `stop` set if the allocation does.
  auto scan = [&](Block *block, Operation *from, bool &stop) {
    // Made from `from`, a reverse iterator starts at the op before it (as
    // std::reverse_iterator does).
    auto it =
        from ? Block::reverse_iterator(from->getIterator()) : block->rbegin();
    for (; it != block->rend(); ++it) {
      if (&*it == alloc) {
        stop = true;
        return false;
      }
      if (frees.contains(&*it))
        return true;
    }
    return false;
  };
  SmallVector<Block *> worklist;
  llvm::SmallPtrSet<Block *, 8> visited;
  bool stop = false;
  if (scan(point->getBlock(), point, stop))
    return true;
  if (!stop)
    llvm::append_range(worklist, point->getBlock()->getPredecessors());
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    if (!visited.insert(block).second)
      continue;
    bool blockStop = false;
    if (scan(block, nullptr, blockStop))
      return true;
    if (!blockStop)
      llvm::append_range(worklist, block->getPredecessors());
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct InsertFailureExits
    : public sdfg::impl::InsertFailureExitsBase<InsertFailureExits> {
  using InsertFailureExitsBase::InsertFailureExitsBase;
  void runOnOperation() override;

private:
  void insertExits(func::FuncOp function, const FailureModel &model);
  /// The block that leaves `function` after a failure.
  Block *buildExit(func::FuncOp function);
};
} // namespace

/// Whether `function` opens its calls itself: its entry block begins with
/// sdfgrtBeginCall or sdfgrtBeginGraphCall (convert-sdfg-to-func).
static bool opensCalls(func::FuncOp function) {
  for (Operation &op : function.getBody().front()) {
    auto call = dyn_cast<func::CallOp>(op);
    std::optional<RuntimeEntry> entry =
        call ? lookupRuntimeEntry(call.getCallee()) : std::nullopt;
    if (entry && (*entry == RuntimeEntry::sdfgrtBeginCall ||
                  *entry == RuntimeEntry::sdfgrtBeginGraphCall))
      return true;
    // Constants (which canonicalization hoists to the entry) and the
    // graph-mode name may come first.
    if (!call && !op.hasTrait<OpTrait::ConstantLike>() &&
        !isa<LLVM::AddressOfOp>(op))
      return false;
  }
  return false;
}

Block *InsertFailureExits::buildExit(func::FuncOp function) {
  Region &body = function.getBody();
  Block *exit = new Block();
  body.push_back(exit);
  OpBuilder builder = OpBuilder::atBlockEnd(exit);
  Location loc = function.getLoc();
  if (SDFGDialect::ProgramAttrHelper(function->getContext())
          .isAttrPresent(function)) {
    Value status =
        createRuntimeEntryFuncCall(builder, loc, RuntimeEntry::sdfgrtEndCall)
            .front();
    func::ReturnOp::create(builder, loc, status);
    return exit;
  }
  // A function that returns values of its own and opens its calls
  // (convert-sdfg-to-func) closes them too, which frees what the failed
  // call took; its results are poison.
  if (opensCalls(function))
    createRuntimeEntryFuncCall(builder, loc, RuntimeEntry::sdfgrtEndCall);
  SmallVector<Value> results;
  for (Type type : function.getResultTypes())
    results.push_back(ub::PoisonOp::create(builder, loc, type));
  func::ReturnOp::create(builder, loc, results);
  return exit;
}

/// Whether `op` already is a failure check that this pass inserted (the
/// status call of one), so that a second run changes nothing.
static bool isStatusCheck(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  return call &&
         lookupRuntimeEntry(call.getCallee()) == RuntimeEntry::sdfgrtCallStatus;
}

void InsertFailureExits::insertExits(func::FuncOp function,
                                     const FailureModel &model) {
  Region &body = function.getBody();
  // The exit points, directly in the function body (a branch can leave only
  // from there): after a call or region op that can fail, and after the
  // last op of each run of GPU work that the runtime skips after a failure
  // (with only pure ops between them), before the host code that follows.
  // Not where a check already follows (a second run changes nothing).
  SmallVector<Operation *> points;
  auto addPoint = [&](Operation *op) {
    if (!isStatusCheck(op->getNextNode()))
      points.push_back(op);
  };
  for (Block &block : body) {
    Operation *pending = nullptr; // the last op of the current run
    for (Operation &op : block) {
      if (FailureModel::isSkippedAfterFailure(&op)) {
        pending = &op;
        continue;
      }
      if (!op.hasTrait<OpTrait::IsTerminator>() && op.getNumRegions() == 0 &&
          isMemoryEffectFree(&op))
        continue; // index arithmetic and the like between GPU ops
      if (pending)
        addPoint(pending);
      pending = nullptr;
      if (!op.hasTrait<OpTrait::IsTerminator>() && model.mayFailWithin(&op))
        addPoint(&op);
    }
  }
  if (points.empty())
    return;

  // Host buffers owned by the function, and which are live at each point
  // (decided on the graph before it is split).
  SmallVector<LocalBuffer> buffers;
  function.walk([&](memref::AllocOp alloc) {
    if (alloc->getParentRegion() != &body ||
        isGpuMemorySpace(alloc.getType().getMemorySpace()))
      return;
    LocalBuffer buffer{alloc, {}};
    if (isOwnedLocally(alloc.getResult(), buffer.frees))
      buffers.push_back(std::move(buffer));
  });
  DominanceInfo dominance(function);
  SmallVector<SmallVector<Value>> liveAt(points.size());
  for (auto [index, point] : llvm::enumerate(points))
    for (LocalBuffer &buffer : buffers)
      if (dominance.properlyDominates(buffer.alloc.getOperation(), point) &&
          !mayBeFreedAt(buffer, point))
        liveAt[index].push_back(buffer.alloc.getResult());

  Block *exit = buildExit(function);
  OpBuilder builder(function.getContext());
  builder.setInsertionPointToStart(&body.front());
  Value ok = arith::ConstantIntOp::create(builder, function.getLoc(),
                                          builder.getI32Type(), 0);
  for (auto [index, point] : llvm::enumerate(points)) {
    Location loc = point->getLoc();
    Block *block = point->getBlock();
    Block *rest = block->splitBlock(point->getNextNode());
    Block *target = exit;
    if (!liveAt[index].empty()) {
      target = new Block();
      body.getBlocks().insert(exit->getIterator(), target);
      builder.setInsertionPointToEnd(target);
      for (Value buffer : llvm::reverse(liveAt[index]))
        memref::DeallocOp::create(builder, loc, buffer);
      cf::BranchOp::create(builder, loc, exit);
    }
    builder.setInsertionPointToEnd(block);
    Value status =
        createRuntimeEntryFuncCall(builder, loc, RuntimeEntry::sdfgrtCallStatus)
            .front();
    Value failed = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                         status, ok);
    // Failures are rare: the likely path is the one that goes on.
    cf::CondBranchOp::create(builder, loc, failed, target, ValueRange{}, rest,
                             ValueRange{}, ArrayRef<int32_t>{1, 2047});
  }
}

void InsertFailureExits::runOnOperation() {
  ModuleOp module = getOperation();
  FailureModel model(module);
  // The first function that checks the status, where a conflicting
  // declaration of a status entry is reported.
  func::FuncOp first;
  for (func::FuncOp function : module.getOps<func::FuncOp>())
    if (!function.isExternal() && model.mayFail(function)) {
      first = function;
      break;
    }
  if (!first)
    return;
  for (RuntimeEntry entry :
       {RuntimeEntry::sdfgrtCallStatus, RuntimeEntry::sdfgrtEndCall})
    if (failed(lookupOrDeclareRuntimeEntryFunc(module, first.getLoc(), entry)))
      return signalPassFailure();
  for (func::FuncOp function : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (function.isExternal() || !model.mayFail(function))
      continue;
    insertExits(function, model);
  }
}
