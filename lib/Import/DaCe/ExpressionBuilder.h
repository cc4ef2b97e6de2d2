//===- ExpressionBuilder.h - Builds one DaCe expression ---------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Private to the importer's expression emitter: the builder of one Python
// expression (names and subscripts, and the dispatch: ExpressionBuilder.cpp;
// operators: ExpressionOperators.cpp; casts and math calls:
// ExpressionCalls.cpp) and C++'s arithmetic conversions that all of them
// apply (ExpressionEmitter.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_EXPRESSIONBUILDER_H
#define SDFGSTREAM_LIB_IMPORT_DACE_EXPRESSIONBUILDER_H

#include "ProgramEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

namespace mlir {
namespace sdfg {
namespace dace {
namespace detail {

/// What kind of C++ arithmetic type a value has.
enum class Category { Bool, Integer, Float, Other };

Category category(Type type);
unsigned integerWidth(Type type);
/// How a diagnostic names `type`.
std::string typeName(Type type);
/// The C++ type of `a op b` after the usual arithmetic conversions, with
/// `index` standing for a signed 64-bit integer (it stays `index` when both
/// sides are integers of at most 64 bits and one is `index`); second: whether
/// it is unsigned.
std::pair<Type, bool> commonType(CValue a, CValue b);

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

} // namespace detail
} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_EXPRESSIONBUILDER_H
