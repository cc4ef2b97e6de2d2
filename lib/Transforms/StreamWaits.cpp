//===- StreamWaits.cpp - Stream waits beyond the token dependencies -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See StreamWaits.h.
//
//===----------------------------------------------------------------------===//

#include "StreamWaits.h"

#include "SDFGStream/Analysis/HostGpuAccesses.h"
#include "SDFGStream/Analysis/StreamQueries.h"
#include "SDFGStream/Analysis/SyncFormBarriers.h"

using namespace mlir;
using namespace mlir::sdfg;

bool mlir::sdfg::isOnStream(gpu::AsyncOpInterface op) {
  OperandRange deps = op.getAsyncDependencies();
  return deps.size() == 1 && deps.front().getDefiningOp<StreamTokenOp>() &&
         op.getAsyncToken();
}

LogicalResult
mlir::sdfg::addSyncFormBarriers(FunctionOpInterface program,
                                InitStreamsOp init, ArrayRef<Operation *> work,
                                MutableArrayRef<OpStreams> plans) {
  using Kind = BarrierRole::Kind;
  DenseMap<Operation *, BarrierRole> roles;
  bool anySyncForm = false;
  for (auto [op, plan] : llvm::zip(work, plans)) {
    auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op);
    if (!asyncOp || !plan.stream || isOnStream(asyncOp))
      continue;
    Value stream = getCanonicalStream(plan.stream);
    auto wait = dyn_cast<gpu::WaitOp>(op);
    if (wait && !wait.getAsyncToken()) {
      SmallVector<Value> synced = plan.depChains;
      if (synced.empty())
        synced.push_back(stream);
      roles[op] = {Kind::HostWait, Value(), synced};
      continue;
    }
    bool syncForm = !wait && !asyncOp.getAsyncToken();
    anySyncForm |= syncForm;
    roles[op] = {syncForm ? Kind::SyncForm : Kind::Chain, stream, {}};
  }
  if (!anySyncForm)
    return success();
  SmallVector<Value> streams;
  for (Value stream : getDistinctStreams(init))
    streams.push_back(getCanonicalStream(stream));
  FailureOr<DenseMap<Operation *, SmallVector<Value>>> waits =
      getSyncFormBarrierWaits(program, roles, streams);
  if (failed(waits))
    return program.emitOpError() << "the ordering analysis of its GPU ops in "
                                    "sync form did not converge";
  for (auto [op, plan] : llvm::zip(work, plans))
    for (Value stream : waits->lookup(op))
      if (!llvm::is_contained(plan.depChains, stream))
        plan.depChains.push_back(stream);
  return success();
}

void mlir::sdfg::dropRepeatedWaits(FunctionOpInterface program) {
  program.getFunctionBody().walk([](Block *block) {
    if (isDeviceCode(block->getParentOp()) ||
        isa<gpu::LaunchOp>(block->getParentOp()))
      return;
    SmallVector<std::pair<Value, Value>> waited;
    for (Operation &op : llvm::make_early_inc_range(*block)) {
      if (auto wait = dyn_cast<StreamWaitOp>(op)) {
        std::pair<Value, Value> key{getCanonicalStream(wait.getStream()),
                                    getCanonicalStream(wait.getWaitedOn())};
        if (llvm::is_contained(waited, key)) {
          op.erase();
          continue;
        }
        // The waiting stream's later work is after more now.
        llvm::erase_if(waited, [&](const std::pair<Value, Value> &other) {
          return other.second == key.first;
        });
        waited.push_back(key);
        continue;
      }
      if (op.getNumRegions() > 0) {
        waited.clear();
        continue;
      }
      for (Value operand : op.getOperands()) {
        Value stream = isa<StreamType>(operand.getType()) ? operand : Value();
        if (auto token = operand.getDefiningOp<StreamTokenOp>())
          stream = token.getStream();
        if (stream)
          llvm::erase_if(waited, [&](const std::pair<Value, Value> &key) {
            return key.second == getCanonicalStream(stream);
          });
      }
    }
  });
}
