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

#include "ProgramEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdfg::dace;

namespace {
/// What kind of C++ arithmetic type a value has.
enum class Category { Bool, Integer, Float, Other };
} // namespace

static Category category(Type type) {
  if (type.isInteger(1))
    return Category::Bool;
  if (type.isIndex() || isa<IntegerType>(type))
    return Category::Integer;
  if (isa<FloatType>(type))
    return Category::Float;
  return Category::Other;
}

static unsigned integerWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

Type mlir::sdfg::dace::signlessType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

/// The C++ type of `a op b` after the usual arithmetic conversions, with
/// `index` standing for a signed 64-bit integer (it stays `index` when both
/// sides are integers of at most 64 bits and one is `index`).
static std::pair<Type, bool> commonType(CValue a, CValue b) {
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
  hadError = true;
  InFlightDiagnostic diagnostic = emitError(loc(path));
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

namespace {

/// Builds one expression; a member of ProgramEmitter's private state only
/// through its public API.
class ExpressionBuilder {
public:
  ExpressionBuilder(ProgramEmitter &emitter, llvm::StringRef path,
                    ProgramEmitter::Scope *scope)
      : e(emitter), b(emitter.builder), path(path), scope(scope),
        location(emitter.loc(path)) {}

  CValue build(const PyExpr &expr);

private:
  CValue fail(const PyExpr &expr, const llvm::Twine &message) {
    e.error(path) << "in '" << expr.str() << "': " << message;
    return {};
  }
  CValue constantInt(int64_t value, Type type) {
    return {arith::ConstantOp::create(b, location, type,
                                      b.getIntegerAttr(type, value)),
            false};
  }
  CValue constantFloat(double value, Type type) {
    return {arith::ConstantOp::create(b, location, type,
                                      b.getFloatAttr(type, value)),
            false};
  }
  CValue name(const PyExpr &expr);
  CValue subscript(const PyExpr &expr);
  CValue binary(const PyExpr &expr, PyExpr::Op op, CValue lhs,
                    CValue rhs);
  CValue power(const PyExpr &expr);
  CValue compare(PyExpr::CompareOp op, CValue lhs, CValue rhs);
  CValue call(const PyExpr &expr);
  CValue mathCall(const PyExpr &expr, llvm::StringRef function,
                      ArrayRef<CValue> args);
  std::optional<Type> castType(llvm::StringRef name, bool &isUnsigned);
  /// The dotted name of a callee (`math.exp`, `dace.float64`).
  static std::string dottedName(const PyExpr &expr);

  ProgramEmitter &e;
  OpBuilder &b;
  llvm::StringRef path;
  ProgramEmitter::Scope *scope;
  Location location;
};

} // namespace

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

CValue ExpressionBuilder::compare(PyExpr::CompareOp op, CValue lhs,
                                      CValue rhs) {
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
    return fail(expr, "arithmetic on complex or vector values is not "
                      "supported");
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
