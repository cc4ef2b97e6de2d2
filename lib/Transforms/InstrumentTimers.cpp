//===- InstrumentTimers.cpp - Time programs on their own streams ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Brackets each program that takes the caller's stream with
// sdfg.timer_begin / sdfg.timer_end on the slots of its sdfg.init_streams.
// The runtime turns them into events on those streams; no host wait and no
// device-wide synchronization is ever added.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_INSTRUMENTTIMERS
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct InstrumentTimers
    : public sdfg::impl::InstrumentTimersBase<InstrumentTimers> {
  using InstrumentTimersBase::InstrumentTimersBase;
  void runOnOperation() override;
};
} // namespace

/// Where a return's timer_end goes: before the syncs right in front of the
/// return, so that a synchronous call waits for its end events as well.
static Operation *endInsertionPoint(Operation *terminator) {
  Operation *point = terminator;
  while (auto sync = dyn_cast_or_null<SyncOp>(point->getPrevNode()))
    point = sync;
  return point;
}

void InstrumentTimers::runOnOperation() {
  getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto program = dyn_cast<FunctionOpInterface>(op);
    if (!program)
      return WalkResult::advance();
    InitStreamsOp init = getInitStreamsOp(program);
    if (!init || (program.isPrivate() && !nestedPrograms))
      return WalkResult::skip();
    // Already timed: a second run changes nothing.
    if (!program.getFunctionBody().getOps<TimerBeginOp>().empty())
      return WalkResult::skip();

    SmallVector<Value> streams;
    for (Value slot : init.getSlots())
      if (llvm::none_of(streams,
                        [&](Value seen) { return isSameStream(seen, slot); }))
        streams.push_back(slot);

    OpBuilder builder(init->getContext());
    builder.setInsertionPointAfter(init);
    Value timer = TimerBeginOp::create(
        builder, init.getLoc(), TimerType::get(init->getContext()),
        builder.getStringAttr(SymbolTable::getSymbolName(program).getValue()),
        streams);

    for (Block &block : program.getFunctionBody()) {
      Operation *terminator = block.getTerminator();
      if (!terminator || !terminator->hasTrait<OpTrait::ReturnLike>())
        continue;
      builder.setInsertionPoint(endInsertionPoint(terminator));
      TimerEndOp::create(builder, terminator->getLoc(), timer, streams);
    }
    return WalkResult::skip();
  });
}
