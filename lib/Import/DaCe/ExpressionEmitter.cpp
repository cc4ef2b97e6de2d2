//===- ExpressionEmitter.cpp - DaCe expressions as arith and math ops -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// DaCe compiles every expression string of an SDFG as C++ (tasklets through
// dace/codegen/cppunparse.py, symbolic expressions through sympy's C
// printer, interstate code through dace/codegen/common.py), so the ops built
// here follow C++'s rules, not Python's: the usual arithmetic conversions,
// truncating integer division (`//` is `dace::math::ifloor(a / b)`, which
// keeps the truncation for integers), `%` as C's remainder, `x ** n` with an
// integer constant as repeated multiplication (`dace::math::ipow`), and the
// functions of runtime/include/dace/math.h.
//
//===----------------------------------------------------------------------===//

#include "ExpressionBuilder.h"

#include "mlir/Dialect/Complex/IR/Complex.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail;

Category mlir::sdfg::dace::detail::category(Type type) {
  if (type.isInteger(1))
    return Category::Bool;
  if (type.isIndex() || isa<IntegerType>(type))
    return Category::Integer;
  if (isa<FloatType>(type))
    return Category::Float;
  return Category::Other;
}

unsigned mlir::sdfg::dace::detail::integerWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

std::string mlir::sdfg::dace::detail::typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return name;
}

Type mlir::sdfg::dace::signlessType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

/// The C++ type of `a op b` after the usual arithmetic conversions, with
/// `index` standing for a signed 64-bit integer (it stays `index` when both
/// sides are integers of at most 64 bits and one is `index`).
std::pair<Type, bool> mlir::sdfg::dace::detail::commonType(CValue a,
                                                        CValue b) {
  Type ta = a.getType(), tb = b.getType();
  Category ca = category(ta), cb = category(tb);
  if (ca == Category::Float || cb == Category::Float) {
    if (ca != Category::Float)
      return {tb, false};
    if (cb != Category::Float)
      return {ta, false};
    return {ta.getIntOrFloatBitWidth() >= tb.getIntOrFloatBitWidth() ? ta : tb,
            false};
  }
  // Integer promotion: bool, 8- and 16-bit integers become int.
  Builder b32(ta.getContext());
  auto promote = [&](Type t, bool isUnsigned) -> std::pair<Type, bool> {
    if (!t.isIndex() && integerWidth(t) < 32)
      return {b32.getI32Type(), false};
    return {t, isUnsigned};
  };
  auto [pa, ua] = promote(ta, a.isUnsigned);
  auto [pb, ub] = promote(tb, b.isUnsigned);
  if (pa.isIndex() || pb.isIndex())
    return {b32.getIndexType(), false};
  unsigned wa = integerWidth(pa), wb = integerWidth(pb);
  if (wa != wb)
    return wa > wb ? std::pair{pa, ua} : std::pair{pb, ub};
  return {pa, ua || ub};
}

InFlightDiagnostic ProgramEmitter::error(llvm::StringRef path) {
  return error(loc(path));
}

InFlightDiagnostic ProgramEmitter::error(Location location) {
  hadError = true;
  InFlightDiagnostic diagnostic = emitError(location);
  if (currentState)
    attachStateNote(diagnostic, loc(currentState->path), *currentState,
                    currentNode);
  return diagnostic;
}

