//===- ExpressionBuilder.cpp - Names, subscripts, dispatch ----------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// ExpressionBuilder (ExpressionBuilder.h): names (containers, symbols,
// constants), subscripts of containers, and the dispatch over a Python
// expression's kinds.
//
//===----------------------------------------------------------------------===//

#include "ExpressionBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail;

std::string ExpressionBuilder::dottedName(const PyExpr &expr) {
  if (expr.kind == PyExpr::Kind::Name)
    return expr.name;
  if (expr.kind == PyExpr::Kind::Attribute && !expr.operands.empty()) {
    std::string base = dottedName(*expr.operands[0]);
    return base.empty() ? "" : base + "." + expr.name;
  }
  return "";
}

/// Loads one element of a container, staging it through host memory when
/// host code reads GPU memory (sdfg-insert-host-syncs then syncs before the
/// load).
static CValue loadElement(ProgramEmitter &e, const Container &container,
                              ArrayRef<Value> indices, Location location) {
  OpBuilder &b = e.builder;
  Type elementType = container.desc->elementType;
  bool isUnsigned = elementType.isUnsignedInteger();
  if (container.value)
    return {container.value, isUnsigned};
  if (container.onGpu() && !e.inKernel) {
    auto memrefType = cast<MemRefType>(container.memref.getType());
    SmallVector<OpFoldResult> offsets(indices.begin(), indices.end());
    SmallVector<OpFoldResult> ones(indices.size(), b.getIndexAttr(1));
    Value source = container.memref;
    if (memrefType.getRank() > 0) {
      auto viewType = memref::SubViewOp::inferRankReducedResultType(
          {}, memrefType, offsets, ones, ones);
      source = memref::SubViewOp::create(b, location,
                                         cast<MemRefType>(viewType), source,
                                         offsets, ones, ones);
    }
    auto stagingType = MemRefType::get({}, memrefType.getElementType());
    Value staging = memref::AllocaOp::create(b, location, stagingType);
    gpu::MemcpyOp::create(b, location, TypeRange(), ValueRange(), staging,
                          source);
    return {memref::LoadOp::create(b, location, staging, ValueRange()),
            isUnsigned};
  }
  if (e.inKernel && !container.onGpu() && indices.empty()) {
    // A host scalar a kernel reads (a transient Scalar a host tasklet
    // wrote: DaCe passes it to the kernel by value): read on the host right
    // before the launch, and captured.
    Operation *parent = b.getInsertionBlock()->getParentOp();
    auto launch = dyn_cast<gpu::LaunchOp>(parent);
    if (!launch)
      launch = parent->getParentOfType<gpu::LaunchOp>();
    if (launch &&
        !launch.getBody().isAncestor(
            Value(container.memref).getParentRegion())) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(launch);
      return {memref::LoadOp::create(b, location, container.memref), isUnsigned};
    }
  }
  return {memref::LoadOp::create(b, location, container.memref, indices),
          isUnsigned};
}

CValue ExpressionBuilder::name(const PyExpr &expr) {
  if (scope) {
    auto it = scope->values.find(expr.name);
    if (it != scope->values.end())
      return it->second;
  }
  auto symbol = e.symbols.find(expr.name);
  if (symbol != e.symbols.end())
    return symbol->second;
  auto container = e.containers.find(expr.name);
  if (container != e.containers.end() && container->second.value)
    return loadElement(e, container->second, {}, location);
  if (container != e.containers.end()) {
    auto type = cast<MemRefType>(container->second.memref.getType());
    SmallVector<Value> indices;
    if (type.getRank() > 0) {
      // A one-element array read by name, as DaCe writes scalar data
      // passed around as arrays of shape [1].
      if (!type.hasStaticShape() || type.getNumElements() != 1)
        return fail(expr, "array '" + expr.name +
                              "' is used as a value without an index");
      Value zero = arith::ConstantIndexOp::create(b, location, 0);
      indices.assign(type.getRank(), zero);
    }
    return loadElement(e, container->second, indices, location);
  }
  if (expr.name == "True" || expr.name == "true")
    return constantInt(1, b.getI1Type());
  if (expr.name == "False" || expr.name == "false")
    return constantInt(0, b.getI1Type());
  if (expr.name == "inf" || expr.name == "oo")
    return constantFloat(INFINITY, b.getF64Type());
  if (expr.name == "nan")
    return constantFloat(NAN, b.getF64Type());
  if (scope && scope->arrays.count(expr.name))
    return fail(expr, "array connector '" + expr.name +
                          "' is used as a value without an index");
  return fail(expr, "unknown name '" + expr.name + "'");
}

