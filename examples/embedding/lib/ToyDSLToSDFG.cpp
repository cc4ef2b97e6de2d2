//===- ToyDSLToSDFG.cpp - The DSL's GPU procedures as SDFG programs -------===//
//
// Part of the toy-dsl example of embedding SDFGStream.
//
//===----------------------------------------------------------------------===//
//
// Builds `sdfg.sdfg` programs with the sdfg dialect's C++ API, from the
// headers (and generated .inc files) that SDFGStream installs.
//
//===----------------------------------------------------------------------===//

#include "ToyDSL/Passes.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace toy_dsl {
#define GEN_PASS_DEF_TOYDSLTOSDFG
#include "ToyDSL/Passes.h.inc"
} // namespace toy_dsl
} // namespace mlir

using namespace mlir;

/// The front end's mark of a GPU procedure: its number of work queues.
static constexpr llvm::StringLiteral kStreamsAttrName = "toy_dsl.streams";

static LogicalResult convertToProgram(func::FuncOp func) {
  auto streams = func->getAttrOfType<IntegerAttr>(kStreamsAttrName);
  if (!streams || streams.getInt() < 0)
    return func.emitError()
           << "'" << kStreamsAttrName << "' must be a non-negative integer";
  if (func.isExternal())
    return func.emitError() << "a GPU procedure needs a body";
  if (func.getNumResults() != 0)
    return func.emitError() << "a GPU procedure returns nothing: it writes "
                               "its results into its array arguments";
  if (!SymbolTable::symbolKnownUseEmpty(func, func->getParentOp()))
    return func.emitError() << "a GPU procedure is an entry point and "
                               "cannot be called from DSL code";

  OpBuilder builder(func);
  auto program = sdfg::SDFGOp::create(
      builder, func.getLoc(), func.getSymName(), func.getFunctionType(),
      sdfg::ProgramTarget::GPU, streams.getInt());
  program.setSymVisibilityAttr(func.getSymVisibilityAttr());
  program.setArgAttrsAttr(func.getArgAttrsAttr());
  for (NamedAttribute attr : func->getDiscardableAttrs())
    if (attr.getName() != kStreamsAttrName)
      program->setAttr(attr.getName(), attr.getValue());

  program.getBody().takeBody(func.getBody());
  for (auto ret :
       llvm::make_early_inc_range(program.getBody().getOps<func::ReturnOp>())) {
    builder.setInsertionPoint(ret);
    sdfg::ReturnOp::create(builder, ret.getLoc());
    ret.erase();
  }
  func.erase();
  return success();
}

namespace {
struct ToyDSLToSDFG : public toy_dsl::impl::ToyDSLToSDFGBase<ToyDSLToSDFG> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> procedures;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func->hasAttr(kStreamsAttrName))
        procedures.push_back(func);
    for (func::FuncOp func : procedures)
      if (failed(convertToProgram(func)))
        return signalPassFailure();
  }
};
} // namespace
