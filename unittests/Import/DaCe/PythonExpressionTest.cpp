//===- PythonExpressionTest.cpp - The DaCe Python subset parser -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The strings that DaCe writes into SDFG files (symbolic expressions,
// interstate conditions and assignments, tasklet code, wcr lambdas) parsed
// with Python's precedence, and every way the parser refuses its input.
//
//===----------------------------------------------------------------------===//

#include "PythonExpression.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::sdfg::dace;
using llvm::StringRef;

namespace {
/// The fully parenthesised text of `text`, or "error: ..." for a failure.
std::string parse(StringRef text) {
  llvm::Expected<PyExprPtr> expression = parsePythonExpression(text);
  if (!expression)
    return "error: " + llvm::toString(expression.takeError());
  return (*expression)->str();
}

PyExprPtr parseOrNull(StringRef text) {
  llvm::Expected<PyExprPtr> expression = parsePythonExpression(text);
  if (!expression) {
    ADD_FAILURE() << text.str() << ": "
                  << llvm::toString(expression.takeError());
    return nullptr;
  }
  return std::move(*expression);
}

struct Failure {
  std::string message;
  size_t offset = StringRef::npos;
};

Failure failureOf(llvm::Error error) {
  Failure failure;
  llvm::handleAllErrors(std::move(error), [&](const PyParseError &e) {
    failure.message = e.message;
    failure.offset = e.offset;
  });
  return failure;
}

Failure expressionError(StringRef text) {
  llvm::Expected<PyExprPtr> expression = parsePythonExpression(text);
  if (expression)
    return {"no error: " + (*expression)->str(), StringRef::npos};
  return failureOf(expression.takeError());
}

Failure statementsError(StringRef text) {
  llvm::Expected<std::vector<PyStatement>> statements =
      parsePythonStatements(text);
  if (statements)
    return {"no error", StringRef::npos};
  return failureOf(statements.takeError());
}

std::string spellAugmented(PyExpr::Op op) {
  switch (op) {
  case PyExpr::Op::Add:
    return "+=";
  case PyExpr::Op::Sub:
    return "-=";
  case PyExpr::Op::Mul:
    return "*=";
  case PyExpr::Op::Div:
    return "/=";
  case PyExpr::Op::FloorDiv:
    return "//=";
  case PyExpr::Op::Mod:
    return "%=";
  case PyExpr::Op::Pow:
    return "**=";
  case PyExpr::Op::LShift:
    return "<<=";
  case PyExpr::Op::RShift:
    return ">>=";
  case PyExpr::Op::BitAnd:
    return "&=";
  case PyExpr::Op::BitOr:
    return "|=";
  case PyExpr::Op::BitXor:
    return "^=";
  default:
    return "?=";
  }
}

/// Prints `statements` one per line, blocks indented by two spaces.
void printStatements(const std::vector<PyStatement> &statements,
                     const std::string &indent, std::string &result) {
  for (const PyStatement &statement : statements) {
    result += indent;
    switch (statement.kind) {
    case PyStatement::Kind::Pass:
      result += "pass\n";
      continue;
    case PyStatement::Kind::For:
      result += "for " + statement.target->str() + " in " +
                statement.value->str() + ":\n";
      break;
    case PyStatement::Kind::While:
      result += "while " + statement.value->str() + ":\n";
      break;
    case PyStatement::Kind::If:
      result += "if " + statement.value->str() + ":\n";
      break;
    case PyStatement::Kind::Simple:
      if (statement.target)
        result += statement.target->str() + " " +
                  (statement.augmentedOp == PyExpr::Op::None
                       ? std::string("=")
                       : spellAugmented(statement.augmentedOp)) +
                  " ";
      result += statement.value->str() + "\n";
      continue;
    }
    printStatements(statement.body, indent + "  ", result);
    if (!statement.orelse.empty()) {
      result += indent + "else:\n";
      printStatements(statement.orelse, indent + "  ", result);
    }
  }
}

/// The statements of `text`, one per line, or "error: ...".
std::string statements(StringRef text) {
  llvm::Expected<std::vector<PyStatement>> parsed = parsePythonStatements(text);
  if (!parsed)
    return "error: " + llvm::toString(parsed.takeError());
  std::string result;
  printStatements(*parsed, "", result);
  return result;
}

std::string repeat(StringRef text, size_t count) {
  std::string result;
  for (size_t i = 0; i < count; ++i)
    result += text;
  return result;
}

//===----------------------------------------------------------------------===//
// Precedence and associativity
//===----------------------------------------------------------------------===//

TEST(PythonExpressionTest, ArithmeticPrecedence) {
  EXPECT_EQ(parse("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(parse("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(parse("2*N + 1"), "((2 * N) + 1)");
  EXPECT_EQ(parse("a * b // c % d / e"), "((((a * b) // c) % d) / e)");
  EXPECT_EQ(parse("a - b + c"), "((a - b) + c)");
  EXPECT_EQ(parse("(a // b) % c"), "((a // b) % c)");
}

TEST(PythonExpressionTest, BitwisePrecedence) {
  EXPECT_EQ(parse("a | b ^ c & d << e + f * g"),
            "(a | (b ^ (c & (d << (e + (f * g))))))");
  EXPECT_EQ(parse("a & b | c & d"), "((a & b) | (c & d))");
  EXPECT_EQ(parse("a << b >> c"), "((a << b) >> c)");
  EXPECT_EQ(parse("a < b | c"), "(a < (b | c))");
}

TEST(PythonExpressionTest, PowerAndUnary) {
  EXPECT_EQ(parse("-x ** 2"), "(-(x ** 2))");
  EXPECT_EQ(parse("2**-1"), "(2 ** (-1))");
  EXPECT_EQ(parse("a ** b ** c"), "(a ** (b ** c))");
  EXPECT_EQ(parse("-2 ** -x ** 2"), "(-(2 ** (-(x ** 2))))");
  EXPECT_EQ(parse("~a + -b * +c"), "((~a) + ((-b) * (+c)))");
  EXPECT_EQ(parse("--a"), "(-(-a))");
  EXPECT_EQ(parse("N**2"), "(N ** 2)");
  EXPECT_EQ(parse("f(x) ** a[i]"), "(f(x) ** a[i])");
  EXPECT_EQ(parse("-1"), "(-1)");

  PyExprPtr negated = parseOrNull("-x**2");
  ASSERT_TRUE(negated);
  EXPECT_EQ(negated->kind, PyExpr::Kind::Unary);
  EXPECT_EQ(negated->op, PyExpr::Op::Neg);
  EXPECT_EQ(negated->operands[0]->op, PyExpr::Op::Pow);
}

TEST(PythonExpressionTest, BooleanPrecedence) {
  EXPECT_EQ(parse("not a and b or c"), "(((not a) and b) or c)");
  EXPECT_EQ(parse("a or b and not c"), "(a or (b and (not c)))");
  EXPECT_EQ(parse("a or b or c"), "(a or b or c)");
  EXPECT_EQ(parse("a and b and c and d"), "(a and b and c and d)");
  EXPECT_EQ(parse("not a < b"), "(not (a < b))");
  EXPECT_EQ(parse("not not a"), "(not (not a))");
  EXPECT_EQ(parse("(not (i < 10))"), "(not (i < 10))");

  PyExprPtr orChain = parseOrNull("a or b or c");
  ASSERT_TRUE(orChain);
  EXPECT_EQ(orChain->kind, PyExpr::Kind::BoolOp);
  EXPECT_EQ(orChain->op, PyExpr::Op::Or);
  EXPECT_EQ(orChain->operands.size(), 3u);
}

TEST(PythonExpressionTest, ChainedComparisons) {
  PyExprPtr chain = parseOrNull("0 <= i < N");
  ASSERT_TRUE(chain);
  EXPECT_EQ(chain->kind, PyExpr::Kind::Compare);
  ASSERT_EQ(chain->operands.size(), 3u);
  ASSERT_EQ(chain->compareOps.size(), 2u);
  EXPECT_EQ(chain->compareOps[0], PyExpr::CompareOp::Le);
  EXPECT_EQ(chain->compareOps[1], PyExpr::CompareOp::Lt);
  EXPECT_EQ(chain->str(), "(0 <= i < N)");

  EXPECT_EQ(parse("a == b != c > d >= e"), "(a == b != c > d >= e)");
  EXPECT_EQ(parse("(a < b) < c"), "((a < b) < c)");
  EXPECT_EQ(parse("a + 1 < b * 2"), "((a + 1) < (b * 2))");
}

TEST(PythonExpressionTest, ConditionalAndLambda) {
  EXPECT_EQ(parse("a if b else c if d else e"),
            "(a if b else (c if d else e))");
  EXPECT_EQ(parse("a or b if c and d else e"),
            "((a or b) if (c and d) else e)");
  EXPECT_EQ(parse("lambda x, y: x + y"), "(lambda x, y: (x + y))");
  EXPECT_EQ(parse("lambda: 0"), "(lambda: 0)");
  EXPECT_EQ(parse("lambda a: lambda b: a if b else 0"),
            "(lambda a: (lambda b: (a if b else 0)))");
  EXPECT_EQ(parse("reduce(lambda a, b: a + b, x)"),
            "reduce((lambda a, b: (a + b)), x)");

  PyExprPtr ifElse = parseOrNull("x if c else y");
  ASSERT_TRUE(ifElse);
  EXPECT_EQ(ifElse->kind, PyExpr::Kind::IfElse);
  EXPECT_EQ(ifElse->operands[0]->name, "c");
  EXPECT_EQ(ifElse->operands[1]->name, "x");
  EXPECT_EQ(ifElse->operands[2]->name, "y");

  PyExprPtr lambda = parseOrNull("lambda x, y: x");
  ASSERT_TRUE(lambda);
  EXPECT_EQ(lambda->kind, PyExpr::Kind::Lambda);
  EXPECT_EQ(lambda->params, (std::vector<std::string>{"x", "y"}));
}

TEST(PythonExpressionTest, Primaries) {
  EXPECT_EQ(parse("a.b.c(d)[e]"), "a.b.c(d)[e]");
  EXPECT_EQ(parse("f(x)(y)"), "f(x)(y)");
  EXPECT_EQ(parse("f()"), "f()");
  EXPECT_EQ(parse("f(x,)"), "f(x)");
  EXPECT_EQ(parse("a[i,]"), "a[i]");
  EXPECT_EQ(parse("(a + b).c"), "(a + b).c");
  EXPECT_EQ(parse("(1).real"), "(1).real");

  PyExprPtr subscript = parseOrNull("a[i, j]");
  ASSERT_TRUE(subscript);
  EXPECT_EQ(subscript->kind, PyExpr::Kind::Subscript);
  ASSERT_EQ(subscript->operands.size(), 3u);
  EXPECT_EQ(subscript->str(), "a[i, j]");

  PyExprPtr attribute = parseOrNull("dace.float64");
  ASSERT_TRUE(attribute);
  EXPECT_EQ(attribute->kind, PyExpr::Kind::Attribute);
  EXPECT_EQ(attribute->name, "float64");
  EXPECT_EQ(attribute->operands[0]->name, "dace");
}

TEST(PythonExpressionTest, Tuples) {
  EXPECT_EQ(parse("a, b"), "(a, b)");
  EXPECT_EQ(parse("a, b,"), "(a, b)");
  EXPECT_EQ(parse("(a,)"), "(a,)");
  EXPECT_EQ(parse("()"), "()");
  EXPECT_EQ(parse("(a, (b, c))"), "(a, (b, c))");
  PyExprPtr tuple = parseOrNull("(a, b)");
  ASSERT_TRUE(tuple);
  EXPECT_EQ(tuple->kind, PyExpr::Kind::Tuple);
  EXPECT_EQ(tuple->operands.size(), 2u);
}

TEST(PythonExpressionTest, KeywordArguments) {
  PyExprPtr call = parseOrNull("symbol($x, dtype=dace.int64)");
  ASSERT_TRUE(call);
  EXPECT_EQ(call->kind, PyExpr::Kind::Call);
  ASSERT_EQ(call->operands.size(), 2u);
  EXPECT_EQ(call->operands[0]->name, "symbol");
  EXPECT_TRUE(call->operands[1]->dollar);
  ASSERT_EQ(call->keywords.size(), 1u);
  EXPECT_EQ(call->keywords[0].first, "dtype");
  EXPECT_EQ(call->keywords[0].second->str(), "dace.int64");
  EXPECT_EQ(call->str(), "symbol($x, dtype=dace.int64)");

  EXPECT_EQ(parse("symbol(N, positive=True)"), "symbol(N, positive=True)");
  EXPECT_EQ(parse("f(a=1, b=x == y)"), "f(a=1, b=(x == y))");
  EXPECT_EQ(parse("f(a=1,)"), "f(a=1)");
}

//===----------------------------------------------------------------------===//
// Literals and names
//===----------------------------------------------------------------------===//

TEST(PythonExpressionTest, IntegerLiterals) {
  struct {
    const char *text;
    int64_t value;
  } cases[] = {
      {"42", 42},
      {"0", 0},
      {"00", 0},
      {"0x1F", 31},
      {"0X1f", 31},
      {"0o17", 15},
      {"0O17", 15},
      {"0b101", 5},
      {"0B101", 5},
      {"1_000_000", 1000000},
      {"0x_ff", 255},
      {"0b_1_0", 2},
      {"9223372036854775807", INT64_MAX},
      {"0x7fffffffffffffff", INT64_MAX},
  };
  for (const auto &c : cases) {
    PyExprPtr literal = parseOrNull(c.text);
    ASSERT_TRUE(literal) << c.text;
    EXPECT_EQ(literal->kind, PyExpr::Kind::Integer) << c.text;
    EXPECT_EQ(literal->intValue, c.value) << c.text;
    EXPECT_TRUE(literal->suffix.empty()) << c.text;
  }
}

TEST(PythonExpressionTest, FloatLiterals) {
  struct {
    const char *text;
    double value;
    const char *printed;
  } cases[] = {
      {"1.", 1.0, "1.0"},
      {".5", 0.5, "0.5"},
      {"1e-3", 1e-3, "0.001"},
      {"1.5E+3", 1500.0, "1500.0"},
      {"1e-05", 1e-05, "1e-05"},
      {"1_0.2_5", 10.25, "10.25"},
      {"1E5", 1e5, "100000.0"},
      {"0.1", 0.1, "0.1"},
      {"1e400", HUGE_VAL, "inf"},
      {"3.141592653589793", 3.141592653589793, "3.141592653589793"},
      {"1e16", 1e16, "1e+16"},
      {"0.0001", 1e-4, "0.0001"},
      {"0.0", 0.0, "0.0"},
      {"123456.789", 123456.789, "123456.789"},
      {"1.5e300", 1.5e300, "1.5e+300"},
      {"12345678901234567.0", 12345678901234567.0, "1.2345678901234568e+16"},
  };
  for (const auto &c : cases) {
    PyExprPtr literal = parseOrNull(c.text);
    ASSERT_TRUE(literal) << c.text;
    EXPECT_EQ(literal->kind, PyExpr::Kind::Float) << c.text;
    EXPECT_EQ(literal->floatValue, c.value) << c.text;
    EXPECT_EQ(literal->str(), c.printed) << c.text;
  }
}

TEST(PythonExpressionTest, ImaginaryLiterals) {
  PyExprPtr literal = parseOrNull("2.0j");
  ASSERT_TRUE(literal);
  EXPECT_EQ(literal->kind, PyExpr::Kind::Imaginary);
  EXPECT_EQ(literal->floatValue, 2.0);
  EXPECT_EQ(literal->str(), "2.0j");
  EXPECT_EQ(parse("3J"), "3.0j");
  EXPECT_EQ(parse("1e3j"), "1000.0j");
  EXPECT_EQ(parse("1.0 + 2.0j"), "(1.0 + 2.0j)");
}

TEST(PythonExpressionTest, BoolAndNone) {
  PyExprPtr t = parseOrNull("True");
  PyExprPtr f = parseOrNull("False");
  PyExprPtr n = parseOrNull("None");
  ASSERT_TRUE(t && f && n);
  EXPECT_EQ(t->kind, PyExpr::Kind::Bool);
  EXPECT_EQ(t->intValue, 1);
  EXPECT_EQ(f->kind, PyExpr::Kind::Bool);
  EXPECT_EQ(f->intValue, 0);
  EXPECT_EQ(n->kind, PyExpr::Kind::None);
  EXPECT_EQ(parse("True and not False or None"),
            "((True and (not False)) or None)");
  // Only the capitalised spellings are constants.
  EXPECT_EQ(parseOrNull("true")->kind, PyExpr::Kind::Name);
}

TEST(PythonExpressionTest, TypedLiterals) {
  struct {
    const char *text;
    PyExpr::Kind kind;
    const char *suffix;
    const char *printed;
  } cases[] = {
      {"4i64", PyExpr::Kind::Integer, "i64", "4i64"},
      {"3u8", PyExpr::Kind::Integer, "u8", "3u8"},
      {"7i8", PyExpr::Kind::Integer, "i8", "7i8"},
      {"7u64", PyExpr::Kind::Integer, "u64", "7u64"},
      {"0x10i32", PyExpr::Kind::Integer, "i32", "16i32"},
      {"4f32", PyExpr::Kind::Integer, "f32", "4f32"},
      {"1.0f32", PyExpr::Kind::Float, "f32", "1.0f32"},
      {"2.5f64", PyExpr::Kind::Float, "f64", "2.5f64"},
      {"1e-3f16", PyExpr::Kind::Float, "f16", "0.001f16"},
      {"1.0c64", PyExpr::Kind::Float, "c64", "1.0c64"},
      {"2.0jc128", PyExpr::Kind::Imaginary, "c128", "2.0jc128"},
  };
  for (const auto &c : cases) {
    PyExprPtr literal = parseOrNull(c.text);
    ASSERT_TRUE(literal) << c.text;
    EXPECT_EQ(literal->kind, c.kind) << c.text;
    EXPECT_EQ(literal->suffix, c.suffix) << c.text;
    EXPECT_EQ(literal->str(), c.printed) << c.text;
  }
  // 0xff32 is a hexadecimal number, not 0xff with a suffix.
  PyExprPtr hex = parseOrNull("0xff32");
  ASSERT_TRUE(hex);
  EXPECT_EQ(hex->intValue, 0xff32);
  EXPECT_TRUE(hex->suffix.empty());
}

TEST(PythonExpressionTest, ParenthesisedSuffix) {
  PyExprPtr complex = parseOrNull("(1.0 + 2.0j)c128");
  ASSERT_TRUE(complex);
  EXPECT_EQ(complex->kind, PyExpr::Kind::Binary);
  EXPECT_EQ(complex->op, PyExpr::Op::Add);
  EXPECT_EQ(complex->suffix, "c128");
  EXPECT_EQ(complex->offset, 0u);
  EXPECT_EQ(complex->str(), "(1.0 + 2.0j)c128");
  EXPECT_EQ(complex->operands[1]->kind, PyExpr::Kind::Imaginary);

  EXPECT_EQ(parse("(N)i64"), "(N)i64");
  EXPECT_EQ(parse("(f(x))i32 + 1"), "((f(x))i32 + 1)");
  EXPECT_EQ(parse("(1.0 + 2.0j)c128 * x"), "((1.0 + 2.0j)c128 * x)");
  // A blank between ')' and the suffix makes it a name: trailing garbage.
  EXPECT_EQ(expressionError("(a) i64").message,
            "unexpected text after the expression, found 'i64'");
  EXPECT_EQ(expressionError("((1)i64)i32").message,
            "type suffix 'i32' on an expression that already has one");
  EXPECT_EQ(expressionError("(a)i65").message,
            "unexpected text after the expression, found 'i65'");
}

TEST(PythonExpressionTest, Names) {
  PyExprPtr dollar = parseOrNull("$N");
  ASSERT_TRUE(dollar);
  EXPECT_EQ(dollar->kind, PyExpr::Kind::Name);
  EXPECT_EQ(dollar->name, "N");
  EXPECT_TRUE(dollar->dollar);
  EXPECT_EQ(dollar->offset, 0u);
  EXPECT_EQ(dollar->str(), "$N");

  PyExprPtr unknown = parseOrNull("$?");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->name, "?");
  EXPECT_TRUE(unknown->dollar);
  EXPECT_EQ(unknown->str(), "$?");

  PyExprPtr plain = parseOrNull("__in1");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->name, "__in1");
  EXPECT_FALSE(plain->dollar);

  EXPECT_EQ(parse("$N - 1"), "($N - 1)");
  EXPECT_EQ(parse("$?+$_a1"), "($? + $_a1)");
}

TEST(PythonExpressionTest, Offsets) {
  PyExprPtr e = parseOrNull("  a + f(b, k=c)[d]");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 2u);                            // a + ...
  EXPECT_EQ(e->operands[1]->offset, 6u);               // f(...)[d]
  EXPECT_EQ(e->operands[1]->operands[1]->offset, 16u); // d
  const PyExpr &call = *e->operands[1]->operands[0];
  EXPECT_EQ(call.keywords[0].second->offset, 13u); // c
  PyExprPtr parenthesised = parseOrNull("x * (y + z)");
  ASSERT_TRUE(parenthesised);
  EXPECT_EQ(parenthesised->operands[1]->offset, 4u);
}