CValue ProgramEmitter::convert(CValue value, Type type,
                                   bool toUnsigned, Location location) {
  Type from = value.getType();
  if (from == type)
    return {value.value, toUnsigned};
  Category cf = category(from), ct = category(type);
  Value v = value.value;
  // std::complex's converting constructors: a number becomes the real part
  // (imaginary part zero), a complex of another width converts both parts.
  auto toComplex = dyn_cast<ComplexType>(type);
  if (toComplex && cf != Category::Other) {
    Type part = toComplex.getElementType();
    Value re = convert(value, part, false, location).value;
    Value im = arith::ConstantOp::create(builder, location, part,
                                         builder.getZeroAttr(part));
    return {complex::CreateOp::create(builder, location, type, re, im),
            false};
  }
  auto fromComplex = dyn_cast<ComplexType>(from);
  if (toComplex && fromComplex &&
      category(toComplex.getElementType()) == Category::Float &&
      category(fromComplex.getElementType()) == Category::Float) {
    Type part = toComplex.getElementType();
    Value re = complex::ReOp::create(builder, location, v);
    Value im = complex::ImOp::create(builder, location, v);
    re = convert({re, false}, part, false, location).value;
    im = convert({im, false}, part, false, location).value;
    return {complex::CreateOp::create(builder, location, type, re, im),
            false};
  }
  if (cf == Category::Other || ct == Category::Other) {
    // Complex arithmetic comes later; the import fails with this error, and
    // the cast only keeps the IR built so far well formed until then.
    error(location) << "complex arithmetic is not supported yet: "
                       "conversion from "
                    << from << " to " << type;
    return {UnrealizedConversionCastOp::create(builder, location, type, v)
                .getResult(0),
            toUnsigned};
  }
  if (ct == Category::Bool)
    return toBool(value, location);
  if (ct == Category::Integer) {
    if (cf == Category::Float) {
      Type wide = type.isIndex() ? builder.getI64Type() : type;
      Value r = toUnsigned ? arith::FPToUIOp::create(builder, location, wide, v)
                                 .getResult()
                           : arith::FPToSIOp::create(builder, location, wide, v)
                                 .getResult();
      if (type.isIndex())
        r = arith::IndexCastOp::create(builder, location, type, r);
      return {r, toUnsigned};
    }
    bool sourceUnsigned = value.isUnsigned || cf == Category::Bool;
    if (from.isIndex() || type.isIndex()) {
      Value r = sourceUnsigned
                    ? builder.createOrFold<arith::IndexCastUIOp>(location,
                                                                 type, v)
                    : builder.createOrFold<arith::IndexCastOp>(location, type,
                                                               v);
      return {r, toUnsigned};
    }
    unsigned wf = integerWidth(from), wt = integerWidth(type);
    if (wf == wt)
      return {v, toUnsigned};
    if (wf > wt)
      return {builder.createOrFold<arith::TruncIOp>(location, type, v),
              toUnsigned};
    return {sourceUnsigned
                ? builder.createOrFold<arith::ExtUIOp>(location, type, v)
                : builder.createOrFold<arith::ExtSIOp>(location, type, v),
            toUnsigned};
  }
  if (ct == Category::Float) {
    if (cf == Category::Float) {
      if (from.getIntOrFloatBitWidth() > type.getIntOrFloatBitWidth())
        return {builder.createOrFold<arith::TruncFOp>(location, type, v),
                false};
      return {builder.createOrFold<arith::ExtFOp>(location, type, v), false};
    }
    bool sourceUnsigned = value.isUnsigned || cf == Category::Bool;
    if (from.isIndex())
      v = builder.createOrFold<arith::IndexCastOp>(location,
                                                   builder.getI64Type(), v);
    return {sourceUnsigned
                ? builder.createOrFold<arith::UIToFPOp>(location, type, v)
                : builder.createOrFold<arith::SIToFPOp>(location, type, v),
            false};
  }
  return {v, false};
}

CValue ProgramEmitter::toBool(CValue value, Location location) {
  Type type = value.getType();
  switch (category(type)) {
  case Category::Bool:
    return value;
  case Category::Integer: {
    Value zero = arith::ConstantOp::create(builder, location, type,
                                           builder.getZeroAttr(type));
    return {builder.createOrFold<arith::CmpIOp>(
                location, arith::CmpIPredicate::ne, value.value, zero),
            false};
  }
  case Category::Float: {
    Value zero = arith::ConstantOp::create(builder, location, type,
                                           builder.getZeroAttr(type));
    return {builder.createOrFold<arith::CmpFOp>(
                location, arith::CmpFPredicate::UNE, value.value, zero),
            false};
  }
  case Category::Other:
    break;
  }
  return {};
}

CValue ProgramEmitter::emitExpression(const PyExpr &expr,
                                          llvm::StringRef path,
                                          Scope *scope) {
  return ExpressionBuilder(*this, path, scope).build(expr);
}

Value ProgramEmitter::emitIndex(const PyExpr &expr, llvm::StringRef path) {
  CValue value = emitExpression(expr, path);
  if (!value)
    return {};
  Type type = value.getType();
  if (!type.isIndex() && !isa<IntegerType>(type)) {
    error(path) << "'" << expr.str() << "' is not an integer expression";
    return {};
  }
  return convert(value, builder.getIndexType(), false, loc(path)).value;
}

Value ProgramEmitter::emitIndex(const SymExpr &expr) {
  if (!expr.expr) {
    error(expr.path) << "empty expression";
    return {};
  }
  return emitIndex(*expr.expr, expr.path);
}

