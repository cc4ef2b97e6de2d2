//===- PythonExpression.cpp - DaCe's small Python languages ---------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A lexer and a recursive-descent parser for the Python subset that DaCe
// writes into SDFG files, with Python's precedence (lowest first): lambda,
// if-else, or, and, not, comparisons (chained), |, ^, &, shifts, + -,
// * / // %, unary - + ~, ** (right-associative, binds tighter than a unary
// operator on its left but admits one on its right: `-x**2` is `-(x**2)`,
// `2**-1` is `2**(-1)`), then calls, `a[i, j]` subscripts and attributes.
//
// Typed literals (DaCe 2.0.0a4+): a number immediately followed by a suffix
// `i8|i16|i32|i64|u8|u16|u32|u64|f16|f32|f64|c64|c128` keeps the suffix as
// written on the literal node; the kind follows the digits (`4f32` is an
// Integer with suffix "f32": the importer decides what the type means). A
// floating-point literal with an i/u suffix, or an imaginary one with any
// but a c suffix, is an error. A hexadecimal literal's digits run on
// through f and c (`0xff32` is one number), so only an i/u suffix can
// follow it unambiguously. For `(1.0 + 2.0j)c128`, a parenthesised
// expression immediately followed by a suffix, the suffix goes on the node
// the parentheses enclose (there the Binary Add), so the AST needs no extra
// node kind; str() prints it back as `(1.0 + 2.0j)c128`.
//
// The parser never recurses more than kMaxNesting levels and never builds a
// tree taller than kMaxTreeHeight, so that neither parsing nor the
// recursive destruction and printing of the tree can exhaust the stack on
// hostile input.
//
// This file: the parser's entry points and the operators; atoms, calls
// and subscripts are in PythonPrimaries.cpp, printing in PythonPrinter.cpp,
// the lexer in PythonLexer.cpp, statements in PythonStatements.cpp.
//
//===----------------------------------------------------------------------===//

#include "PythonParser.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

using namespace mlir::sdfg::dace;
using llvm::StringRef;
using llvm::Twine;

char PyParseError::ID = 0;

void PyParseError::log(llvm::raw_ostream &os) const {
  os << "offset " << offset << ": " << message;
}

std::error_code PyParseError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

using namespace mlir::sdfg::dace::pyparse;

std::string Parser::describe(const Token &token) {
  switch (token.kind) {
  case TokenKind::End:
    return "end of input";
  case TokenKind::Newline:
    return "newline";
  case TokenKind::DollarName:
    return ("'$" + token.spelling + "'").str();
  case TokenKind::Error:
    return token.message;
  default:
    return ("'" + token.spelling + "'").str();
  }
}

bool Parser::startsExpression(const Token &token) const {
  switch (token.kind) {
  case TokenKind::Name:
    return !isReservedWord(token.spelling) ||
           llvm::is_contained({"not", "lambda", "True", "False", "None"},
                              token.spelling);
  case TokenKind::DollarName:
  case TokenKind::Integer:
  case TokenKind::Float:
  case TokenKind::Imaginary:
    return true;
  case TokenKind::Punct:
    return llvm::is_contained({"(", "[", "{", "-", "+", "~"}, token.spelling);
  default:
    return false;
  }
}

PyExprPtr Parser::seal(PyExprPtr node) {
  unsigned height = 0;
  for (const PyExprPtr &operand : node->operands)
    height = std::max(height, heights.lookup(operand.get()));
  for (const auto &keyword : node->keywords)
    height = std::max(height, heights.lookup(keyword.second.get()));
  ++height;
  if (height > kMaxTreeHeight)
    return fail("expression too large (tree deeper than " +
                    Twine(kMaxTreeHeight) + " levels)",
                node->offset);
  heights[node.get()] = height;
  return node;
}

/// `a` or `a, b, ...` (a Tuple), as on either side of an assignment.
PyExprPtr Parser::parseExpressionList() {
  PyExprPtr first = parseExpression();
  if (!first || !isPunct(","))
    return first;
  PyExprPtr tuple = makeNode(PyExpr::Kind::Tuple, first->offset);
  tuple->operands.push_back(std::move(first));
  while (consumePunct(",")) {
    if (!startsExpression(cur()))
      break;
    PyExprPtr element = parseExpression();
    if (!element)
      return nullptr;
    tuple->operands.push_back(std::move(element));
  }
  return seal(std::move(tuple));
}