CValue ExpressionBuilder::subscript(const PyExpr &expr) {
  const PyExpr &base = *expr.operands[0];
  if (base.kind != PyExpr::Kind::Name)
    return fail(expr, "only names can be subscripted");
  SmallVector<Value> indices;
  for (const PyExprPtr &index : llvm::drop_begin(expr.operands)) {
    CValue value = build(*index);
    if (!value)
      return {};
    if (category(value.getType()) != Category::Integer &&
        category(value.getType()) != Category::Bool)
      return fail(expr, "an index must be an integer");
    indices.push_back(
        e.convert(value, b.getIndexType(), false, location).value);
  }
  if (scope) {
    auto it = scope->arrays.find(base.name);
    if (it != scope->arrays.end()) {
      const ArrayConnector &array = it->second;
      if (indices.size() != array.freeDims.size() &&
          indices.size() != array.base.size())
        return fail(expr, "'" + base.name + "' has " +
                              llvm::Twine(array.freeDims.size()) +
                              " dimensions, indexed with " +
                              llvm::Twine(indices.size()));
      SmallVector<Value> full(array.base.begin(), array.base.end());
      if (indices.size() == array.base.size()) {
        for (auto [i, index] : llvm::enumerate(indices))
          full[i] = b.createOrFold<arith::AddIOp>(location, full[i], index);
      } else {
        for (auto [dim, index] : llvm::zip(array.freeDims, indices))
          full[dim] =
              b.createOrFold<arith::AddIOp>(location, full[dim], index);
      }
      Container container{array.desc, array.memref};
      return loadElement(e, container, full, location);
    }
  }
  auto container = e.containers.find(base.name);
  if (container == e.containers.end())
    return fail(expr, "unknown array '" + base.name + "'");
  auto type = cast<MemRefType>(container->second.memref.getType());
  if (static_cast<int64_t>(indices.size()) != type.getRank())
    return fail(expr, "'" + base.name + "' has " +
                          llvm::Twine(type.getRank()) +
                          " dimensions, indexed with " +
                          llvm::Twine(indices.size()));
  SmallVector<Value> offsetIndices =
      e.applyOffset(indices, *container->second.desc);
  return loadElement(e, container->second, offsetIndices, location);
}


