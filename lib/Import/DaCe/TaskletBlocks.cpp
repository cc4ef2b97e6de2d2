//===- TaskletBlocks.cpp - The compound statements of a tasklet -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Compound statements of a Python tasklet (TaskletCode.h) become structured
// control flow, with the locals a block reassigns carried through it:
// `for k in range(a, b, s)` and `while` as scf.while (the loop variable an
// `int`, as DaCe's runtime `range` iterates; the trip follows Python's
// range, also where DaCe's `!=`-based iterator would not stop),
// `if`/`elif`/`else` as scf.if. A single-element output connector assigned
// inside a block starts as zero (C++ leaves it uninitialized).
//
//===----------------------------------------------------------------------===//

#include "TaskletCode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

namespace {
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
} // namespace

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
      scope.values[name] = CValue{
          arith::ConstantOp::create(b, location, type, b.getZeroAttr(type)),
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

FailureOr<Value> TaskletCode::emitCondition(const PyExpr &condition) {
  CValue test = e.emitExpression(condition, path, &scope);
  if (!test)
    return failure();
  CValue flag = e.toBool(test, location);
  if (!flag) {
    e.error(path) << "tasklet '" << tasklet.label << "': condition '"
                  << condition.str() << "' is not a number";
    return failure();
  }
  return flag.value;
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
    FailureOr<Value> flag = emitCondition(*statement.value);
    if (failed(flag))
      return failure();
    scf::ConditionOp::create(b, location, *flag, before->getArguments());

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
  FailureOr<Value> flag = emitCondition(*statement.value);
  if (failed(flag))
    return failure();
  SmallVector<std::string> carried =
      carriedNames(statement.body, statement.orelse);
  SmallVector<Value> values;
  SmallVector<Type> types;
  appendCarried(carried, values, types);
  auto branch = scf::IfOp::create(b, location, types, *flag,
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
