//===- ExpressionCalls.cpp - Casts and math calls -------------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// ExpressionBuilder's calls (ExpressionBuilder.h): casts to DaCe's types
// and the math functions DaCe's code generator knows, as arith and math ops.
//
//===----------------------------------------------------------------------===//

#include "ExpressionBuilder.h"

#include "mlir/Dialect/Complex/IR/Complex.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail;

std::optional<Type> ExpressionBuilder::castType(llvm::StringRef name,
                                                bool &isUnsigned) {
  llvm::StringRef base = name;
  for (llvm::StringRef prefix : {"dace.", "np.", "numpy."})
    if (base.consume_front(prefix))
      break;
  isUnsigned = base.starts_with("uint");
  std::optional<Type> type =
      llvm::StringSwitch<std::optional<Type>>(base)
          .Cases({"bool", "bool_"}, b.getI1Type())
          .Case("int8", b.getI8Type())
          .Case("int16", b.getI16Type())
          .Cases({"int32", "int", "intc"}, b.getI32Type())
          .Cases({"int64", "long"}, b.getI64Type())
          .Case("uint8", b.getI8Type())
          .Case("uint16", b.getI16Type())
          .Case("uint32", b.getI32Type())
          .Case("uint64", b.getI64Type())
          .Case("float16", b.getF16Type())
          .Case("float32", b.getF32Type())
          .Cases({"float64", "float", "double"}, b.getF64Type())
          .Default(std::nullopt);
  // Only bare int/float/bool are Python builtins; dace.int etc. do not
  // exist.
  if (type && name == base && base != "int" && base != "float" &&
      base != "bool")
    return std::nullopt;
  return type;
}

