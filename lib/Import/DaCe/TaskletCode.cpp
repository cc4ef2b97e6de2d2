//===- TaskletCode.cpp - The statements of a Python tasklet ---------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A Python tasklet's code, emitted with the meaning DaCe gives it: DaCe
// compiles tasklet code as C++ (dace/codegen/cppunparse.py), so a local
// takes the type of its first assignment (`auto x = ...`) and keeps it,
// an assignment to a connector converts to the connector's type, and a
// name first assigned inside a block is local to that block.
//
// This file: the simple statements (assignments, stores to connectors and
// arrays); the compound ones are in TaskletBlocks.cpp.
//
//===----------------------------------------------------------------------===//

#include "TaskletCode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

LogicalResult TaskletCode::emit(ArrayRef<PyStatement> statements) {
  for (const PyStatement &statement : statements) {
    LogicalResult result = success();
    switch (statement.kind) {
    case PyStatement::Kind::Pass:
      break;
    case PyStatement::Kind::Simple:
      result = emitSimple(statement);
      break;
    case PyStatement::Kind::For:
      result = emitFor(statement);
      break;
    case PyStatement::Kind::While:
      result = emitWhile(statement);
      break;
    case PyStatement::Kind::If:
      result = emitIf(statement);
      break;
    }
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult TaskletCode::emitSimple(const PyStatement &statement) {
  if (!statement.target)
    return success(static_cast<bool>(
        e.emitExpression(*statement.value, path, &scope)));
  const PyExpr &target = *statement.target;
  CValue value = e.emitExpression(*statement.value, path, &scope);
  if (!value)
    return failure();
  if (statement.augmentedOp != PyExpr::Op::None) {
    // x op= v is x = x op v.
    if (target.kind != PyExpr::Kind::Name) {
      e.error(path) << "augmented assignment to '" << target.str()
                    << "' is not supported";
      return failure();
    }
    PyExpr combined{PyExpr::Kind::Binary};
    combined.op = statement.augmentedOp;
    for (const char *name : {"__sdfg_lhs", "__sdfg_rhs"}) {
      combined.operands.push_back(std::make_unique<PyExpr>());
      combined.operands.back()->kind = PyExpr::Kind::Name;
      combined.operands.back()->name = name;
    }
    CValue current = e.emitExpression(target, path, &scope);
    if (!current)
      return failure();
    ProgramEmitter::Scope operands;
    operands.values["__sdfg_lhs"] = current;
    operands.values["__sdfg_rhs"] = value;
    value = e.emitExpression(combined, path, &operands);
    if (!value)
      return failure();
  }
  if (target.kind == PyExpr::Kind::Name) {
    // An existing local or connector keeps its type; a new local takes the
    // value's (C++ `auto`).
    auto existing = scope.values.find(target.name);
    if (existing != scope.values.end()) {
      value = e.convert(value, existing->second.getType(),
                        existing->second.isUnsigned, location);
    } else if (auto output = outputTypes.find(target.name);
               output != outputTypes.end()) {
      value = e.convert(value, signlessType(output->second),
                        output->second.isUnsignedInteger(), location);
    }
    scope.values[target.name] = value;
    assigned.insert(target.name);
    return success();
  }
  if (target.kind == PyExpr::Kind::Subscript &&
      target.operands[0]->kind == PyExpr::Kind::Name)
    return emitStore(target, value);
  e.error(path) << "assignment to '" << target.str() << "' is not supported";
  return failure();
}

LogicalResult TaskletCode::emitStore(const PyExpr &target, CValue value) {
  const std::string &name = target.operands[0]->name;
  auto array = scope.arrays.find(name);
  if (array == scope.arrays.end()) {
    e.error(path) << "tasklet '" << tasklet.label << "' writes '" << name
                  << "', which is not an array connector";
    return failure();
  }
  SmallVector<Value> indices(array->second.base.begin(),
                             array->second.base.end());
  size_t count = target.operands.size() - 1;
  if (count != array->second.freeDims.size() && count != indices.size()) {
    e.error(path) << "'" << target.str() << "' has the wrong number of indices";
    return failure();
  }
  for (size_t i = 0; i < count; ++i) {
    CValue index = e.emitExpression(*target.operands[i + 1], path, &scope);
    if (!index)
      return failure();
    Value offset = e.convert(index, b.getIndexType(), false, location).value;
    unsigned dim = count == indices.size() ? i : array->second.freeDims[i];
    indices[dim] = b.createOrFold<arith::AddIOp>(location, indices[dim], offset);
  }
  const Memlet *memlet = nullptr;
  for (const StateEdge &edge : state.edges)
    if (edge.src == tasklet.id && edge.srcConnector == name)
      memlet = &edge.memlet;
  if (!memlet) {
    e.error(path) << "'" << name << "' is not an output of tasklet '"
                  << tasklet.label << "'";
    return failure();
  }
  Container container{array->second.desc, array->second.memref};
  return storeElement(e, container, indices, value, *memlet, kernel, location);
}

LogicalResult mlir::sdfg::dace::emitTaskletCode(
    ProgramEmitter &e, const State &state, const Node &tasklet, bool inKernel,
    ProgramEmitter::Scope &scope, const llvm::StringMap<Type> &outputTypes,
    llvm::StringSet<> &assigned) {
  TaskletCode code(e, state, tasklet, inKernel, scope, outputTypes, assigned);
  return code.emit(tasklet.statements);
}