CValue ExpressionBuilder::build(const PyExpr &expr) {
  switch (expr.kind) {
  case PyExpr::Kind::Integer: {
    Type type = b.getI32Type();
    bool isUnsigned = false;
    if (!expr.suffix.empty()) {
      if (std::optional<Type> typed =
              castType("dace." + expr.suffix, isUnsigned))
        type = *typed;
      else {
        llvm::StringRef suffix = expr.suffix;
        unsigned width;
        if ((suffix.consume_front("i") || suffix.consume_front("u")) &&
            !suffix.getAsInteger(10, width) && width >= 8 && width <= 64) {
          type = b.getIntegerType(width);
          isUnsigned = expr.suffix[0] == 'u';
        } else if (suffix.consume_front("f") &&
                   !suffix.getAsInteger(10, width)) {
          return constantFloat(static_cast<double>(expr.intValue),
                               width == 32 ? b.getF32Type() : b.getF64Type());
        }
      }
    } else if (expr.intValue > INT32_MAX || expr.intValue < INT32_MIN) {
      type = b.getI64Type();
    }
    CValue value = constantInt(expr.intValue, type);
    value.isUnsigned = isUnsigned;
    return value;
  }
  case PyExpr::Kind::Float: {
    Type type = b.getF64Type();
    if (expr.suffix == "f32")
      type = b.getF32Type();
    else if (expr.suffix == "f16")
      type = b.getF16Type();
    return constantFloat(expr.floatValue, type);
  }
  case PyExpr::Kind::Bool:
    return constantInt(expr.intValue, b.getI1Type());
  case PyExpr::Kind::Name:
    return name(expr);
  case PyExpr::Kind::Attribute: {
    std::string dotted = dottedName(expr);
    if (dotted == "math.pi" || dotted == "np.pi" || dotted == "numpy.pi")
      return constantFloat(M_PI, b.getF64Type());
    if (dotted == "math.e" || dotted == "np.e")
      return constantFloat(M_E, b.getF64Type());
    if (dotted == "math.inf" || dotted == "np.inf")
      return constantFloat(INFINITY, b.getF64Type());
    return fail(expr, "unknown name '" + dotted + "'");
  }
  case PyExpr::Kind::Unary: {
    CValue operand = build(*expr.operands[0]);
    if (!operand)
      return {};
    switch (expr.op) {
    case PyExpr::Op::Plus:
      return operand;
    case PyExpr::Op::Not: {
      CValue flag = e.toBool(operand, location);
      if (!flag)
        return fail(expr, "'not' of a value that is not a number");
      Value one = constantInt(1, b.getI1Type()).value;
      return {b.createOrFold<arith::XOrIOp>(location, flag.value, one), false};
    }
    case PyExpr::Op::Neg: {
      Category c = category(operand.getType());
      if (c == Category::Float)
        return {arith::NegFOp::create(b, location, operand.value), false};
      if (c == Category::Other)
        return fail(expr, "negation of a complex or vector value");
      if (c == Category::Bool)
        operand = e.convert(operand, b.getI32Type(), false, location);
      Value zero = constantInt(0, operand.getType()).value;
      return {b.createOrFold<arith::SubIOp>(location, zero, operand.value),
              operand.isUnsigned};
    }
    case PyExpr::Op::Invert: {
      Category c = category(operand.getType());
      if (c != Category::Integer && c != Category::Bool)
        return fail(expr, "'~' of a value that is not an integer");
      if (c == Category::Bool)
        operand = e.convert(operand, b.getI32Type(), false, location);
      Value ones = constantInt(-1, operand.getType()).value;
      return {b.createOrFold<arith::XOrIOp>(location, operand.value, ones),
              operand.isUnsigned};
    }
    default:
      return fail(expr, "unsupported unary operator");
    }
  }
  case PyExpr::Kind::Binary: {
    if (expr.op == PyExpr::Op::Pow)
      return power(expr);
    CValue lhs = build(*expr.operands[0]);
    if (!lhs)
      return {};
    CValue rhs = build(*expr.operands[1]);
    if (!rhs)
      return {};
    return binary(expr, expr.op, lhs, rhs);
  }
  case PyExpr::Kind::BoolOp: {
    CValue result;
    for (const PyExprPtr &operand : expr.operands) {
      CValue value = build(*operand);
      if (!value)
        return {};
      CValue flag = e.toBool(value, location);
      if (!flag)
        return fail(expr, "'and'/'or' of a value that is not a number");
      if (!result) {
        result = flag;
        continue;
      }
      result = {expr.op == PyExpr::Op::And
                    ? b.createOrFold<arith::AndIOp>(location, result.value,
                                                    flag.value)
                    : b.createOrFold<arith::OrIOp>(location, result.value,
                                                   flag.value),
                false};
    }
    return result;
  }
  case PyExpr::Kind::Compare: {
    CValue result;
    CValue lhs = build(*expr.operands[0]);
    if (!lhs)
      return {};
    for (auto [op, operand] :
         llvm::zip(expr.compareOps, llvm::drop_begin(expr.operands))) {
      CValue rhs = build(*operand);
      if (!rhs)
        return {};
      CValue flag = compare(op, lhs, rhs);
      if (!flag)
        return {};
      result = result ? CValue{b.createOrFold<arith::AndIOp>(
                                       location, result.value, flag.value),
                                   false}
                      : flag;
      lhs = rhs;
    }
    return result;
  }
  case PyExpr::Kind::IfElse: {
    CValue condition = build(*expr.operands[0]);
    CValue whenTrue = build(*expr.operands[1]);
    CValue whenFalse = build(*expr.operands[2]);
    if (!condition || !whenTrue || !whenFalse)
      return {};
    CValue flag = e.toBool(condition, location);
    if (!flag)
      return fail(expr, "complex arithmetic is not supported yet: a "
                        "condition of type " +
                            llvm::Twine(typeName(condition.getType())));
    if (category(whenTrue.getType()) == Category::Other ||
        category(whenFalse.getType()) == Category::Other) {
      if (whenTrue.getType() != whenFalse.getType())
        return fail(expr, "complex arithmetic is not supported yet: a "
                          "choice between " +
                              llvm::Twine(typeName(whenTrue.getType())) +
                              " and " + typeName(whenFalse.getType()));
      return {b.createOrFold<arith::SelectOp>(location, flag.value,
                                              whenTrue.value, whenFalse.value),
              false};
    }
    auto [type, isUnsigned] = commonType(whenTrue, whenFalse);
    return {b.createOrFold<arith::SelectOp>(
                location, flag.value,
                e.convert(whenTrue, type, isUnsigned, location).value,
                e.convert(whenFalse, type, isUnsigned, location).value),
            isUnsigned};
  }
  case PyExpr::Kind::Call:
    return call(expr);
  case PyExpr::Kind::Subscript:
    return subscript(expr);
  case PyExpr::Kind::Imaginary:
  case PyExpr::Kind::None:
  case PyExpr::Kind::Tuple:
  case PyExpr::Kind::Lambda:
    break;
  }
  return fail(expr, "this kind of expression is not supported here");
}
