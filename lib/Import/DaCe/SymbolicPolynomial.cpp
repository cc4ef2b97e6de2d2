//===- SymbolicPolynomial.cpp - Symbolic sizes as canonical polynomials ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Expands a symbolic expression into a sum of products (SymbolicPolynomial.h)
// so that two spellings of one size compare equal. Only the ring operations
// are expanded; anything else (division, modulo, a function call) is not a
// polynomial here, and the caller treats such a size as unknown.
//
//===----------------------------------------------------------------------===//

#include "SymbolicPolynomial.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::sdfg::dace;

SymbolicPolynomial SymbolicPolynomial::constant(int64_t value) {
  SymbolicPolynomial result;
  if (value != 0)
    result.terms[{}] = value;
  return result;
}

SymbolicPolynomial SymbolicPolynomial::symbol(const std::string &name) {
  SymbolicPolynomial result;
  result.terms[{name}] = 1;
  return result;
}

/// Adds `coefficient` to the term `monomial` of `terms` (dropping it at 0);
/// false on overflow.
static bool
addTerm(std::map<SymbolicPolynomial::Monomial, int64_t> &terms,
        const SymbolicPolynomial::Monomial &monomial, int64_t coefficient) {
  int64_t &sum = terms[monomial];
  if (llvm::AddOverflow(sum, coefficient, sum))
    return false;
  if (sum == 0)
    terms.erase(monomial);
  return true;
}

std::optional<SymbolicPolynomial>
SymbolicPolynomial::plus(const SymbolicPolynomial &other) const {
  SymbolicPolynomial result = *this;
  for (const auto &[monomial, coefficient] : other.terms)
    if (!addTerm(result.terms, monomial, coefficient))
      return std::nullopt;
  return result;
}

std::optional<SymbolicPolynomial>
SymbolicPolynomial::minus(const SymbolicPolynomial &other) const {
  std::optional<SymbolicPolynomial> negated =
      other.times(SymbolicPolynomial::constant(-1));
  if (!negated)
    return std::nullopt;
  return plus(*negated);
}

std::optional<SymbolicPolynomial>
SymbolicPolynomial::times(const SymbolicPolynomial &other) const {
  SymbolicPolynomial result;
  for (const auto &[a, x] : terms) {
    for (const auto &[b, y] : other.terms) {
      int64_t product;
      if (llvm::MulOverflow(x, y, product))
        return std::nullopt;
      Monomial monomial = a;
      llvm::append_range(monomial, b);
      llvm::sort(monomial);
      if (!addTerm(result.terms, monomial, product))
        return std::nullopt;
    }
  }
  return result;
}

std::optional<int64_t> SymbolicPolynomial::getConstant() const {
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

std::optional<SymbolicPolynomial>
SymbolicPolynomial::get(const PyExpr &expr) {
  using Kind = PyExpr::Kind;
  using Op = PyExpr::Op;
  switch (expr.kind) {
  case Kind::Integer:
    return constant(expr.intValue);
  case Kind::Name:
    return symbol(expr.name);
  case Kind::Call:
    // DaCe 2.0's typed symbol: symbol($N, dtype=dace.int64) is N.
    if (expr.operands.size() == 2 &&
        expr.operands[0]->kind == Kind::Name &&
        expr.operands[0]->name == "symbol" &&
        expr.operands[1]->kind == Kind::Name)
      return symbol(expr.operands[1]->name);
    return std::nullopt;
  case Kind::Unary: {
    std::optional<SymbolicPolynomial> operand = get(*expr.operands[0]);
    if (!operand)
      return std::nullopt;
    if (expr.op == Op::Plus)
      return operand;
    if (expr.op == Op::Neg)
      return operand->times(constant(-1));
    return std::nullopt;
  }
  case Kind::Binary: {
    std::optional<SymbolicPolynomial> lhs = get(*expr.operands[0]);
    if (!lhs)
      return std::nullopt;
    if (expr.op == Op::Pow) {
      // A small non-negative literal exponent (`N**2`).
      const PyExpr &exponent = *expr.operands[1];
      if (exponent.kind != Kind::Integer || exponent.intValue < 0 ||
          exponent.intValue > 16)
        return std::nullopt;
      std::optional<SymbolicPolynomial> result = constant(1);
      for (int64_t i = 0; i < exponent.intValue && result; ++i)
        result = result->times(*lhs);
      return result;
    }
    std::optional<SymbolicPolynomial> rhs = get(*expr.operands[1]);
    if (!rhs)
      return std::nullopt;
    switch (expr.op) {
    case Op::Add:
      return lhs->plus(*rhs);
    case Op::Sub:
      return lhs->minus(*rhs);
    case Op::Mul:
      return lhs->times(*rhs);
    default:
      return std::nullopt;
    }
  }
  default:
    return std::nullopt;
  }
}

bool mlir::sdfg::dace::samePolynomial(const PyExpr &a, const PyExpr &b) {
  std::optional<SymbolicPolynomial> x = SymbolicPolynomial::get(a);
  std::optional<SymbolicPolynomial> y = SymbolicPolynomial::get(b);
  return x && y && *x == *y;
}