CValue ExpressionBuilder::mathCall(const PyExpr &expr,
                                       llvm::StringRef function,
                                       ArrayRef<CValue> args) {
  auto arity = [&](size_t n) {
    if (args.size() == n)
      return true;
    fail(expr, "'" + function + "' takes " + llvm::Twine(n) + " argument(s)");
    return false;
  };
  // Complex arguments: std::abs is the modulus; the rest of complex
  // arithmetic comes later.
  if (llvm::any_of(args, [](CValue arg) {
        return category(arg.getType()) == Category::Other;
      })) {
    if ((function == "abs" || function == "Abs") && args.size() == 1 &&
        isa<ComplexType>(args[0].getType()))
      return {complex::AbsOp::create(b, location, args[0].value), false};
    std::string types;
    llvm::raw_string_ostream os(types);
    llvm::interleaveComma(args, os, [&](CValue arg) { os << arg.getType(); });
    return fail(expr, "complex arithmetic is not supported yet: '" +
                          function + "' of " + types);
  }
  // min/max/abs keep integers integral (dace::math::min, std::abs).
  if (function == "min" || function == "max" || function == "Min" ||
      function == "Max") {
    if (args.size() < 2)
      return fail(expr, "'" + function + "' takes at least two arguments");
    bool isMin = function.equals_insensitive("min");
    CValue result = args[0];
    for (CValue next : args.drop_front()) {
      auto [type, isUnsigned] = commonType(result, next);
      Value l = e.convert(result, type, isUnsigned, location).value;
      Value r = e.convert(next, type, isUnsigned, location).value;
      Value v;
      if (category(type) == Category::Float)
        v = isMin ? b.createOrFold<arith::MinNumFOp>(location, l, r)
                  : b.createOrFold<arith::MaxNumFOp>(location, l, r);
      else if (isUnsigned)
        v = isMin ? b.createOrFold<arith::MinUIOp>(location, l, r)
                  : b.createOrFold<arith::MaxUIOp>(location, l, r);
      else
        v = isMin ? b.createOrFold<arith::MinSIOp>(location, l, r)
                  : b.createOrFold<arith::MaxSIOp>(location, l, r);
      result = {v, isUnsigned};
    }
    return result;
  }
  if (function == "abs" || function == "Abs" || function == "fabs") {
    if (!arity(1))
      return {};
    CValue arg = args[0];
    if (category(arg.getType()) == Category::Float)
      return {math::AbsFOp::create(b, location, arg.value), false};
    if (function == "fabs")
      return {math::AbsFOp::create(
                  b, location,
                  e.convert(arg, b.getF64Type(), false, location).value),
              false};
    if (arg.isUnsigned)
      return arg;
    if (category(arg.getType()) == Category::Bool)
      arg = e.convert(arg, b.getI32Type(), false, location);
    if (arg.getType().isIndex()) {
      Value zero = arith::ConstantIndexOp::create(b, location, 0);
      Value negated = b.createOrFold<arith::SubIOp>(location, zero, arg.value);
      return {b.createOrFold<arith::MaxSIOp>(location, arg.value, negated),
              false};
    }
    return {math::AbsIOp::create(b, location, arg.value), false};
  }
  // Integer forms of sympy's functions (symbolic expressions).
  if (function == "int_floor" || function == "int_ceil" || function == "Mod") {
    if (!arity(2))
      return {};
    auto [type, isUnsigned] = commonType(args[0], args[1]);
    if (category(type) != Category::Integer)
      return fail(expr, "'" + function + "' needs integer arguments");
    Value l = e.convert(args[0], type, isUnsigned, location).value;
    Value r = e.convert(args[1], type, isUnsigned, location).value;
    if (function == "Mod")
      return {b.createOrFold<arith::RemSIOp>(location, l, r), false};
    if (function == "int_floor")
      return {b.createOrFold<arith::FloorDivSIOp>(location, l, r), false};
    return {b.createOrFold<arith::CeilDivSIOp>(location, l, r), false};
  }
  if (function == "ceiling" || function == "floor" || function == "ceil") {
    if (!arity(1))
      return {};
    // ceiling(a/b) of integers: sympy's rational division, rounded.
    const PyExpr &arg = *expr.operands[1];
    if (arg.kind == PyExpr::Kind::Binary && arg.op == PyExpr::Op::Div) {
      CValue num = build(*arg.operands[0]);
      CValue den = build(*arg.operands[1]);
      if (!num || !den)
        return {};
      auto [type, isUnsigned] = commonType(num, den);
      if (category(type) == Category::Integer) {
        Value l = e.convert(num, type, isUnsigned, location).value;
        Value r = e.convert(den, type, isUnsigned, location).value;
        if (function == "floor")
          return {b.createOrFold<arith::FloorDivSIOp>(location, l, r), false};
        return {b.createOrFold<arith::CeilDivSIOp>(location, l, r), false};
      }
    }
    CValue value = args[0];
    if (category(value.getType()) != Category::Float)
      return value;
    if (function == "floor")
      return {math::FloorOp::create(b, location, value.value), false};
    return {math::CeilOp::create(b, location, value.value), false};
  }
  if (function == "Eq" || function == "Ne" || function == "Lt" ||
      function == "Le" || function == "Gt" || function == "Ge") {
    if (!arity(2))
      return {};
    PyExpr::CompareOp op = llvm::StringSwitch<PyExpr::CompareOp>(function)
                               .Case("Eq", PyExpr::CompareOp::Eq)
                               .Case("Ne", PyExpr::CompareOp::Ne)
                               .Case("Lt", PyExpr::CompareOp::Lt)
                               .Case("Le", PyExpr::CompareOp::Le)
                               .Case("Gt", PyExpr::CompareOp::Gt)
                               .Default(PyExpr::CompareOp::Ge);
    return compare(op, args[0], args[1]);
  }
  if (function == "pow") {
    if (!arity(2))
      return {};
    Type type = b.getF64Type();
    if (category(args[0].getType()) == Category::Float &&
        category(args[1].getType()) != Category::Float)
      type = args[0].getType();
    else if (category(args[0].getType()) == Category::Float &&
             category(args[1].getType()) == Category::Float)
      type = commonType(args[0], args[1]).first;
    return {math::PowFOp::create(
                b, location, e.convert(args[0], type, false, location).value,
                e.convert(args[1], type, false, location).value),
            false};
  }
  // One-argument floating-point functions: an integer argument computes in
  // double, as std::exp(int) does.
  using Builder1 = Value (*)(OpBuilder &, Location, Value);
  Builder1 unary =
      llvm::StringSwitch<Builder1>(function)
          .Case("exp",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::ExpOp::create(b, l, v);
                })
          .Case("log",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::LogOp::create(b, l, v);
                })
          .Case("log2",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::Log2Op::create(b, l, v);
                })
          .Case("log10",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::Log10Op::create(b, l, v);
                })
          .Case("sqrt",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::SqrtOp::create(b, l, v);
                })
          .Case("sin",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::SinOp::create(b, l, v);
                })
          .Case("cos",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::CosOp::create(b, l, v);
                })
          .Case("tan",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::TanOp::create(b, l, v);
                })
          .Case("asin",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::AsinOp::create(b, l, v);
                })
          .Case("acos",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::AcosOp::create(b, l, v);
                })
          .Case("atan",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::AtanOp::create(b, l, v);
                })
          .Case("sinh",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::SinhOp::create(b, l, v);
                })
          .Case("cosh",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::CoshOp::create(b, l, v);
                })
          .Case("tanh",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::TanhOp::create(b, l, v);
                })
          .Case("erf",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::ErfOp::create(b, l, v);
                })
          .Case("round",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::RoundOp::create(b, l, v);
                })
          .Case("trunc",
                [](OpBuilder &b, Location l, Value v) -> Value {
                  return math::TruncOp::create(b, l, v);
                })
          .Default(nullptr);
  if (unary) {
    if (!arity(1))
      return {};
    CValue arg = args[0];
    Type type = category(arg.getType()) == Category::Float ? arg.getType()
                                                           : b.getF64Type();
    return {unary(b, location, e.convert(arg, type, false, location).value),
            false};
  }
  if (function == "atan2") {
    if (!arity(2))
      return {};
    Type type = b.getF64Type();
    if (category(args[0].getType()) == Category::Float &&
        category(args[1].getType()) == Category::Float)
      type = commonType(args[0], args[1]).first;
    return {math::Atan2Op::create(
                b, location, e.convert(args[0], type, false, location).value,
                e.convert(args[1], type, false, location).value),
            false};
  }
  return fail(expr, "function '" + function + "' is not supported");
}

