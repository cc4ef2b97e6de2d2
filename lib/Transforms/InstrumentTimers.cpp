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
#include "SDFGStream/Analysis/StreamQueries.h"

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
  forEachProgramOnStream(getOperation(), [&](FunctionOpInterface program,
                                             InitStreamsOp init) {
    if (program.isPrivate() && !nestedPrograms)
      return;
    // Already timed: a second run changes nothing.
    if (!program.getFunctionBody().getOps<TimerBeginOp>().empty())
      return;

    SmallVector<Value> streams = getDistinctStreams(init);
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
  });
}
