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
// Compound statements become structured control flow, with the locals a
// block reassigns carried through it: `for k in range(a, b, s)` and `while`
// as scf.while (the loop variable an `int`, as DaCe's runtime `range`
// iterates; the trip follows Python's range, also where DaCe's `!=`-based
// iterator would not stop), `if`/`elif`/`else` as scf.if. A single-element
// output connector assigned inside a block starts as zero (C++ leaves it
// uninitialized).
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

namespace {
using Scope = ProgramEmitter::Scope;

/// Names a statement list assigns (Name targets), blocks included, in
/// order of first assignment.
void assignedNames(ArrayRef<PyStatement> statements,
                   SmallVectorImpl<std::string> &names,
                   llvm::StringSet<> &seen) {
  forEachStatement(statements, [&](const PyStatement &statement) {
    if (statement.kind == PyStatement::Kind::Simple && statement.target &&
        statement.target->kind == PyExpr::Kind::Name &&
        seen.insert(statement.target->name).second)
      names.push_back(statement.target->name);
  });
}

class TaskletCode {
public:
  TaskletCode(ProgramEmitter &e, const State &state, const Node &tasklet,
              bool kernel, Scope &scope,
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
  Scope &scope;
  const llvm::StringMap<Type> &outputTypes;
  llvm::StringSet<> &assigned;
  llvm::StringRef path;
  Location location;
};
} // namespace

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
    Scope operands;
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

SmallVector<std::string>
TaskletCode::carriedNames(ArrayRef<PyStatement> body,
                          ArrayRef<PyStatement> orelse) {
  SmallVector<std::string> names;
  llvm::StringSet<> seen;
  assignedNames(body, names, seen);
  assignedNames(orelse, names, seen);
  SmallVector<std::string> carried;
  for (const std::string &name : names) {
    if (!scope.values.count(name)) {
      auto output = outputTypes.find(name);
      if (output == outputTypes.end())
        continue;
      Type type = signlessType(output->second);
      scope.values[name] =
          CValue{arith::ConstantOp::create(b, location, type,
                                           b.getZeroAttr(type)),
                 output->second.isUnsignedInteger()};
    }
    carried.push_back(name);
  }
  return carried;
}

void TaskletCode::appendCarried(ArrayRef<std::string> carried,
                                SmallVectorImpl<Value> &values,
                                SmallVectorImpl<Type> &types) {
  for (const std::string &name : carried) {
    values.push_back(scope.values[name].value);
    types.push_back(scope.values[name].getType());
  }
}

void TaskletCode::bind(ArrayRef<std::string> carried, ValueRange values) {
  for (auto [name, value] : llvm::zip_equal(carried, values))
    scope.values[name].value = value;
}

FailureOr<SmallVector<Value>>
TaskletCode::emitBlock(ArrayRef<PyStatement> statements,
                       ArrayRef<std::string> carried) {
  llvm::StringMap<CValue> outer = scope.values;
  if (failed(emit(statements)))
    return failure();
  SmallVector<Value> results;
  for (const std::string &name : carried) {
    const CValue &before = outer[name];
    results.push_back(e.convert(scope.values[name], before.getType(),
                                before.isUnsigned, location)
                          .value);
  }
  scope.values = std::move(outer);
  return results;
}

LogicalResult TaskletCode::emitFor(const PyStatement &statement) {
  const PyExpr &range = *statement.value;
  if (range.kind != PyExpr::Kind::Call ||
      range.operands[0]->kind != PyExpr::Kind::Name ||
      range.operands[0]->name != "range" || range.operands.size() < 2 ||
      range.operands.size() > 4 || !range.keywords.empty()) {
    e.error(path) << "tasklet '" << tasklet.label << "': 'for' over '"
                  << range.str()
                  << "' is not supported (range(stop), range(start, stop) "
                     "and range(start, stop, step) are)";
    return failure();
  }
  // DaCe's runtime range (dace/runtime/include/dace/pyinterop.h) takes and
  // yields int.
  Type i32 = b.getI32Type();
  SmallVector<Value> bounds;
  for (size_t i = 1; i < range.operands.size(); ++i) {
    CValue bound = e.emitExpression(*range.operands[i], path, &scope);
    if (!bound)
      return failure();
    bounds.push_back(e.convert(bound, i32, false, location).value);
  }
  Value zero = arith::ConstantIntOp::create(b, location, i32, 0);
  Value one = arith::ConstantIntOp::create(b, location, i32, 1);
  Value start = bounds.size() == 1 ? zero : bounds[0];
  Value stop = bounds.size() == 1 ? bounds[0] : bounds[1];
  Value step = bounds.size() == 3 ? bounds[2] : one;
  if (auto constant = getConstantIntValue(step); constant && *constant == 0) {
    e.error(path) << "tasklet '" << tasklet.label
                  << "': range() step must not be zero";
    return failure();
  }

  SmallVector<std::string> carried = carriedNames(statement.body);
  SmallVector<Value> inits{start};
  SmallVector<Type> types{i32};
  appendCarried(carried, inits, types);
  SmallVector<Location> locations(types.size(), location);
  auto loop = scf::WhileOp::create(b, location, types, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *before = b.createBlock(&loop.getBefore(), {}, types, locations);
    Value k = before->getArgument(0);
    // Python's range: up while step > 0, down while step < 0.
    auto compare = [&](arith::CmpIPredicate predicate) -> Value {
      return arith::CmpIOp::create(b, location, predicate, k, stop);
    };
    Value inRange;
    if (std::optional<int64_t> constant = getConstantIntValue(step))
      inRange = compare(*constant > 0 ? arith::CmpIPredicate::slt
                                      : arith::CmpIPredicate::sgt);
    else
      inRange = arith::SelectOp::create(
          b, location,
          arith::CmpIOp::create(b, location, arith::CmpIPredicate::sgt, step,
                                zero),
          compare(arith::CmpIPredicate::slt),
          compare(arith::CmpIPredicate::sgt));
    scf::ConditionOp::create(b, location, inRange, before->getArguments());

    Block *after = b.createBlock(&loop.getAfter(), {}, types, locations);
    bind(carried, after->getArguments().drop_front());
    llvm::StringMap<CValue> outer = scope.values;
    scope.values[statement.target->name] = CValue{after->getArgument(0), false};
    FailureOr<SmallVector<Value>> values = emitBlock(statement.body, carried);
    if (failed(values))
      return failure();
    scope.values = std::move(outer);
    SmallVector<Value> yielded{
        arith::AddIOp::create(b, location, after->getArgument(0), step)};
    llvm::append_range(yielded, *values);
    scf::YieldOp::create(b, location, yielded);
  }
  bind(carried, loop.getResults().drop_front());
  return success();
}

LogicalResult TaskletCode::emitWhile(const PyStatement &statement) {
  SmallVector<std::string> carried = carriedNames(statement.body);
  SmallVector<Value> inits;
  SmallVector<Type> types;
  appendCarried(carried, inits, types);
  SmallVector<Location> locations(types.size(), location);
  auto loop = scf::WhileOp::create(b, location, types, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *before = b.createBlock(&loop.getBefore(), {}, types, locations);
    llvm::StringMap<CValue> outer = scope.values;
    bind(carried, before->getArguments());
    CValue test = e.emitExpression(*statement.value, path, &scope);
    if (!test)
      return failure();
    CValue flag = e.toBool(test, location);
    if (!flag) {
      e.error(path) << "tasklet '" << tasklet.label << "': condition '"
                    << statement.value->str() << "' is not a number";
      return failure();
    }
    scf::ConditionOp::create(b, location, flag.value, before->getArguments());

    Block *after = b.createBlock(&loop.getAfter(), {}, types, locations);
    bind(carried, after->getArguments());
    FailureOr<SmallVector<Value>> values = emitBlock(statement.body, carried);
    if (failed(values))
      return failure();
    scf::YieldOp::create(b, location, *values);
    scope.values = std::move(outer);
  }
  bind(carried, loop.getResults());
  return success();
}

LogicalResult TaskletCode::emitIf(const PyStatement &statement) {
  CValue test = e.emitExpression(*statement.value, path, &scope);
  if (!test)
    return failure();
  CValue flag = e.toBool(test, location);
  if (!flag) {
    e.error(path) << "tasklet '" << tasklet.label << "': condition '"
                  << statement.value->str() << "' is not a number";
    return failure();
  }
  SmallVector<std::string> carried =
      carriedNames(statement.body, statement.orelse);
  SmallVector<Value> values;
  SmallVector<Type> types;
  appendCarried(carried, values, types);
  auto branch = scf::IfOp::create(b, location, types, flag.value,
                                  /*withElseRegion=*/true);
  for (auto [region, statements] :
       {std::pair(&branch.getThenRegion(), ArrayRef(statement.body)),
        std::pair(&branch.getElseRegion(), ArrayRef(statement.orelse))}) {
    OpBuilder::InsertionGuard guard(b);
    Block *block = &region->front();
    // scf.if builds its blocks with a terminator when it has no results.
    if (!block->empty())
      block->back().erase();
    b.setInsertionPointToEnd(block);
    FailureOr<SmallVector<Value>> values = emitBlock(statements, carried);
    if (failed(values))
      return failure();
    scf::YieldOp::create(b, location, *values);
  }
  bind(carried, branch.getResults());
  return success();
}

LogicalResult mlir::sdfg::dace::emitTaskletCode(
    ProgramEmitter &e, const State &state, const Node &tasklet, bool inKernel,
    ProgramEmitter::Scope &scope, const llvm::StringMap<Type> &outputTypes,
    llvm::StringSet<> &assigned) {
  TaskletCode code(e, state, tasklet, inKernel, scope, outputTypes, assigned);
  return code.emit(tasklet.statements);
}
