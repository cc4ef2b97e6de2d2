//===- TestAnalysisPasses.cpp - What the analysis test passes share -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysisPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::sdfg;

StringRef test::getTag(Operation *op) {
  if (auto tag = op->getAttrOfType<StringAttr>("test.tag"))
    return tag.getValue();
  return {};
}

void test::forEachHostFunction(Operation *root,
                               function_ref<void(FunctionOpInterface)> fn) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      if (!function.isExternal())
        fn(function);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
}

void test::printValues(ArrayRef<Value> values, raw_ostream &os,
                       AsmState &asmState) {
  for (Value value : values) {
    os << " ";
    value.printAsOperand(os, asmState);
  }
}
