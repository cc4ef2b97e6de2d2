//===- FailureModel.h - Which operations can fail a call --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What sdfg-insert-failure-exits asks before it places an exit: which
// functions of a module and which of their operations can fail the current
// program call (a runtime entry that RuntimeEntries.def marks as failing, a
// gpu or sdfg op the runtime runs, a call of a function that can), and
// which the runtime skips once the call failed. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_TRANSFORMS_FAILUREMODEL_H
#define SDFGSTREAM_LIB_TRANSFORMS_FAILUREMODEL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace sdfg {

/// Which functions of a module can fail a program call, and which of their
/// operations can.
class FailureModel {
public:
  explicit FailureModel(ModuleOp module);

  /// Whether `op` (host code) can fail the current program call.
  bool mayFail(Operation *op) const;
  /// Whether `op` or an op nested in it can fail the call.
  bool mayFailWithin(Operation *op) const;
  /// Whether `op` is GPU work that the runtime skips once the call failed
  /// (a gpu or sdfg op, a call of a runtime entry that can fail): a run of
  /// such ops needs one check, before the host code after it.
  static bool isSkippedAfterFailure(Operation *op);
  bool mayFail(func::FuncOp function) const {
    return failing.contains(function);
  }

private:
  /// Whether a call of `callee` (a symbol of the module) can fail.
  bool calleeMayFail(SymbolRefAttr callee) const;
  /// Whether `op`, not a call of a module function, can fail.
  static bool mayFailItself(Operation *op);

  SymbolTable symbols;
  llvm::SmallPtrSet<Operation *, 16> failing;
};

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_TRANSFORMS_FAILUREMODEL_H