CValue ExpressionBuilder::call(const PyExpr &expr) {
  std::string callee = dottedName(*expr.operands[0]);
  if (callee.empty())
    return fail(expr, "only named functions can be called");
  // DaCe 2.0's typed symbol: symbol($x, dtype=dace.int64) is the symbol.
  if (callee == "symbol") {
    if (expr.operands.size() != 2)
      return fail(expr, "'symbol' takes one name");
    return build(*expr.operands[1]);
  }
  SmallVector<CValue> args;
  for (const PyExprPtr &operand : llvm::drop_begin(expr.operands)) {
    CValue arg = build(*operand);
    if (!arg)
      return {};
    args.push_back(arg);
  }
  if (!expr.keywords.empty())
    return fail(expr, "keyword arguments to '" + callee +
                          "' are not supported");
  bool isUnsigned = false;
  if (std::optional<Type> type = castType(callee, isUnsigned)) {
    if (args.size() != 1)
      return fail(expr, "a cast takes one argument");
    return e.convert(args[0], *type, isUnsigned, location);
  }
  llvm::StringRef function = callee;
  for (llvm::StringRef prefix :
       {"dace.math.", "math.", "np.", "numpy.", "cmath.", "dace::math::",
        "std::", "__"})
    if (function.consume_front(prefix))
      break;
  if (function == "fmin")
    function = "min";
  if (function == "fmax")
    function = "max";
  if (function == "power")
    function = "pow";
  if (function == "absolute")
    function = "abs";
  return mathCall(expr, function, args);
}
