//===- ConcurrentSlots.cpp - Order a program's concurrent slots -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The stream waits of concurrent stream slots (SlotOrdering.h): between
// slots wherever one uses what another produced, and from slot 0 (the
// caller's stream) on every slot with work before each return, so that the
// call stays one ordered unit on the caller's stream. Upstream has no
// notion of a program's slots; the waits are sdfg.stream_wait ops, which
// lower to an event record and wait (never a host sync).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/StreamThreading.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "SDFGStream/Analysis/PendingGpuWork.h"
#include "SDFGStream/Analysis/SlotOrdering.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sdfg-concurrent-slots"

using namespace mlir;
using namespace mlir::sdfg;

LogicalResult mlir::sdfg::orderConcurrentSlots(FunctionOpInterface program,
                                               HostGpuAccesses &accesses,
                                               bool joinsOnly) {
  InitStreamsOp init = getInitStreamsOp(program);
  assert(init && init.getConcurrent() && "program has no concurrent slots");
  SmallVector<Value> streams = getProgramStreams(program);
  DataFlowSolver solver(DataFlowConfig().setInterprocedural(false));
  dataflow::loadBaselineAnalyses(solver);
  solver.load<PendingGpuWorkAnalysis>(
      accesses, program, streams,
      PendingGpuWorkAnalysis::Mode::SlotOrdering);
  if (failed(solver.initializeAndRun(program)))
    return program.emitOpError()
           << "the ordering analysis of its stream slots did not converge";

  BufferAliasAnalysis &aliases = accesses.getAliases(program);
  Value caller = init.getSlots().front();
  SmallVector<std::pair<Operation *, SmallVector<std::pair<Value, Value>>>>
      waits;
  walkHostCode(program.getFunctionBody(), [&](Operation *op) {
    const auto *lattice =
        solver.lookupState<PendingGpuWork>(solver.getProgramPointBefore(op));
    if (!lattice) // Dead code.
      return;
    const PendingState &state = lattice->getState();
    SmallVector<std::pair<Value, Value>> before;
    if (!joinsOnly)
      before = getSlotWaits(state, accesses.getAccesses(op, program), aliases,
                            streams);
    if (op->hasTrait<OpTrait::ReturnLike>() &&
        op->getParentOp() == program.getOperation())
      for (Value slot : getJoinWaits(state, caller, streams))
        before.push_back({caller, slot});
    if (!before.empty())
      waits.emplace_back(op, std::move(before));
  });
  for (auto &[op, opWaits] : waits) {
    OpBuilder builder(op);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << opWaits.size()
                            << " wait(s) before " << op->getName() << " at "
                            << op->getLoc() << "\n");
    for (auto [waiting, waitedOn] : opWaits)
      StreamWaitOp::create(builder, op->getLoc(), waiting, waitedOn);
  }
  return success();
}