PyExprPtr Parser::parseExpression() {
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  if (atKeyword("lambda"))
    return parseLambda();
  PyExprPtr body = parseOr();
  if (!body || !atKeyword("if"))
    return body;
  advance();
  PyExprPtr condition = parseOr();
  if (!condition)
    return nullptr;
  if (!atKeyword("else"))
    return failHere("expected 'else' in conditional expression");
  advance();
  PyExprPtr orElse = parseExpression();
  if (!orElse)
    return nullptr;
  PyExprPtr node = makeNode(PyExpr::Kind::IfElse, body->offset);
  node->operands.push_back(std::move(condition));
  node->operands.push_back(std::move(body));
  node->operands.push_back(std::move(orElse));
  return seal(std::move(node));
}

PyExprPtr Parser::parseLambda() {
  PyExprPtr node = makeNode(PyExpr::Kind::Lambda, cur().offset);
  advance();
  while (cur().kind == TokenKind::Name && !isReservedWord(cur().spelling)) {
    if (llvm::is_contained(node->params, cur().spelling))
      return fail("duplicate lambda parameter '" + cur().spelling + "'",
                  cur().offset);
    node->params.push_back(cur().spelling.str());
    advance();
    if (!consumePunct(","))
      break;
  }
  if (!consumePunct(":"))
    return failHere("expected ':' after the lambda's parameters");
  PyExprPtr body = parseExpression();
  if (!body)
    return nullptr;
  node->operands.push_back(std::move(body));
  return seal(std::move(node));
}

PyExprPtr Parser::parseBoolChain(llvm::StringRef keyword, PyExpr::Op op,
                                 PyExprPtr (Parser::*parseOperand)()) {
  PyExprPtr first = (this->*parseOperand)();
  if (!first || !atKeyword(keyword))
    return first;
  PyExprPtr node = makeNode(PyExpr::Kind::BoolOp, first->offset);
  node->op = op;
  node->operands.push_back(std::move(first));
  while (atKeyword(keyword)) {
    advance();
    PyExprPtr operand = (this->*parseOperand)();
    if (!operand)
      return nullptr;
    node->operands.push_back(std::move(operand));
  }
  return seal(std::move(node));
}

PyExprPtr Parser::parseOr() {
  return parseBoolChain("or", PyExpr::Op::Or, &Parser::parseAnd);
}

PyExprPtr Parser::parseAnd() {
  return parseBoolChain("and", PyExpr::Op::And, &Parser::parseNot);
}

PyExprPtr Parser::parseNot() {
  if (!atKeyword("not"))
    return parseComparison();
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  PyExprPtr node = makeNode(PyExpr::Kind::Unary, cur().offset);
  node->op = PyExpr::Op::Not;
  advance();
  PyExprPtr operand = parseNot();
  if (!operand)
    return nullptr;
  node->operands.push_back(std::move(operand));
  return seal(std::move(node));
}

PyExprPtr Parser::parseComparison() {
  PyExprPtr first = parseBinary(0);
  if (!first)
    return nullptr;
  PyExprPtr node;
  while (true) {
    const Token &token = cur();
    if (token.kind == TokenKind::Name &&
        (token.spelling == "in" || token.spelling == "is" ||
         (token.spelling == "not" && ahead(1).kind == TokenKind::Name &&
          ahead(1).spelling == "in")))
      return fail("comparison operator '" + token.spelling +
                      "' is not supported",
                  token.offset);
    if (token.kind != TokenKind::Punct)
      break;
    std::optional<PyExpr::CompareOp> op =
        llvm::StringSwitch<std::optional<PyExpr::CompareOp>>(token.spelling)
            .Case("<", PyExpr::CompareOp::Lt)
            .Case("<=", PyExpr::CompareOp::Le)
            .Case(">", PyExpr::CompareOp::Gt)
            .Case(">=", PyExpr::CompareOp::Ge)
            .Case("==", PyExpr::CompareOp::Eq)
            .Case("!=", PyExpr::CompareOp::Ne)
            .Default(std::nullopt);
    if (!op)
      break;
    if (!node) {
      node = makeNode(PyExpr::Kind::Compare, first->offset);
      node->operands.push_back(std::move(first));
    }
    advance();
    PyExprPtr operand = parseBinary(0);
    if (!operand)
      return nullptr;
    node->compareOps.push_back(*op);
    node->operands.push_back(std::move(operand));
  }
  if (!node)
    return first;
  return seal(std::move(node));
}

