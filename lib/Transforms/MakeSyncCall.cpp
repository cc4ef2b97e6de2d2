//===- MakeSyncCall.cpp - Synchronize a program's streams at return -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_MAKESYNCCALL
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct MakeSyncCall : public sdfg::impl::MakeSyncCallBase<MakeSyncCall> {
  using MakeSyncCallBase::MakeSyncCallBase;
  void runOnOperation() override;
};
} // namespace

/// Returns true if `sync` already synchronizes every stream in `streams`.
static bool coversAll(SyncOp sync, ArrayRef<Value> streams) {
  return llvm::all_of(streams, [&](Value stream) {
    return llvm::any_of(sync.getStreams(), [&](Value synced) {
      return isSameStream(synced, stream);
    });
  });
}

/// Whether a sync of `streams` precedes `terminator` in its block with
/// nothing between them that may enqueue GPU work: host code that calls
/// nothing, holds no regions and is no op of the sdfg dialect (a host read
/// after sdfg-insert-host-syncs' sync, say). Then that sync is the call's.
static bool alreadySynced(Operation *terminator, ArrayRef<Value> streams) {
  for (Operation *op = terminator->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto sync = dyn_cast<SyncOp>(op)) {
      if (coversAll(sync, streams))
        return true;
      continue;
    }
    if (op->getNumRegions() || isa<CallOpInterface>(op) ||
        isa<SDFGDialect>(op->getDialect()) || isHostGpuWork(op))
      return false;
  }
  return false;
}

void MakeSyncCall::runOnOperation() {
  forEachProgramOnStream(getOperation(), [&](FunctionOpInterface program,
                                             InitStreamsOp init) {
    if (program.isPrivate() && !nestedPrograms)
      return;
    // Each distinct stream once: slots that share a stream need one sync.
    // Concurrent slots are joined into slot 0 (the caller's stream) before
    // each return, so that one is all there is to wait for.
    SmallVector<Value> streams =
        init.getConcurrent() ? SmallVector<Value>{init.getSlots().front()}
                             : getDistinctStreams(init);
    for (Block &block : program.getFunctionBody()) {
      Operation *terminator = block.getTerminator();
      if (!terminator->hasTrait<OpTrait::ReturnLike>())
        continue;
      if (alreadySynced(terminator, streams))
        continue;
      OpBuilder builder(terminator);
      SyncOp::create(builder, terminator->getLoc(), streams);
    }
  });
}
