//===- ExpressionOperators.cpp - Comparisons and arithmetic ---------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// ExpressionBuilder's operators (ExpressionBuilder.h): comparisons, binary
// arithmetic and powers, with C++'s conversions as DaCe's generated code
// applies them.
//
//===----------------------------------------------------------------------===//

#include "ExpressionBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail;

CValue ExpressionBuilder::compare(PyExpr::CompareOp op, CValue lhs,
                                      CValue rhs) {
  if (category(lhs.getType()) == Category::Other ||
      category(rhs.getType()) == Category::Other) {
    e.error(path) << "complex arithmetic is not supported yet: comparison of "
                  << lhs.getType() << " and " << rhs.getType();
    return {};
  }
  auto [type, isUnsigned] = commonType(lhs, rhs);
  Value l = e.convert(lhs, type, isUnsigned, location).value;
  Value r = e.convert(rhs, type, isUnsigned, location).value;
  if (category(type) == Category::Float) {
    arith::CmpFPredicate predicate;
    switch (op) {
    case PyExpr::CompareOp::Lt: predicate = arith::CmpFPredicate::OLT; break;
    case PyExpr::CompareOp::Le: predicate = arith::CmpFPredicate::OLE; break;
    case PyExpr::CompareOp::Gt: predicate = arith::CmpFPredicate::OGT; break;
    case PyExpr::CompareOp::Ge: predicate = arith::CmpFPredicate::OGE; break;
    case PyExpr::CompareOp::Eq: predicate = arith::CmpFPredicate::OEQ; break;
    case PyExpr::CompareOp::Ne: predicate = arith::CmpFPredicate::UNE; break;
    }
    return {b.createOrFold<arith::CmpFOp>(location, predicate, l, r), false};
  }
  arith::CmpIPredicate predicate;
  switch (op) {
  case PyExpr::CompareOp::Lt:
    predicate = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case PyExpr::CompareOp::Le:
    predicate = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case PyExpr::CompareOp::Gt:
    predicate = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case PyExpr::CompareOp::Ge:
    predicate = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  case PyExpr::CompareOp::Eq: predicate = arith::CmpIPredicate::eq; break;
  case PyExpr::CompareOp::Ne: predicate = arith::CmpIPredicate::ne; break;
  }
  return {b.createOrFold<arith::CmpIOp>(location, predicate, l, r), false};
}