Value ProgramEmitter::emitCondition(const SymExpr &expr, Scope *scope) {
  if (!expr.expr)
    return arith::ConstantOp::create(builder, loc(expr.path),
                                     builder.getBoolAttr(true));
  CValue value = emitExpression(*expr.expr, expr.path, scope);
  if (!value)
    return {};
  CValue flag = toBool(value, loc(expr.path));
  if (!flag) {
    error(expr.path) << "condition '" << expr.text << "' is not a number";
    return {};
  }
  return flag.value;
}

/// DaCe's detected reduction types (dace/frontend/operations.py::
/// detect_reduction_type) from a wcr lambda's body.
namespace {
enum class Reduction { Sum, Product, Min, Max, BitAnd, BitOr, BitXor,
                       Exchange, Custom };
} // namespace

static Reduction reductionOf(const PyExpr &lambda) {
  if (lambda.kind != PyExpr::Kind::Lambda || lambda.params.size() != 2 ||
      lambda.operands.empty())
    return Reduction::Custom;
  const PyExpr &body = *lambda.operands[0];
  const std::string &x = lambda.params[0], &y = lambda.params[1];
  auto isParams = [&](const PyExpr &a, const PyExpr &b) {
    return a.kind == PyExpr::Kind::Name && b.kind == PyExpr::Kind::Name &&
           ((a.name == x && b.name == y) || (a.name == y && b.name == x));
  };
  if (body.kind == PyExpr::Kind::Name && body.name == y)
    return Reduction::Exchange;
  if (body.kind == PyExpr::Kind::Binary &&
      isParams(*body.operands[0], *body.operands[1])) {
    switch (body.op) {
    case PyExpr::Op::Add: return Reduction::Sum;
    case PyExpr::Op::Mul: return Reduction::Product;
    case PyExpr::Op::BitAnd: return Reduction::BitAnd;
    case PyExpr::Op::BitOr: return Reduction::BitOr;
    case PyExpr::Op::BitXor: return Reduction::BitXor;
    default: return Reduction::Custom;
    }
  }
  if (body.kind == PyExpr::Kind::Call && body.operands.size() == 3 &&
      body.operands[0]->kind == PyExpr::Kind::Name &&
      isParams(*body.operands[1], *body.operands[2])) {
    llvm::StringRef name = body.operands[0]->name;
    if (name == "min" || name == "Min")
      return Reduction::Min;
    if (name == "max" || name == "Max")
      return Reduction::Max;
  }
  return Reduction::Custom;
}

std::optional<arith::AtomicRMWKind>
ProgramEmitter::atomicKind(const SymExpr &wcr, Type elementType,
                           bool isUnsigned) {
  if (!wcr.expr)
    return std::nullopt;
  Category c = category(elementType);
  bool isFloat = c == Category::Float;
  if (c == Category::Other || elementType.isInteger(1))
    return std::nullopt;
  switch (reductionOf(*wcr.expr)) {
  case Reduction::Sum:
    return isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  case Reduction::Product:
    return isFloat ? arith::AtomicRMWKind::mulf : arith::AtomicRMWKind::muli;
  case Reduction::Min:
    return isFloat      ? arith::AtomicRMWKind::minnumf
           : isUnsigned ? arith::AtomicRMWKind::minu
                        : arith::AtomicRMWKind::mins;
  case Reduction::Max:
    return isFloat      ? arith::AtomicRMWKind::maxnumf
           : isUnsigned ? arith::AtomicRMWKind::maxu
                        : arith::AtomicRMWKind::maxs;
  case Reduction::BitAnd:
    return isFloat ? std::nullopt
                   : std::optional(arith::AtomicRMWKind::andi);
  case Reduction::BitOr:
    return isFloat ? std::nullopt : std::optional(arith::AtomicRMWKind::ori);
  case Reduction::BitXor:
    return isFloat ? std::nullopt
                   : std::optional(arith::AtomicRMWKind::xori);
  case Reduction::Exchange:
    return arith::AtomicRMWKind::assign;
  case Reduction::Custom:
    break;
  }
  return std::nullopt;
}

CValue ProgramEmitter::emitWcrCombine(const SymExpr &wcr, CValue a,
                                          CValue b) {
  const PyExpr &lambda = *wcr.expr;
  if (lambda.kind != PyExpr::Kind::Lambda || lambda.params.size() != 2) {
    error(wcr.path) << "write-conflict resolution '" << wcr.text
                    << "' is not a lambda of two arguments";
    return {};
  }
  Scope scope;
  scope.values[lambda.params[0]] = a;
  scope.values[lambda.params[1]] = b;
  CValue result = emitExpression(*lambda.operands[0], wcr.path, &scope);
  if (!result)
    return {};
  return convert(result, a.getType(), a.isUnsigned, loc(wcr.path));
}