/// The left-associative binary operators, loosest first; the level past
/// the last is parseFactor().
PyExprPtr Parser::parseBinary(unsigned level) {
  struct BinaryOperator {
    unsigned level;
    const char *spelling;
    PyExpr::Op op;
  };
  static const BinaryOperator operators[] = {
      {0, "|", PyExpr::Op::BitOr},   {1, "^", PyExpr::Op::BitXor},
      {2, "&", PyExpr::Op::BitAnd},  {3, "<<", PyExpr::Op::LShift},
      {3, ">>", PyExpr::Op::RShift}, {4, "+", PyExpr::Op::Add},
      {4, "-", PyExpr::Op::Sub},     {5, "*", PyExpr::Op::Mul},
      {5, "/", PyExpr::Op::Div},     {5, "//", PyExpr::Op::FloorDiv},
      {5, "%", PyExpr::Op::Mod},
  };
  constexpr unsigned numLevels = 6;
  auto parseOperand = [&]() {
    return level + 1 == numLevels ? parseFactor() : parseBinary(level + 1);
  };

  PyExprPtr lhs = parseOperand();
  while (lhs && cur().kind == TokenKind::Punct) {
    if (level + 1 == numLevels && isPunct("@"))
      return fail("matrix multiplication '@' is not supported", cur().offset);
    PyExpr::Op op = PyExpr::Op::None;
    for (const BinaryOperator &candidate : operators)
      if (candidate.level == level && cur().spelling == candidate.spelling)
        op = candidate.op;
    if (op == PyExpr::Op::None)
      break;
    advance();
    PyExprPtr rhs = parseOperand();
    if (!rhs)
      return nullptr;
    PyExprPtr node = makeNode(PyExpr::Kind::Binary, lhs->offset);
    node->op = op;
    node->operands.push_back(std::move(lhs));
    node->operands.push_back(std::move(rhs));
    lhs = seal(std::move(node));
  }
  return lhs;
}

PyExprPtr Parser::parseFactor() {
  PyExpr::Op op = PyExpr::Op::None;
  if (isPunct("-"))
    op = PyExpr::Op::Neg;
  else if (isPunct("+"))
    op = PyExpr::Op::Plus;
  else if (isPunct("~"))
    op = PyExpr::Op::Invert;
  if (op == PyExpr::Op::None)
    return parsePower();
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  PyExprPtr node = makeNode(PyExpr::Kind::Unary, cur().offset);
  node->op = op;
  advance();
  PyExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  node->operands.push_back(std::move(operand));
  return seal(std::move(node));
}

PyExprPtr Parser::parsePower() {
  PyExprPtr base = parsePrimary();
  if (!base || !isPunct("**"))
    return base;
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  advance();
  // The exponent is a factor: right-associative, and may be negated.
  PyExprPtr exponent = parseFactor();
  if (!exponent)
    return nullptr;
  PyExprPtr node = makeNode(PyExpr::Kind::Binary, base->offset);
  node->op = PyExpr::Op::Pow;
  node->operands.push_back(std::move(base));
  node->operands.push_back(std::move(exponent));
  return seal(std::move(node));
}

PyExprPtr Parser::parseExpressionInput() {
  while (cur().kind == TokenKind::Newline)
    advance();
  PyExprPtr expression = parseExpressionList();
  if (!expression)
    return nullptr;
  while (cur().kind == TokenKind::Newline)
    advance();
  if (cur().kind != TokenKind::End)
    return failHere("unexpected text after the expression");
  return expression;
}

llvm::Expected<PyExprPtr>
mlir::sdfg::dace::parsePythonExpression(StringRef text) {
  Parser parser(text);
  PyExprPtr expression = parser.parseExpressionInput();
  if (!expression)
    return parser.takeError();
  return expression;
}
