//===- SymbolicPolynomialTest.cpp - DaCe sizes as canonical polynomials ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The spellings DaCe gives one size (SymPy's str() up to 2.0.0a3, the typed
// 2.0 form with `$N` and `symbol($N, dtype=...)`, factored or expanded)
// are one polynomial; different sizes, and what is not a polynomial
// (division, calls, overflow), never compare equal.
//
//===----------------------------------------------------------------------===//

#include "SymbolicPolynomial.h"

#include "gtest/gtest.h"

using namespace mlir::sdfg::dace;

namespace {
std::optional<SymbolicPolynomial> polynomial(llvm::StringRef text) {
  llvm::Expected<PyExprPtr> expression = parsePythonExpression(text);
  if (!expression) {
    ADD_FAILURE() << text.str() << ": "
                  << llvm::toString(expression.takeError());
    return std::nullopt;
  }
  return SymbolicPolynomial::get(**expression);
}

bool same(llvm::StringRef a, llvm::StringRef b) {
  std::optional<SymbolicPolynomial> x = polynomial(a), y = polynomial(b);
  return x && y && *x == *y;
}

TEST(SymbolicPolynomial, SpellingsOfOneSize) {
  EXPECT_TRUE(same("N - 2", "-2 + $N"));
  EXPECT_TRUE(same("N - 2", "symbol($N, dtype=dace.int64) - 2"));
  EXPECT_TRUE(same("(M - 2)*(N - 2)", "M*N - 2*M - 2*N + 4"));
  EXPECT_TRUE(same("(-2 + $M)*(-2 + $N)", "$N*$M + 4 - 2*($M + $N)"));
  EXPECT_TRUE(same("$M**2", "M*M"));
  EXPECT_TRUE(same("2 + $N*(1 + $M)", "N*M + N + 2"));
  EXPECT_TRUE(same("-(-N)", "+N"));
  EXPECT_TRUE(same("N - N", "0"));
}

TEST(SymbolicPolynomial, DifferentSizes) {
  EXPECT_FALSE(same("N - 2", "N - 4"));
  EXPECT_FALSE(same("M*N", "M + N"));
  EXPECT_FALSE(same("N", "M"));
  EXPECT_FALSE(same("N**2", "N"));
}

TEST(SymbolicPolynomial, Constants) {
  EXPECT_EQ(polynomial("4i64 * 3 - 2")->getConstant(), 10);
  EXPECT_EQ(polynomial("N - N + 7")->getConstant(), 7);
  EXPECT_EQ(polynomial("N + 1")->getConstant(), std::nullopt);
}

TEST(SymbolicPolynomial, NotPolynomials) {
  EXPECT_FALSE(polynomial("N / 2"));
  EXPECT_FALSE(polynomial("N // 2"));
  EXPECT_FALSE(polynomial("Mod(N, 4)"));
  EXPECT_FALSE(polynomial("N ** M"));
  EXPECT_FALSE(polynomial("N ** 100"));
  EXPECT_FALSE(polynomial("9223372036854775807 + 1"));
  EXPECT_FALSE(polynomial("4611686018427387904 * 2 * N"));
  EXPECT_FALSE(same("N / 2", "N / 2"));
}
} // namespace