TEST(PythonExpressionTest, DaCeExamples) {
  struct {
    const char *text;
    const char *printed;
  } cases[] = {
      {"(i < N)", "(i < N)"},
      {"(not (i < 10))", "(not (i < 10))"},
      {"(arr[(i - 1), j])", "arr[(i - 1), j]"},
      {"(lambda x, y: (x + y))", "(lambda x, y: (x + y))"},
      {"N - 1", "(N - 1)"},
      {"N**2", "(N ** 2)"},
      {"Mod(k + 1, 2)", "Mod((k + 1), 2)"},
      {"int_floor(N, 32)", "int_floor(N, 32)"},
      {"ceiling(N/512)", "ceiling((N / 512))"},
      {"Min(N - 1, 31)", "Min((N - 1), 31)"},
      {"Eq(i, 0)", "Eq(i, 0)"},
      {"$N - 1", "($N - 1)"},
      {"symbol($x, dtype=dace.int64)", "symbol($x, dtype=dace.int64)"},
      {"__int_floor($N, 4i64)", "__int_floor($N, 4i64)"},
      {"(1.0 + 2.0j)c128", "(1.0 + 2.0j)c128"},
      {"$?", "$?"},
      {"2*N + 1", "((2 * N) + 1)"},
      {"-1", "(-1)"},
      {"1e-05", "1e-05"},
      {"(min(a, b) if (a > 0) else max(a, b))",
       "(min(a, b) if (a > 0) else max(a, b))"},
      {"math.exp(-(__in ** 2))", "math.exp((-(__in ** 2)))"},
      {"dace.float64(__in)", "dace.float64(__in)"},
      {"a + b\n", "(a + b)"},
      {"  a + b  \n", "(a + b)"},
      {"a + b  # why\n", "(a + b)"},
      {"(a +\n b)", "(a + b)"},
  };
  for (const auto &c : cases)
    EXPECT_EQ(parse(c.text), c.printed) << c.text;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

TEST(PythonStatementsTest, DaCeExamples) {
  EXPECT_EQ(statements("i = (i + 1)"), "i = (i + 1)\n");
  EXPECT_EQ(statements("__out = (__in1 + (__in2 * 0.5))"),
            "__out = (__in1 + (__in2 * 0.5))\n");
  EXPECT_EQ(statements("__out = dace.float64(__in)"),
            "__out = dace.float64(__in)\n");
  EXPECT_EQ(statements("__out = math.exp(-(__in ** 2))"),
            "__out = math.exp((-(__in ** 2)))\n");
  EXPECT_EQ(statements("__out = (min(a, b) if (a > 0) else max(a, b))"),
            "__out = (min(a, b) if (a > 0) else max(a, b))\n");
  EXPECT_EQ(statements("out = (a // b) % c"), "out = ((a // b) % c)\n");
  EXPECT_EQ(statements("tmp = a * 2\nout = tmp + 1"),
            "tmp = (a * 2)\nout = (tmp + 1)\n");
}

TEST(PythonStatementsTest, Forms) {
  llvm::Expected<std::vector<PyStatement>> parsed =
      parsePythonStatements("a[i, j] = e\nf(x)\nb, c = c, b\n");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  ASSERT_EQ(parsed->size(), 3u);
  const PyStatement &store = (*parsed)[0];
  EXPECT_EQ(store.offset, 0u);
  ASSERT_TRUE(store.target);
  EXPECT_EQ(store.target->kind, PyExpr::Kind::Subscript);
  EXPECT_EQ(store.target->str(), "a[i, j]");
  EXPECT_EQ(store.augmentedOp, PyExpr::Op::None);
  const PyStatement &bare = (*parsed)[1];
  EXPECT_EQ(bare.offset, 12u);
  EXPECT_FALSE(bare.target);
  EXPECT_EQ(bare.value->str(), "f(x)");
  const PyStatement &swap = (*parsed)[2];
  EXPECT_EQ(swap.offset, 17u);
  EXPECT_EQ(swap.target->kind, PyExpr::Kind::Tuple);
  EXPECT_EQ(swap.target->operands.size(), 2u);
  EXPECT_EQ(swap.value->kind, PyExpr::Kind::Tuple);

  EXPECT_EQ(statements("(a, (b, c[0])) = x"), "(a, (b, c[0])) = x\n");
  EXPECT_EQ(statements("a, = x"), "(a,) = x\n");
}

TEST(PythonStatementsTest, AugmentedAssignments) {
  for (const char *op : {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=",
                         ">>=", "&=", "|=", "^="}) {
    std::string text = std::string("x ") + op + " y";
    EXPECT_EQ(statements(text), text + "\n");
    std::string indexed = std::string("a[i] ") + op + " 2";
    EXPECT_EQ(statements(indexed), indexed + "\n");
  }
  EXPECT_EQ(statements("x += 1, 2"), "x += (1, 2)\n");
}

TEST(PythonStatementsTest, Layout) {
  EXPECT_EQ(statements(""), "");
  EXPECT_EQ(statements("\n\n  \n# only a comment\n"), "");
  EXPECT_EQ(statements("a = 1; b = 2"), "a = 1\nb = 2\n");
  EXPECT_EQ(statements("a = 1;"), "a = 1\n");
  EXPECT_EQ(statements("\n# c\n  \nx = 1  # trailing\n\n"), "x = 1\n");
  EXPECT_EQ(statements("x = (a +\n     b)\ny = f(1,\n 2)"),
            "x = (a + b)\ny = f(1, 2)\n");
  EXPECT_EQ(statements("x = [a +\n# inside\n b]"),
            "error: offset 4: list displays are not supported");
  EXPECT_EQ(statements("x = a + \\\n    b"), "x = (a + b)\n");
  EXPECT_EQ(statements("a = 1\r\nb = 2\r\n"), "a = 1\nb = 2\n");
  // A uniformly indented block, as DaCe sometimes writes tasklet code.
  EXPECT_EQ(statements("    a = 1\n    b = 2\n\n    c = a; d = b\n"),
            "a = 1\nb = 2\nc = a\nd = b\n");
  EXPECT_EQ(statements("\n\ta = 1\n\tb = 2"), "a = 1\nb = 2\n");
  EXPECT_EQ(statements("x = (a,\nb)\n  # comment indented differently\ny = 2"),
            "x = (a, b)\ny = 2\n");
}

TEST(PythonStatementsTest, Indentation) {
  Failure deeper = statementsError("  a = 1\n    b = 2");
  EXPECT_EQ(deeper.message, "unexpected indentation");
  EXPECT_EQ(deeper.offset, 12u);
  Failure shallower = statementsError("    a = 1\n  b = 2");
  EXPECT_EQ(shallower.message,
            "indentation does not match the first statement's");
  EXPECT_EQ(shallower.offset, 12u);
  EXPECT_EQ(statementsError("\ta = 1\n        b = 2").message,
            "indentation does not match the first statement's");
}

TEST(PythonStatementsTest, CompoundStatements) {
  EXPECT_EQ(statements("x = a\nfor k in range(K):\n    x = x * 2\n    y = x\n"
                       "z = x"),
            "x = a\nfor k in range(K):\n  x = (x * 2)\n  y = x\nz = x\n");
  EXPECT_EQ(statements("while k < n:\n\tk += 1\n"),
            "while (k < n):\n  k += 1\n");
  // elif is an else holding one if; pass is a statement of its own.
  EXPECT_EQ(statements("if a:\n  x = 1\nelif b:\n  pass\nelse:\n  x = 2"),
            "if a:\n  x = 1\nelse:\n  if b:\n    pass\n  else:\n    x = 2\n");
  // Nested blocks, a suite on the header's line, a uniformly indented body.
  EXPECT_EQ(statements("  for i in range(3):\n    if i > 0: x += i; y = 1\n"
                       "    z = 2\n  w = 3"),
            "for i in range(3):\n  if (i > 0):\n    x += i\n    y = 1\n  "
            "z = 2\nw = 3\n");
  EXPECT_EQ(statements("if a:\n  for i in range(2):\n    x = i\nelse:\n  x = 0"),
            "if a:\n  for i in range(2):\n    x = i\nelse:\n  x = 0\n");

  std::vector<PyStatement> parsed =
      cantFail(parsePythonStatements("x = 0\nfor k in range(4):\n  x += k"));
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[1].kind, PyStatement::Kind::For);
  EXPECT_EQ(parsed[1].offset, 6u);
  EXPECT_EQ(parsed[1].target->name, "k");
  EXPECT_EQ(parsed[1].value->str(), "range(4)");
  ASSERT_EQ(parsed[1].body.size(), 1u);
  EXPECT_EQ(parsed[1].body[0].offset, 27u);
}

