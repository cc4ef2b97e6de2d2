//===- TestTokenChains.cpp - Print the token-chains solution --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// test-sdfg-token-chains{interprocedural=true|false}: solves TokenChains
// over the whole module and prints, for each tagged op, the chains of each
// of its token results (as the module's IR names them; a chain of another
// function prefixed with its symbol) and, for a GPU op or a call, the
// stream it runs on and the chains it waits for; and for each token
// argument of a function's entry block, its chains.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysisPasses.h"

#include "SDFGStream/Analysis/HostGpuAccesses.h"
#include "SDFGStream/Analysis/TokenChains.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct TestTokenChainsPass
    : PassWrapper<TestTokenChainsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTokenChainsPass)
  TestTokenChainsPass() = default;
  TestTokenChainsPass(const TestTokenChainsPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-sdfg-token-chains"; }
  StringRef getDescription() const final {
    return "Print the chains each token of a tagged op stands for, and "
           "where the op runs";
  }

  Option<bool> interprocedural{
      *this, "interprocedural",
      llvm::cl::desc("Enter visible callees (a token argument carries its "
                     "callers' chains in)"),
      llvm::cl::init(true)};

  void runOnOperation() override {
    raw_ostream &os = llvm::errs();
    SymbolTableCollection symbolTables;
    DataFlowSolver solver(
        DataFlowConfig().setInterprocedural(interprocedural));
    dataflow::loadBaselineAnalyses(solver);
    solver.load<TokenChainsAnalysis>(symbolTables);
    if (failed(solver.initializeAndRun(getOperation()))) {
      getOperation()->emitError() << "the analysis did not converge";
      return signalPassFailure();
    }
    AsmState asmState(getOperation());
    auto chainsOf = [&](Value value) {
      return solver.lookupState<TokenChains>(value);
    };
    auto printChain = [&](Value chain, Operation *user) {
      Operation *parent = chain.getParentRegion()->getParentOp();
      auto owner = dyn_cast<FunctionOpInterface>(parent);
      if (!owner)
        owner = parent->getParentOfType<FunctionOpInterface>();
      if (owner && !owner->isAncestor(user))
        os << "@" << SymbolTable::getSymbolName(owner).getValue() << "::";
      chain.printAsOperand(os, asmState);
    };
    auto printLattice = [&](Value value, Operation *user) {
      const TokenChains *lattice = chainsOf(value);
      if (!lattice || !lattice->isKnown()) {
        os << " <unknown>";
        return;
      }
      os << " {";
      llvm::interleaveComma(lattice->getChains(), os,
                            [&](Value chain) { printChain(chain, user); });
      os << "}";
    };
    auto printStreams = [&](const OpStreams &streams, Operation *op) {
      if (!streams.stream)
        return;
      os << " on ";
      streams.stream.printAsOperand(os, asmState);
      os << " waits";
      for (Value chain : streams.getWaitedOn()) {
        os << " ";
        printChain(chain, op);
      }
    };
    test::forEachHostFunction(getOperation(), [&](FunctionOpInterface fn) {
      os << "function @" << SymbolTable::getSymbolName(fn).getValue() << "\n";
      for (BlockArgument argument : fn.getArguments())
        if (isTokenLike(argument.getType())) {
          os << "  ";
          argument.printAsOperand(os, asmState);
          os << ":";
          printLattice(argument, fn);
          os << "\n";
        }
      walkHostCode(fn.getFunctionBody(), [&](Operation *op) {
        StringRef tag = test::getTag(op);
        if (tag.empty())
          return;
        os << "  " << tag << ":";
        for (Value result : op->getResults())
          if (isTokenLike(result.getType()))
            printLattice(result, op);
        if (auto call = dyn_cast<CallOpInterface>(op))
          printStreams(getCallStreams(call, chainsOf, symbolTables), op);
        else if (auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op))
          printStreams(getOpStreams(asyncOp, chainsOf), op);
        os << "\n";
      });
    });
  }
};
} // namespace

void test::registerTestTokenChainsPass() {
  PassRegistration<TestTokenChainsPass>();
}
