//===- ExpandLibraryNodes.cpp - Library nodes to nested programs ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"
#include "SDFGStream/Analysis/StreamQueries.h"
#include "SDFGStream/Transforms/StreamThreading.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_EXPANDLIBRARYNODES
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct ExpandLibraryNodes
    : public sdfg::impl::ExpandLibraryNodesBase<ExpandLibraryNodes> {
  using ExpandLibraryNodesBase::ExpandLibraryNodesBase;
  void runOnOperation() override;

private:
  /// Returns the nested program implementing `node`, built on first use.
  FailureOr<FunctionOpInterface>
  getImplementation(LibraryNodeOpInterface node, SDFGOp caller,
                    SymbolTableCollection &symbolTables);
};
} // namespace

FailureOr<FunctionOpInterface>
ExpandLibraryNodes::getImplementation(LibraryNodeOpInterface node,
                                      SDFGOp caller,
                                      SymbolTableCollection &symbolTables) {
  Value stream = node.getNodeStream();
  SmallVector<Type> argTypes;
  for (Value operand : node.getDataOperands())
    argTypes.push_back(operand.getType());
  if (stream)
    argTypes.push_back(stream.getType());

  // Reuse an implementation with the same name and signature; a different
  // signature under that name gets a fresh name.
  Operation *symbolTableOp = SymbolTable::getNearestSymbolTable(caller);
  SymbolTable &symbolTable = symbolTables.getSymbolTable(symbolTableOp);
  std::string baseName = node.getImplementationName(caller.getTarget());
  std::string name = baseName;
  for (unsigned suffix = 1;; ++suffix) {
    Operation *existing = symbolTable.lookup(name);
    if (!existing)
      break;
    auto program = dyn_cast<SDFGOp>(existing);
    if (program && program.getArgumentTypes() == ArrayRef<Type>(argTypes))
      return cast<FunctionOpInterface>(existing);
    name = baseName + "_" + std::to_string(suffix);
  }

  OpBuilder builder(caller);
  FailureOr<FunctionOpInterface> implementation =
      node.buildImplementation(builder, caller.getTarget(), name);
  if (failed(implementation))
    return failure();
  symbolTable.insert(*implementation);
  // The gpu.module of the kernels (if any) was created next to it.
  symbolTables.invalidateSymbolTable(symbolTableOp);

  // Late expansion: the node already runs on the caller's stream, so its
  // implementation takes the stream, under the caller's name for it.
  if (stream) {
    StringRef argumentName = SDFGDialect::getDefaultExternalStreamName();
    if (std::optional<unsigned> index = getExternalStreamArgIndex(caller))
      if (auto attr = caller.getArgAttrOfType<StringAttr>(
              *index, SDFGDialect::getExternalStreamAttrName()))
        argumentName = attr.getValue();
    if (failed(addExternalStreamArgument(*implementation, argumentName)) ||
        failed(moveGpuWorkOntoStreams(*implementation, symbolTables)))
      return failure();
  }
  return implementation;
}

void ExpandLibraryNodes::runOnOperation() {
  SmallVector<LibraryNodeOpInterface> nodes;
  getOperation()->walk([&](LibraryNodeOpInterface node) {
    nodes.push_back(node);
  });

  SymbolTableCollection symbolTables;
  for (LibraryNodeOpInterface node : nodes) {
    auto caller = node->getParentOfType<SDFGOp>();
    if (!caller) {
      node->emitOpError() << "must be inside an sdfg.sdfg program to be "
                             "expanded";
      return signalPassFailure();
    }
    FailureOr<FunctionOpInterface> implementation =
        getImplementation(node, caller, symbolTables);
    if (failed(implementation))
      return signalPassFailure();

    SmallVector<Value> operands = node.getDataOperands();
    if (Value stream = node.getNodeStream())
      operands.push_back(stream);
    OpBuilder builder(node);
    CallOp::create(builder, node->getLoc(),
                   cast<SymbolOpInterface>(implementation->getOperation())
                       .getName(),
                   operands);
    node->erase();
  }
}
