//===- FailureModel.cpp - Which operations can fail a program call --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See FailureModel.h. What can fail is read from the runtime's one list of
// entry points (RuntimeEntries.def, through Conversion/RuntimeEntries.h) and
// the module's call graph.
//
//===----------------------------------------------------------------------===//

#include "FailureModel.h"

#include "SDFGStream/Conversion/RuntimeEntries.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::sdfg;

/// Whether the runtime entry `name` can fail a program call; nullopt if
/// `name` is not a runtime entry.
static std::optional<bool> entryMayFail(StringRef name) {
  if (std::optional<RuntimeEntry> entry = lookupRuntimeEntry(name))
    return runtimeEntryMayFail(*entry);
  return std::nullopt;
}

FailureModel::FailureModel(ModuleOp module) : symbols(module) {
  // Programs and functions that take a stream fail by themselves; the rest
  // fail through what they do, solved to a fixpoint over the calls.
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  for (func::FuncOp function : functions) {
    bool takesStream = llvm::any_of(function.getArgumentTypes(),
                                    [](Type t) { return isa<StreamType>(t); });
    if (SDFGDialect::ProgramAttrHelper(function->getContext())
            .isAttrPresent(function) ||
        takesStream)
      failing.insert(function);
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (func::FuncOp function : functions) {
      if (function.isExternal() || failing.contains(function))
        continue;
      WalkResult found = function.walk([&](Operation *op) {
        return mayFail(op) ? WalkResult::interrupt() : WalkResult::advance();
      });
      if (found.wasInterrupted()) {
        failing.insert(function);
        changed = true;
      }
    }
  }
}

bool FailureModel::calleeMayFail(SymbolRefAttr callee) const {
  StringRef name = callee.getLeafReference().getValue();
  if (std::optional<bool> entry = entryMayFail(name))
    return *entry;
  Operation *function = symbols.lookup(name);
  return function && failing.contains(function);
}

bool FailureModel::mayFailItself(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (isa_and_nonnull<gpu::GPUDialect>(dialect))
    return true;
  // Concurrent slots are forked from the caller's stream by the runtime.
  if (auto init = dyn_cast<InitStreamsOp>(op))
    return init.getConcurrent();
  if (isa_and_nonnull<SDFGDialect>(dialect))
    return !isMemoryEffectFree(op);
  return false;
}

bool FailureModel::isSkippedAfterFailure(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (mayFailItself(op))
    return true;
  SymbolRefAttr callee;
  if (auto call = dyn_cast<func::CallOp>(op))
    callee = call.getCalleeAttr();
  else if (auto call = dyn_cast<LLVM::CallOp>(op))
    callee = call.getCalleeAttr();
  if (!callee)
    return false;
  std::optional<bool> entry =
      entryMayFail(callee.getLeafReference().getValue());
  return entry && *entry;
}

bool FailureModel::mayFailWithin(Operation *op) const {
  if (mayFail(op))
    return true;
  if (op->getNumRegions() == 0)
    return false;
  return op
      ->walk([&](Operation *nested) {
        return nested != op && mayFail(nested) ? WalkResult::interrupt()
                                               : WalkResult::advance();
      })
      .wasInterrupted();
}

bool FailureModel::mayFail(Operation *op) const {
  if (auto call = dyn_cast<func::CallOp>(op))
    return calleeMayFail(call.getCalleeAttr());
  if (isa<func::CallIndirectOp>(op))
    return true;
  if (auto call = dyn_cast<LLVM::CallOp>(op)) {
    if (FlatSymbolRefAttr callee = call.getCalleeAttr())
      return calleeMayFail(callee);
    return true;
  }
  return mayFailItself(op);
}