CValue ExpressionBuilder::binary(const PyExpr &expr, PyExpr::Op op,
                                     CValue lhs, CValue rhs) {
  if (category(lhs.getType()) == Category::Other ||
      category(rhs.getType()) == Category::Other)
    return fail(expr, "complex arithmetic is not supported yet: operator "
                      "on " +
                          llvm::Twine(typeName(lhs.getType())) + " and " +
                          typeName(rhs.getType()));
  auto [type, isUnsigned] = commonType(lhs, rhs);
  bool isFloat = category(type) == Category::Float;
  if (isFloat && (op == PyExpr::Op::LShift || op == PyExpr::Op::RShift ||
                  op == PyExpr::Op::BitAnd || op == PyExpr::Op::BitOr ||
                  op == PyExpr::Op::BitXor))
    return fail(expr, "bitwise operation on a floating-point value");
  Value l = e.convert(lhs, type, isUnsigned, location).value;
  Value r = e.convert(rhs, type, isUnsigned, location).value;
  Value result;
  switch (op) {
  case PyExpr::Op::Add:
    result = isFloat ? b.createOrFold<arith::AddFOp>(location, l, r)
                     : b.createOrFold<arith::AddIOp>(location, l, r);
    break;
  case PyExpr::Op::Sub:
    result = isFloat ? b.createOrFold<arith::SubFOp>(location, l, r)
                     : b.createOrFold<arith::SubIOp>(location, l, r);
    break;
  case PyExpr::Op::Mul:
    result = isFloat ? b.createOrFold<arith::MulFOp>(location, l, r)
                     : b.createOrFold<arith::MulIOp>(location, l, r);
    break;
  case PyExpr::Op::Div:
    result = isFloat      ? b.createOrFold<arith::DivFOp>(location, l, r)
             : isUnsigned ? b.createOrFold<arith::DivUIOp>(location, l, r)
                          : b.createOrFold<arith::DivSIOp>(location, l, r);
    break;
  case PyExpr::Op::FloorDiv:
    // dace::math::ifloor(a / b): the C++ division, floored for floats.
    if (isFloat)
      result = math::FloorOp::create(
          b, location, b.createOrFold<arith::DivFOp>(location, l, r));
    else
      result = isUnsigned ? b.createOrFold<arith::DivUIOp>(location, l, r)
                          : b.createOrFold<arith::DivSIOp>(location, l, r);
    break;
  case PyExpr::Op::Mod:
    result = isFloat      ? b.createOrFold<arith::RemFOp>(location, l, r)
             : isUnsigned ? b.createOrFold<arith::RemUIOp>(location, l, r)
                          : b.createOrFold<arith::RemSIOp>(location, l, r);
    break;
  case PyExpr::Op::LShift:
    result = b.createOrFold<arith::ShLIOp>(location, l, r);
    break;
  case PyExpr::Op::RShift:
    result = isUnsigned ? b.createOrFold<arith::ShRUIOp>(location, l, r)
                        : b.createOrFold<arith::ShRSIOp>(location, l, r);
    break;
  case PyExpr::Op::BitAnd:
    result = b.createOrFold<arith::AndIOp>(location, l, r);
    break;
  case PyExpr::Op::BitOr:
    result = b.createOrFold<arith::OrIOp>(location, l, r);
    break;
  case PyExpr::Op::BitXor:
    result = b.createOrFold<arith::XOrIOp>(location, l, r);
    break;
  default:
    return fail(expr, "unsupported operator");
  }
  return {result, isUnsigned};
}

/// `base ** exponent` as cppunparse writes it: an integer constant exponent
/// is `dace::math::ipow` (repeated multiplication in the base's type; a
/// negative one is 1 / ipow in double), 0.5 is sqrt, anything else pow in
/// floating point.
CValue ExpressionBuilder::power(const PyExpr &expr) {
  const PyExpr &exponent = *expr.operands[1];
  CValue base = build(*expr.operands[0]);
  if (!base)
    return {};
  if (category(base.getType()) == Category::Other)
    return fail(expr, "complex arithmetic is not supported yet: power of " +
                          llvm::Twine(typeName(base.getType())));
  std::optional<int64_t> integerExponent;
  if (exponent.kind == PyExpr::Kind::Integer)
    integerExponent = exponent.intValue;
  else if (exponent.kind == PyExpr::Kind::Unary &&
           exponent.op == PyExpr::Op::Neg &&
           exponent.operands[0]->kind == PyExpr::Kind::Integer)
    integerExponent = -exponent.operands[0]->intValue;
  if (integerExponent && *integerExponent >= 0 && *integerExponent <= 64) {
    Type type = base.getType();
    if (category(type) == Category::Bool)
      base = e.convert(base, b.getI32Type(), false, location);
    CValue result =
        category(base.getType()) == Category::Float
            ? constantFloat(1.0, base.getType())
            : constantInt(1, base.getType());
    result.isUnsigned = base.isUnsigned;
    for (int64_t i = 0; i < *integerExponent; ++i)
      result = binary(expr, PyExpr::Op::Mul, result, base);
    return result;
  }
  Type floatType = category(base.getType()) == Category::Float
                       ? base.getType()
                       : b.getF64Type();
  if (exponent.kind == PyExpr::Kind::Float && exponent.floatValue == 0.5)
    return {math::SqrtOp::create(
                b, location,
                e.convert(base, floatType, false, location).value),
            false};
  CValue power = build(exponent);
  if (!power)
    return {};
  if (category(power.getType()) == Category::Float &&
      power.getType().getIntOrFloatBitWidth() >
          floatType.getIntOrFloatBitWidth())
    floatType = power.getType();
  Value l = e.convert(base, floatType, false, location).value;
  Value r = e.convert(power, floatType, false, location).value;
  return {math::PowFOp::create(b, location, l, r), false};
}
