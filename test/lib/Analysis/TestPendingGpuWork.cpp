//===- TestPendingGpuWork.cpp - Print the pending-GPU-work solution -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// test-sdfg-pending-gpu-work{mode=host-syncs|slot-ordering|exit-state}: for
// each host function with streams, solves PendingGpuWork in that mode and
// prints, before each tagged op, the pending state and what the mode asks
// there: the streams to sync (host-syncs), the slot waits and, at a return,
// the join's waits (slot-ordering); then, in exit-state mode, the streams
// idle at every return (getStreamsIdleAtExit).
//
//===----------------------------------------------------------------------===//

#include "TestAnalysisPasses.h"

#include "SDFGStream/Analysis/PendingGpuWork.h"
#include "SDFGStream/Analysis/SlotOrdering.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::sdfg;

using Mode = PendingGpuWorkAnalysis::Mode;

namespace {
struct TestPendingGpuWorkPass
    : PassWrapper<TestPendingGpuWorkPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPendingGpuWorkPass)
  TestPendingGpuWorkPass() = default;
  TestPendingGpuWorkPass(const TestPendingGpuWorkPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-sdfg-pending-gpu-work"; }
  StringRef getDescription() const final {
    return "Print the pending GPU work before each tagged op, and what a "
           "mode of the analysis asks there";
  }

  Option<std::string> mode{
      *this, "mode",
      llvm::cl::desc("host-syncs, slot-ordering or exit-state"),
      llvm::cl::init("host-syncs")};

  void runOnOperation() override {
    std::optional<Mode> parsed =
        llvm::StringSwitch<std::optional<Mode>>(mode)
            .Case("host-syncs", Mode::HostSyncs)
            .Case("slot-ordering", Mode::SlotOrdering)
            .Case("exit-state", Mode::ExitState)
            .Default(std::nullopt);
    if (!parsed) {
      getOperation()->emitError() << "unknown mode '" << mode << "'";
      return signalPassFailure();
    }
    raw_ostream &os = llvm::errs();
    HostGpuAccesses accesses(getOperation());
    test::forEachHostFunction(getOperation(), [&](FunctionOpInterface fn) {
      SmallVector<Value> streams = getProgramStreams(fn);
      if (streams.empty())
        return;
      AsmState asmState(fn);
      BufferAliasAnalysis &aliases = accesses.getAliases(fn);
      os << "function @" << SymbolTable::getSymbolName(fn).getValue()
         << " streams";
      test::printValues(streams, os, asmState);
      os << "\n";
      DataFlowSolver solver(DataFlowConfig().setInterprocedural(false));
      dataflow::loadBaselineAnalyses(solver);
      solver.load<PendingGpuWorkAnalysis>(accesses, fn, streams, *parsed);
      if (failed(solver.initializeAndRun(fn))) {
        fn.emitError() << "the analysis did not converge";
        return signalPassFailure();
      }
      walkHostCode(fn.getFunctionBody(), [&](Operation *op) {
        StringRef tag = test::getTag(op);
        if (tag.empty())
          return;
        os << "  " << tag << ": ";
        const auto *lattice = solver.lookupState<PendingGpuWork>(
            solver.getProgramPointBefore(op));
        if (!lattice) {
          os << "dead\n";
          return;
        }
        const PendingState &state = lattice->getState();
        printPendingState(state, os, aliases, asmState);
        OpAccesses opAccesses = accesses.getAccesses(op, fn);
        if (*parsed == Mode::HostSyncs) {
          os << " sync";
          test::printValues(
              getStreamsToSync(state, opAccesses, aliases, streams), os,
              asmState);
        } else if (*parsed == Mode::SlotOrdering) {
          os << " waits";
          for (auto [waiting, waitedOn] :
               getSlotWaits(state, opAccesses, aliases, streams)) {
            os << " ";
            waiting.printAsOperand(os, asmState);
            os << "<-";
            waitedOn.printAsOperand(os, asmState);
          }
          if (op->hasTrait<OpTrait::ReturnLike>()) {
            os << " join";
            test::printValues(getJoinWaits(state, streams.front(), streams),
                              os, asmState);
          }
        }
        os << "\n";
      });
      if (*parsed == Mode::ExitState) {
        os << "  idle at exit:";
        test::printValues(getStreamsIdleAtExit(accesses, fn), os, asmState);
        os << "\n";
      }
    });
  }
};
} // namespace

void test::registerTestPendingGpuWorkPass() {
  PassRegistration<TestPendingGpuWorkPass>();
}