TEST(PythonStatementsTest, CompoundStatementErrors) {
  struct {
    const char *text;
    const char *message;
    size_t offset;
  } cases[] = {
      {"for k in range(3):\nx = 1", "expected an indented block", 19},
      {"for k in range(3):", "expected an indented block", 18},
      {"if a\n  x = 1", "expected ':', found newline", 4},
      {"for k range(3):\n  x", "expected 'in', found 'range'", 6},
      {"for a, b in c:\n  x", "a tuple as the loop variable is not supported",
       5},
      {"for 1 in c:\n  x", "expected the loop variable's name, found '1'", 4},
      {"for k in c:\n  x\nelse:\n  y",
       "'for' with an 'else' block is not supported", 16},
      {"while a:\n  x\nelse:\n  y",
       "'while' with an 'else' block is not supported", 13},
      {"else:\n  x = 1", "'else' without a matching 'if'", 0},
      {"x = 1\nelif a:\n  x = 1", "'elif' without a matching 'if'", 6},
      {"x = 1; if a: y = 2", "'if' must start its own line", 7},
      {"if a:\n    x = 1\n  y = 2",
       "unindent does not match any enclosing block's indentation", 18},
      {"if a:\n  x = 1\n    y = 2", "unexpected indentation", 18},
  };
  for (const auto &c : cases) {
    Failure failure = statementsError(c.text);
    EXPECT_EQ(failure.message, c.message) << c.text;
    EXPECT_EQ(failure.offset, c.offset) << c.text;
  }
  for (const char *keyword : {"def", "class", "with", "try", "async"}) {
    Failure failure =
        statementsError(std::string("x = 1\n") + keyword + " y:\n  z = 1");
    EXPECT_EQ(failure.message, std::string("compound statement '") + keyword +
                                   "' is not supported");
    EXPECT_EQ(failure.offset, 6u);
  }
  for (const char *keyword :
       {"return", "break", "continue", "del", "import", "from", "global",
        "assert", "raise", "yield", "nonlocal"}) {
    Failure failure = statementsError(std::string(keyword) + " x");
    EXPECT_EQ(failure.message,
              std::string("'") + keyword + "' statements are not supported");
    EXPECT_EQ(failure.offset, 0u);
  }
  // Blocks nested past the parser's limit fail instead of recursing on.
  std::string deep;
  for (int i = 0; i < 300; ++i)
    deep += std::string(i, ' ') + "if a:\n";
  deep += std::string(300, ' ') + "x = 1";
  EXPECT_EQ(statementsError(deep).message,
            "blocks nested too deeply (more than 256 levels)");
}

