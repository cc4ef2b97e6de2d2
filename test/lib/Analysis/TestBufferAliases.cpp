//===- TestBufferAliases.cpp - Print BufferAliasAnalysis's answers --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// test-sdfg-buffer-aliases: for each host function, the roots of every
// tagged value (an op's first result tagged `test.tag`, a function argument
// with a `test.tag` attribute), whether its memory is GPU-only, the
// buffers an integer carries the address of, every pair that may alias,
// and the roots whose address escapes.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysisPasses.h"

#include "SDFGStream/Analysis/BufferAliasAnalysis.h"
#include "SDFGStream/Analysis/HostGpuAccesses.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::sdfg;

static void printRoots(ArrayRef<unsigned> roots,
                       const BufferAliasAnalysis &aliases, raw_ostream &os,
                       AsmState &asmState) {
  os << "{";
  llvm::interleave(
      roots, os, [&](unsigned root) { aliases.printRoot(root, os, asmState); },
      ", ");
  os << "}";
}

namespace {
struct TestBufferAliasesPass
    : PassWrapper<TestBufferAliasesPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBufferAliasesPass)
  StringRef getArgument() const final { return "test-sdfg-buffer-aliases"; }
  StringRef getDescription() const final {
    return "Print the roots of tagged values and which of them may alias";
  }

  void runOnOperation() override {
    raw_ostream &os = llvm::errs();
    test::forEachHostFunction(getOperation(), [&](FunctionOpInterface fn) {
      BufferAliasAnalysis aliases(fn);
      AsmState asmState(fn);
      os << "function @" << SymbolTable::getSymbolName(fn).getValue() << "\n";
      SmallVector<std::pair<StringRef, Value>> tagged;
      for (BlockArgument argument : fn.getArguments())
        if (auto tag = fn.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                       "test.tag"))
          tagged.push_back({tag.getValue(), argument});
      walkHostCode(fn.getFunctionBody(), [&](Operation *op) {
        StringRef tag = test::getTag(op);
        if (!tag.empty() && op->getNumResults() > 0)
          tagged.push_back({tag, op->getResult(0)});
      });
      for (auto [tag, value] : tagged) {
        os << "  " << tag << ": ";
        if (isBufferType(value.getType())) {
          os << "roots ";
          printRoots(aliases.getRoots(value), aliases, os, asmState);
          if (aliases.isDeviceOnly(value))
            os << " device-only";
        } else {
          os << "address of ";
          printRoots(aliases.getAddressRoots(value), aliases, os, asmState);
        }
        os << "\n";
      }
      for (size_t i = 0; i < tagged.size(); ++i) {
        if (!isBufferType(tagged[i].second.getType()))
          continue;
        for (size_t j = i + 1; j < tagged.size(); ++j) {
          if (!isBufferType(tagged[j].second.getType()))
            continue;
          bool may = aliases.mayAlias(aliases.getRoots(tagged[i].second),
                                      aliases.getRoots(tagged[j].second));
          os << "  " << tagged[i].first << " <-> " << tagged[j].first << ": "
             << (may ? "MayAlias" : "NoAlias") << "\n";
        }
      }
      os << "  escaped: ";
      printRoots(aliases.getEscapedRoots(), aliases, os, asmState);
      os << "\n";
    });
  }
};
} // namespace

void test::registerTestBufferAliasesPass() {
  PassRegistration<TestBufferAliasesPass>();
}
