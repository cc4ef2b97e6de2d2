//===- GraphModeChecks.cpp - What graph mode needs of a program -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// GraphModeChecks.h: the graph flushes before calls that leave the runtime,
// and whether a program's GPU allocations escape its call.
//
//===----------------------------------------------------------------------===//

#include "GraphModeChecks.h"

#include "SDFGStream/Analysis/BufferAliasAnalysis.h"
#include "SDFGStream/Conversion/RuntimeEntries.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::sdfg;

LogicalResult mlir::sdfg::insertGraphFlushes(ModuleOp module) {
  SymbolTableCollection symbolTables;
  SmallVector<Operation *> calls;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp, gpu::LaunchOp>(op))
      return WalkResult::skip(); // Device code.
    auto call = dyn_cast<CallOpInterface>(op);
    if (!call)
      return WalkResult::advance();
    Operation *callee = call.resolveCallableInTable(&symbolTables);
    auto function = dyn_cast_or_null<FunctionOpInterface>(callee);
    if (function && !function.isExternal())
      return WalkResult::advance();
    if (function && lookupRuntimeEntry(function.getName()))
      return WalkResult::advance();
    calls.push_back(op);
    return WalkResult::advance();
  });
  if (calls.empty())
    return success();
  if (failed(lookupOrDeclareRuntimeEntryFunc(
          module, calls.front()->getLoc(), RuntimeEntry::sdfgrtFlushGraphWork)))
    return failure();
  for (Operation *call : calls) {
    OpBuilder builder(call);
    createRuntimeEntryFuncCall(builder, call->getLoc(),
                               RuntimeEntry::sdfgrtFlushGraphWork);
  }
  return success();
}

/// allocationsEscape, each function visited once.
static bool allocationsEscapeFrom(FunctionOpInterface function,
                                  SymbolTableCollection &symbolTables,
                                  DenseSet<Operation *> &visited) {
  if (!visited.insert(function).second || function.isExternal())
    return false;
  BufferAliasAnalysis aliases(function);
  const BufferAliasAnalysis::RootSet &escaped = aliases.getEscapedRoots();
  bool escapes = false;
  function.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      for (unsigned root : aliases.getRoots(alloc.getMemref()))
        escapes |= llvm::is_contained(escaped, root);
    } else if (auto call = dyn_cast<CallOpInterface>(op)) {
      if (auto callee = dyn_cast_or_null<FunctionOpInterface>(
              call.resolveCallableInTable(&symbolTables)))
        escapes |= allocationsEscapeFrom(callee, symbolTables, visited);
    }
    return escapes ? WalkResult::interrupt() : WalkResult::advance();
  });
  return escapes;
}

bool mlir::sdfg::allocationsEscape(FunctionOpInterface function) {
  SymbolTableCollection symbolTables;
  DenseSet<Operation *> visited;
  return allocationsEscapeFrom(function, symbolTables, visited);
}