TEST(PythonStatementsTest, Errors) {
  struct {
    const char *text;
    const char *message;
    size_t offset;
  } cases[] = {
      {"a = b = 1", "chained assignment is not supported", 6},
      {"1 = x", "cannot assign to '1'", 0},
      {"f(x) = 1", "cannot assign to 'f(x)'", 0},
      {"a.b = 1", "cannot assign to 'a.b'", 0},
      {"a, f() = 1, 2", "cannot assign to 'f()'", 3},
      {"(a, b) += 1", "cannot assign to '(a, b)' with an augmented assignment",
       0},
      {"x: int = 1", "annotated assignments are not supported", 1},
      {"x @= y", "operator '@=' is not supported", 2},
      {"a = 1 b = 2", "expected newline or ';' after the statement, found 'b'",
       6},
      {"a = 1;; b = 2", "expected an expression, found ';'", 6},
      {"x = ", "expected an expression, found end of input", 4},
      {"x = 'a'", "string literals are not supported", 4},
      {"x := 1", "operator ':=' is not supported", 2},
  };
  for (const auto &c : cases) {
    Failure failure = statementsError(c.text);
    EXPECT_EQ(failure.message, c.message) << c.text;
    EXPECT_EQ(failure.offset, c.offset) << c.text;
  }
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(PythonExpressionTest, Errors) {
  struct {
    const char *text;
    const char *message;
    size_t offset;
  } cases[] = {
      {"", "expected an expression, found end of input", 0},
      {"   \n", "expected an expression, found end of input", 4},
      {"abs(x", "expected ')' to close '(' at offset 3, found end of input", 5},
      {"(a + b", "expected ')' to close '(' at offset 0, found end of input",
       6},
      {"f(a b)", "expected ')' to close '(' at offset 1, found 'b'", 4},
      {"a[1", "expected ']' to close '[' at offset 1, found end of input", 3},
      {"a + b)", "unexpected text after the expression, found ')'", 5},
      {"a b", "unexpected text after the expression, found 'b'", 2},
      {"a; b", "unexpected text after the expression, found ';'", 1},
      {"1 +\n2", "expected an expression, found newline", 3},
      {"a\nb", "unexpected text after the expression, found 'b'", 2},
      {"'abc'", "string literals are not supported", 0},
      {"f(\"x\")", "string literals are not supported", 2},
      {"a if b",
       "expected 'else' in conditional expression, found end of "
       "input",
       6},
      {"a @ b", "matrix multiplication '@' is not supported", 2},
      {"a in b", "comparison operator 'in' is not supported", 2},
      {"a is b", "comparison operator 'is' is not supported", 2},
      {"a not in b", "comparison operator 'not' is not supported", 2},
      {"a[1:2]", "slices are not supported", 3},
      {"a[:]", "slices are not supported", 2},
      {"a[]", "expected an expression, found ']'", 2},
      {"[1, 2]", "list displays are not supported", 0},
      {"{}", "set and dict displays are not supported", 0},
      {"await x", "'await' is not supported", 0},
      {"a ? b", "unexpected character '?'", 2},
      {"a \x01", "unexpected character byte 0x01", 2},
      {"a !b", "unexpected character '!'", 2},
      {"$", "expected a symbol name or '?' after '$'", 0},
      {"$1", "expected a symbol name or '?' after '$'", 0},
      {"a.if", "expected an attribute name after '.', found 'if'", 2},
      {"a.", "expected an attribute name after '.', found end of input", 2},
      {"lambda x, x: x", "duplicate lambda parameter 'x'", 10},
      {"lambda x",
       "expected ':' after the lambda's parameters, found end of "
       "input",
       8},
      {"for", "expected an expression, found 'for'", 0},
      {"-", "expected an expression, found end of input", 1},
      {"f(a=1, 2)", "positional argument follows keyword argument", 7},
      {"f(a=1, a=2)", "keyword argument 'a' repeated", 7},
      {"f(*x)", "argument unpacking is not supported", 2},
      {"f(**x)", "argument unpacking is not supported", 2},
      {"x = 1", "unexpected text after the expression, found '='", 2},
      {"(,)", "expected an expression, found ','", 1},
  };
  for (const auto &c : cases) {
    Failure failure = expressionError(c.text);
    EXPECT_EQ(failure.message, c.message) << c.text;
    EXPECT_EQ(failure.offset, c.offset) << c.text;
  }
}

TEST(PythonExpressionTest, NumberErrors) {
  struct {
    const char *text;
    const char *message;
    size_t offset;
  } cases[] = {
      {"9223372036854775808",
       "integer literal '9223372036854775808' does not fit in a signed 64-bit "
       "integer",
       0},
      {"x + 0x8000000000000000",
       "integer literal '0x8000000000000000' does not fit in a signed 64-bit "
       "integer",
       4},
      {"99999999999999999999999i64",
       "integer literal '99999999999999999999999i64' does not fit in a "
       "signed 64-bit integer",
       0},
      {"012",
       "leading zeros in a decimal integer literal are not permitted (use an "
       "0o prefix for octal)",
       0},
      {"1__0", "invalid numeric literal '1__0'", 0},
      {"1_", "invalid numeric literal '1_'", 0},
      {"1e", "invalid numeric literal '1e'", 0},
      {"1e+", "invalid numeric literal '1e'", 0},
      {"0x", "invalid hexadecimal literal", 0},
      {"0o8", "invalid octal literal", 0},
      {"0b2", "invalid binary literal", 0},
      {"0b12", "invalid numeric literal '0b12'", 0},
      {"4x64", "invalid numeric literal '4x64'", 0},
      {"4i63", "invalid numeric literal '4i63'", 0},
      {"1.5i64", "integer type suffix 'i64' on a floating-point literal", 0},
      {"2.0jf32", "type suffix 'f32' on an imaginary literal", 0},
      {"0x1f64", "no error", 0},
  };
  for (const auto &c : cases) {
    Failure failure = expressionError(c.text);
    if (StringRef(c.message) == "no error") {
      EXPECT_EQ(failure.offset, StringRef::npos) << c.text;
      continue;
    }
    EXPECT_EQ(failure.message, c.message) << c.text;
    EXPECT_EQ(failure.offset, c.offset) << c.text;
  }
}

TEST(PythonExpressionTest, ErrorLog) {
  llvm::Expected<PyExprPtr> e = parsePythonExpression("f(x");
  ASSERT_FALSE(static_cast<bool>(e));
  llvm::Error error = e.takeError();
  EXPECT_TRUE(error.isA<PyParseError>());
  std::string text = llvm::toString(std::move(error));
  EXPECT_EQ(text, "offset 3: expected ')' to close '(' at offset 1, found end "
                  "of input");
  PyParseError direct("message", 7);
  EXPECT_EQ(direct.convertToErrorCode(), llvm::inconvertibleErrorCode());
}

//===----------------------------------------------------------------------===//
// Hostile input
//===----------------------------------------------------------------------===//

TEST(PythonExpressionTest, NestingLimit) {
  EXPECT_EQ(parse(repeat("(", 200) + "x" + repeat(")", 200)), "x");
  const char *tooDeep = "expression nested too deeply (more than 256 levels)";
  EXPECT_EQ(expressionError(repeat("(", 300) + "x" + repeat(")", 300)).message,
            tooDeep);
  EXPECT_EQ(expressionError(repeat("(", 20000)).message, tooDeep);
  EXPECT_EQ(expressionError(repeat("[", 20000)).message,
            "list displays are not supported");
  EXPECT_EQ(expressionError("a" + repeat("[a", 20000)).message, tooDeep);
  EXPECT_EQ(expressionError(repeat("f(", 20000)).message, tooDeep);
  EXPECT_EQ(expressionError(repeat("-", 20000) + "x").message, tooDeep);
  EXPECT_EQ(expressionError(repeat("not ", 20000) + "x").message, tooDeep);
  EXPECT_EQ(expressionError(repeat("a**", 20000) + "a").message, tooDeep);
  EXPECT_EQ(expressionError(repeat("lambda: ", 20000) + "x").message, tooDeep);
  EXPECT_EQ(expressionError(repeat("a if b else ", 20000) + "x").message,
            tooDeep);
  EXPECT_EQ(parse(repeat("-", 100) + "x").size(), 100 * 3 + 1u);
}

TEST(PythonExpressionTest, TreeHeightLimit) {
  // Left-associative chains grow the tree without recursing; the tree must
  // stay shallow enough to destroy and print recursively.
  std::string sum = "a" + repeat(" + a", 4000);
  PyExprPtr tall = parseOrNull(sum);
  ASSERT_TRUE(tall);
  EXPECT_EQ(tall->str().size(), sum.size() + 2 * 4000);
  const char *tooLarge = "expression too large (tree deeper than 4096 levels)";
  EXPECT_EQ(expressionError("a" + repeat(" + a", 20000)).message, tooLarge);
  EXPECT_EQ(expressionError("a" + repeat(".b", 20000)).message, tooLarge);
  EXPECT_EQ(expressionError("f" + repeat("()", 20000)).message, tooLarge);
  EXPECT_EQ(expressionError("a" + repeat("[0]", 20000)).message, tooLarge);
  // Flat nodes have no such limit.
  EXPECT_EQ(parseOrNull("f(" + repeat("a, ", 20000) + "a)")->operands.size(),
            20002u);
  EXPECT_EQ(parseOrNull("a" + repeat(" < a", 20000))->operands.size(), 20001u);
  EXPECT_EQ(parseOrNull("a" + repeat(" or a", 20000))->operands.size(), 20001u);
}

/// Random input never crashes or hangs, errors point into the input, and
/// what the parser accepts prints to text that parses to the same tree.
TEST(PythonExpressionTest, RandomInput) {
  std::mt19937 random(20240611);
  static const char *const pieces[] = {
      "(",   ")",    "[",     "]",    ",",    "a",      "b1",     "1",
      "1.5", "0x1f", "2.0j",  "4i64", "$N",   "$?",     " ",      "+",
      "-",   "*",    "**",    "//",   "/",    "%",      "<",      "<=",
      "==",  "not ", " and ", " or ", " if ", " else ", "lambda", ":",
      "=",   "+=",   "\n",    ";",    ".",    "'",      "#",      "\\\n",
      "   ", "c128", "f(",    "k=",   "True", "None",   "~",      "&",
      "|",   "^",    "<<",    "$",    "e",    "_",      "\t",     "if ",
  };
  constexpr size_t numPieces = sizeof(pieces) / sizeof(pieces[0]);
  size_t accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    if (i % 2 == 0) {
      size_t length = random() % 64;
      for (size_t j = 0; j < length; ++j)
        text += static_cast<char>(random() % 256);
    } else {
      size_t length = random() % 40;
      for (size_t j = 0; j < length; ++j)
        text += pieces[random() % numPieces];
    }

    llvm::Expected<PyExprPtr> expression = parsePythonExpression(text);
    if (expression) {
      ++accepted;
      std::string printed = (*expression)->str();
      EXPECT_EQ(parse(printed), printed) << "input: " << text;
    } else {
      Failure failure = failureOf(expression.takeError());
      EXPECT_LE(failure.offset, text.size()) << "input: " << text;
      EXPECT_FALSE(failure.message.empty()) << "input: " << text;
    }

    llvm::Expected<std::vector<PyStatement>> statements =
        parsePythonStatements(text);
    if (statements) {
      for (const PyStatement &statement : *statements) {
        ASSERT_TRUE(statement.value);
        EXPECT_LE(statement.offset, text.size());
        (void)statement.value->str();
      }
    } else {
      Failure failure = failureOf(statements.takeError());
      EXPECT_LE(failure.offset, text.size()) << "input: " << text;
    }
  }
  // The token soup reaches the parser's deeper paths, not only the lexer.
  EXPECT_GT(accepted, 100u);
}
} // namespace
