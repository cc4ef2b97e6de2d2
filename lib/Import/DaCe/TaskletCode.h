//===- TaskletCode.h - The statements of a Python tasklet -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A Python tasklet's code, emitted with the meaning DaCe gives it: DaCe
// compiles tasklet code as C++ (dace/codegen/cppunparse.py), so a local
// takes the type of its first assignment (`auto x = ...`) and keeps it,
// an assignment to a connector converts to the connector's type, and a
// name first assigned inside a block is local to that block. Simple
// statements in TaskletCode.cpp, compound ones in TaskletBlocks.cpp.
// Private to lib/Import/DaCe; the emitters call emitTaskletCode
// (ProgramEmitter.h).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_TASKLETCODE_H
#define SDFGSTREAM_LIB_IMPORT_DACE_TASKLETCODE_H

#include "ProgramEmitter.h"

namespace mlir {
namespace sdfg {
namespace dace {

class TaskletCode {
public:
  TaskletCode(ProgramEmitter &e, const State &state, const Node &tasklet,
              bool kernel, ProgramEmitter::Scope &scope,
              const llvm::StringMap<Type> &outputTypes,
              llvm::StringSet<> &assigned)
      : e(e), b(e.builder), state(state), tasklet(tasklet), kernel(kernel),
        scope(scope), outputTypes(outputTypes), assigned(assigned),
        path(tasklet.code.path), location(e.loc(tasklet.code.path)) {}

  LogicalResult emit(ArrayRef<PyStatement> statements);

private:
  LogicalResult emitSimple(const PyStatement &statement);
  LogicalResult emitStore(const PyExpr &target, CValue value);
  LogicalResult emitFor(const PyStatement &statement);
  LogicalResult emitWhile(const PyStatement &statement);
  LogicalResult emitIf(const PyStatement &statement);
  /// The i1 of a `while` or `if` condition, with an error where it is no
  /// number.
  FailureOr<Value> emitCondition(const PyExpr &condition);

  /// The names a block assigns that live on after it (defined before it,
  /// or output connectors, which are declared before the code), defining
  /// the outputs that have no value yet.
  SmallVector<std::string> carriedNames(ArrayRef<PyStatement> body,
                                        ArrayRef<PyStatement> orelse = {});
  /// Emits `statements` as a nested block and returns the values of
  /// `carried` at its end (converted to their types before the block); the
  /// names the block defines go out of scope with it.
  FailureOr<SmallVector<Value>> emitBlock(ArrayRef<PyStatement> statements,
                                          ArrayRef<std::string> carried);
  /// Binds `carried` to `values` (types as before the block).
  void bind(ArrayRef<std::string> carried, ValueRange values);
  /// Appends the current values of `carried` and their types.
  void appendCarried(ArrayRef<std::string> carried,
                     SmallVectorImpl<Value> &values,
                     SmallVectorImpl<Type> &types);

  ProgramEmitter &e;
  OpBuilder &b;
  const State &state;
  const Node &tasklet;
  bool kernel;
  ProgramEmitter::Scope &scope;
  const llvm::StringMap<Type> &outputTypes;
  llvm::StringSet<> &assigned;
  llvm::StringRef path;
  Location location;
};
} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_TASKLETCODE_H
