//===- SymbolicPolynomial.h - Sizes as canonical polynomials ----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// DaCe writes the same size in many spellings: `N - 4`, `-4 + $N`,
// `symbol($N, dtype=dace.int64) - 4`, `(N - 2)*(M - 2)` or its expanded
// form. Deciding whether two of them are equal (is a transient's stride the
// product of its inner sizes?) compares them as polynomials with integer
// coefficients over the symbols, in one canonical sum-of-products form,
// never as strings.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_SYMBOLICPOLYNOMIAL_H
#define SDFGSTREAM_LIB_IMPORT_DACE_SYMBOLICPOLYNOMIAL_H

#include "PythonExpression.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace sdfg {
namespace dace {

/// A polynomial with int64 coefficients over symbol names: each monomial (a
/// sorted list of names, repeated for powers) maps to its non-zero
/// coefficient. Equal polynomials compare equal however they were written.
class SymbolicPolynomial {
public:
  using Monomial = std::vector<std::string>;

  SymbolicPolynomial() = default;
  static SymbolicPolynomial constant(int64_t value);
  static SymbolicPolynomial symbol(const std::string &name);

  /// The polynomial of a symbolic expression made of integer literals,
  /// symbols (`N`, `$N`, `symbol($N, dtype=...)`), `+`, `-`, `*` and
  /// `**` with a small literal exponent; nullopt for anything else (a
  /// division, a function call) or on int64 overflow.
  static std::optional<SymbolicPolynomial> get(const PyExpr &expr);

  /// Sum, difference and product; nullopt on int64 overflow.
  std::optional<SymbolicPolynomial> plus(const SymbolicPolynomial &other) const;
  std::optional<SymbolicPolynomial> minus(const SymbolicPolynomial &other) const;
  std::optional<SymbolicPolynomial> times(const SymbolicPolynomial &other) const;

  /// The value of a polynomial without symbols.
  std::optional<int64_t> getConstant() const;

  bool operator==(const SymbolicPolynomial &other) const {
    return terms == other.terms;
  }
  bool operator!=(const SymbolicPolynomial &other) const {
    return !(*this == other);
  }

private:
  std::map<Monomial, int64_t> terms;
};

/// Whether two symbolic expressions are the same polynomial (false when
/// either is not a polynomial).
bool samePolynomial(const PyExpr &a, const PyExpr &b);

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_SYMBOLICPOLYNOMIAL_H
