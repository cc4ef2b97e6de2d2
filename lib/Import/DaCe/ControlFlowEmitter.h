//===- ControlFlowEmitter.h - The emitter of a program's control flow -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the files that emit a program share (private to lib/Import/DaCe):
// ControlFlowEmitter.cpp (the SDFG's control flow as blocks) and
// ProgramEmitter.cpp (the program op, its arguments, entry and exit).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_CONTROLFLOWEMITTER_H
#define SDFGSTREAM_LIB_IMPORT_DACE_CONTROLFLOWEMITTER_H

#include "ProgramEmitter.h"

namespace mlir {
namespace sdfg {
namespace dace {

/// Builds the control flow of one program.
class ControlFlowEmitter {
public:
  explicit ControlFlowEmitter(ProgramEmitter &e) : e(e), b(e.builder) {}

  SDFGOp emit();
  /// Emits the SDFG's control flow at the builder's position, once its
  /// arguments are bound: the symbols it assigns, its transients, its
  /// blocks, and a last block that frees the transients and is ended by
  /// `terminate`.
  LogicalResult emitBody(llvm::function_ref<void(Location)> terminate);

private:
  struct LoopTargets {
    mlir::Block *breakTarget = nullptr;
    mlir::Block *continueTarget = nullptr;
  };

  /// A new block with one argument per assigned symbol.
  mlir::Block *newBlock();
  /// Binds the symbols to the arguments of `block` and moves the builder
  /// to its end.
  void enter(mlir::Block *block);
  /// Branches to `target` passing the current symbol values.
  void branchTo(mlir::Block *target, Location location);
  /// Emits `region`; control leaves it into `exit`.
  LogicalResult emitRegion(const ControlFlowRegion &region, mlir::Block *exit,
                           const LoopTargets &loop);
  LogicalResult emitLoop(const ControlFlowBlock &loop, mlir::Block *exit,
                         const LoopTargets &outer);
  LogicalResult emitConditional(const ControlFlowBlock &conditional, mlir::Block *exit,
                                const LoopTargets &loop);
  /// Runs `x = e` statements of a loop's init or update (symbols only).
  LogicalResult assign(const std::vector<PyStatement> &statements,
                       llvm::StringRef path);
  LogicalResult assignSymbol(const std::string &name, const PyExpr &value,
                             llvm::StringRef path);
  /// Collects the symbols the SDFG assigns, in name order.
  void collectAssigned(const ControlFlowRegion &region);
  LogicalResult setUpArguments(SDFGOp program,
                               const std::vector<Argument> &arguments);

  ProgramEmitter &e;
  OpBuilder &b;
  /// Assigned symbols and their types, in block argument order.
  std::vector<std::pair<std::string, Type>> assigned;
  mlir::Block *returnBlock = nullptr;
  /// Transients allocated for the whole call, freed in `returnBlock`.
  SmallVector<std::pair<Value, bool>> programTransients;
};

/// The type a symbol has inside the program: integers as `index`.
inline Type symbolValueType(Type declared) {
  if (isa<IntegerType>(declared) && !declared.isInteger(1))
    return IndexType::get(declared.getContext());
  return signlessType(declared);
}

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_CONTROLFLOWEMITTER_H
