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
// Printing
//===----------------------------------------------------------------------===//

namespace {
StringRef spell(PyExpr::Op op) {
  switch (op) {
  case PyExpr::Op::None:
    return "?";
  case PyExpr::Op::Neg:
    return "-";
  case PyExpr::Op::Plus:
    return "+";
  case PyExpr::Op::Invert:
    return "~";
  case PyExpr::Op::Not:
    return "not ";
  case PyExpr::Op::Add:
    return "+";
  case PyExpr::Op::Sub:
    return "-";
  case PyExpr::Op::Mul:
    return "*";
  case PyExpr::Op::Div:
    return "/";
  case PyExpr::Op::FloorDiv:
    return "//";
  case PyExpr::Op::Mod:
    return "%";
  case PyExpr::Op::Pow:
    return "**";
  case PyExpr::Op::LShift:
    return "<<";
  case PyExpr::Op::RShift:
    return ">>";
  case PyExpr::Op::BitAnd:
    return "&";
  case PyExpr::Op::BitOr:
    return "|";
  case PyExpr::Op::BitXor:
    return "^";
  case PyExpr::Op::And:
    return "and";
  case PyExpr::Op::Or:
    return "or";
  }
  return "?";
}

StringRef spell(PyExpr::CompareOp op) {
  switch (op) {
  case PyExpr::CompareOp::Lt:
    return "<";
  case PyExpr::CompareOp::Le:
    return "<=";
  case PyExpr::CompareOp::Gt:
    return ">";
  case PyExpr::CompareOp::Ge:
    return ">=";
  case PyExpr::CompareOp::Eq:
    return "==";
  case PyExpr::CompareOp::Ne:
    return "!=";
  }
  return "?";
}

/// The shortest text that reads back as `value`, laid out as Python's
/// repr() does (fixed notation for exponents in [-4, 16), always a '.' or
/// an exponent), so that it still reads as a float.
std::string formatFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[40];
  for (int precision = 0; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*e", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  // buffer is `[-]d[.ddd]e(+|-)xx`.
  StringRef text(buffer);
  std::string sign = text.consume_front("-") ? "-" : "";
  auto [mantissa, exponentText] = text.split('e');
  std::string digits = mantissa.substr(0, 1).str() + mantissa.substr(2).str();
  int exponent = std::atoi(exponentText.str().c_str());
  if (exponent < -4 || exponent >= 16) {
    std::string result = sign + digits.substr(0, 1);
    if (digits.size() > 1)
      result += "." + digits.substr(1);
    char exponentBuffer[16];
    std::snprintf(exponentBuffer, sizeof(exponentBuffer), "e%c%02d",
                  exponent < 0 ? '-' : '+', std::abs(exponent));
    return result + exponentBuffer;
  }
  if (exponent < 0)
    return sign + "0." + std::string(-exponent - 1, '0') + digits;
  if (digits.size() <= static_cast<size_t>(exponent) + 1)
    return sign + digits + std::string(exponent + 1 - digits.size(), '0') +
           ".0";
  return sign + digits.substr(0, exponent + 1) + "." +
         digits.substr(exponent + 1);
}

void print(const PyExpr &e, llvm::raw_ostream &os);

void printList(llvm::ArrayRef<PyExprPtr> operands, llvm::raw_ostream &os) {
  llvm::interleave(
      operands, os, [&](const PyExprPtr &operand) { print(*operand, os); },
      ", ");
}

/// Whether print() already wraps the node in parentheses, so that a suffix
/// can follow directly.
bool printsParenthesised(PyExpr::Kind kind) {
  switch (kind) {
  case PyExpr::Kind::Unary:
  case PyExpr::Kind::Binary:
  case PyExpr::Kind::BoolOp:
  case PyExpr::Kind::Compare:
  case PyExpr::Kind::IfElse:
  case PyExpr::Kind::Tuple:
  case PyExpr::Kind::Lambda:
    return true;
  default:
    return false;
  }
}

void printWithoutSuffix(const PyExpr &e, llvm::raw_ostream &os) {
  using Kind = PyExpr::Kind;
  switch (e.kind) {
  case Kind::Integer:
    os << e.intValue;
    return;
  case Kind::Float:
    os << formatFloat(e.floatValue);
    return;
  case Kind::Imaginary:
    os << formatFloat(e.floatValue) << 'j';
    return;
  case Kind::Bool:
    os << (e.intValue ? "True" : "False");
    return;
  case Kind::None:
    os << "None";
    return;
  case Kind::Name:
    os << (e.dollar ? "$" : "") << e.name;
    return;
  case Kind::Attribute: {
    // `1.real` would read back as the float `1.` and a name.
    const PyExpr &value = *e.operands[0];
    bool number = value.kind == Kind::Integer || value.kind == Kind::Float ||
                  value.kind == Kind::Imaginary;
    os << (number ? "(" : "");
    print(value, os);
    os << (number ? ")" : "") << '.' << e.name;
    return;
  }
  case Kind::Unary:
    os << '(' << spell(e.op);
    print(*e.operands[0], os);
    os << ')';
    return;
  case Kind::Binary:
    os << '(';
    print(*e.operands[0], os);
    os << ' ' << spell(e.op) << ' ';
    print(*e.operands[1], os);
    os << ')';
    return;
  case Kind::BoolOp:
    os << '(';
    llvm::interleave(
        e.operands, os, [&](const PyExprPtr &operand) { print(*operand, os); },
        (" " + spell(e.op) + " ").str());
    os << ')';
    return;
  case Kind::Compare:
    os << '(';
    print(*e.operands[0], os);
    for (size_t i = 0; i < e.compareOps.size(); ++i) {
      os << ' ' << spell(e.compareOps[i]) << ' ';
      print(*e.operands[i + 1], os);
    }
    os << ')';
    return;
  case Kind::IfElse:
    os << '(';
    print(*e.operands[1], os);
    os << " if ";
    print(*e.operands[0], os);
    os << " else ";
    print(*e.operands[2], os);
    os << ')';
    return;
  case Kind::Call: {
    print(*e.operands[0], os);
    os << '(';
    printList(llvm::ArrayRef<PyExprPtr>(e.operands).drop_front(), os);
    for (size_t i = 0; i < e.keywords.size(); ++i) {
      if (i != 0 || e.operands.size() > 1)
        os << ", ";
      os << e.keywords[i].first << '=';
      print(*e.keywords[i].second, os);
    }
    os << ')';
    return;
  }
  case Kind::Subscript:
    print(*e.operands[0], os);
    os << '[';
    printList(llvm::ArrayRef<PyExprPtr>(e.operands).drop_front(), os);
    os << ']';
    return;
  case Kind::Tuple:
    os << '(';
    printList(e.operands, os);
    if (e.operands.size() == 1)
      os << ',';
    os << ')';
    return;
  case Kind::Lambda:
    os << "(lambda";
    for (size_t i = 0; i < e.params.size(); ++i)
      os << (i == 0 ? " " : ", ") << e.params[i];
    os << ": ";
    print(*e.operands[0], os);
    os << ')';
    return;
  }
}

void print(const PyExpr &e, llvm::raw_ostream &os) {
  bool isLiteral = e.kind == PyExpr::Kind::Integer ||
                   e.kind == PyExpr::Kind::Float ||
                   e.kind == PyExpr::Kind::Imaginary;
  bool wrap = !e.suffix.empty() && !isLiteral && !printsParenthesised(e.kind);
  if (wrap)
    os << '(';
  printWithoutSuffix(e, os);
  if (wrap)
    os << ')';
  os << e.suffix;
}
} // namespace

std::string PyExpr::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(*this, os);
  return text;
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

PyExprPtr Parser::parsePrimary() {
  PyExprPtr value = parseAtom();
  while (value) {
    if (isPunct("(")) {
      value = parseCall(std::move(value));
    } else if (isPunct("[")) {
      value = parseSubscript(std::move(value));
    } else if (isPunct(".")) {
      advance();
      if (cur().kind != TokenKind::Name || isReservedWord(cur().spelling))
        return failHere("expected an attribute name after '.'");
      PyExprPtr node = makeNode(PyExpr::Kind::Attribute, value->offset);
      node->name = cur().spelling.str();
      node->operands.push_back(std::move(value));
      advance();
      value = seal(std::move(node));
    } else {
      break;
    }
  }
  return value;
}

PyExprPtr Parser::parseCall(PyExprPtr callee) {
  size_t open = cur().offset;
  advance();
  PyExprPtr node = makeNode(PyExpr::Kind::Call, callee->offset);
  node->operands.push_back(std::move(callee));
  while (!isPunct(")")) {
    if (isPunct("*") || isPunct("**"))
      return fail("argument unpacking is not supported", cur().offset);
    if (cur().kind == TokenKind::Name && !isReservedWord(cur().spelling) &&
        ahead(1).kind == TokenKind::Punct && ahead(1).spelling == "=") {
      StringRef keyword = cur().spelling;
      for (const auto &existing : node->keywords)
        if (existing.first == keyword)
          return fail("keyword argument '" + keyword + "' repeated",
                      cur().offset);
      advance();
      advance();
      PyExprPtr value = parseExpression();
      if (!value)
        return nullptr;
      node->keywords.emplace_back(keyword.str(), std::move(value));
    } else {
      if (!node->keywords.empty() && startsExpression(cur()))
        return fail("positional argument follows keyword argument",
                    cur().offset);
      PyExprPtr argument = parseExpression();
      if (!argument)
        return nullptr;
      node->operands.push_back(std::move(argument));
    }
    if (!consumePunct(","))
      break;
  }
  if (!consumePunct(")"))
    return failHere("expected ')' to close '(' at offset " + Twine(open));
  return seal(std::move(node));
}

PyExprPtr Parser::parseSubscript(PyExprPtr value) {
  size_t open = cur().offset;
  advance();
  PyExprPtr node = makeNode(PyExpr::Kind::Subscript, value->offset);
  node->operands.push_back(std::move(value));
  do {
    if (isPunct("]") && node->operands.size() > 1)
      break;
    if (isPunct(":"))
      return fail("slices are not supported", cur().offset);
    PyExprPtr index = parseExpression();
    if (!index)
      return nullptr;
    if (isPunct(":"))
      return fail("slices are not supported", cur().offset);
    node->operands.push_back(std::move(index));
  } while (consumePunct(","));
  if (!consumePunct("]"))
    return failHere("expected ']' to close '[' at offset " + Twine(open));
  return seal(std::move(node));
}

PyExprPtr Parser::parseParenthesised() {
  size_t open = cur().offset;
  advance();
  PyExprPtr node;
  if (isPunct(")")) {
    node = seal(makeNode(PyExpr::Kind::Tuple, open));
  } else {
    node = parseExpression();
    if (node && isPunct(",")) {
      PyExprPtr tuple = makeNode(PyExpr::Kind::Tuple, open);
      tuple->operands.push_back(std::move(node));
      while (consumePunct(",") && !isPunct(")")) {
        PyExprPtr element = parseExpression();
        if (!element)
          return nullptr;
        tuple->operands.push_back(std::move(element));
      }
      node = seal(std::move(tuple));
    }
  }
  if (!node)
    return nullptr;
  size_t close = cur().offset;
  if (!consumePunct(")"))
    return failHere("expected ')' to close '(' at offset " + Twine(open));
  // The parenthesised expression starts at its '('.
  node->offset = open;

  // `(1.0 + 2.0j)c128`: a type suffix right after the ')'.
  const Token &next = cur();
  if (next.kind == TokenKind::Name && next.offset == close + 1 &&
      isTypeSuffix(next.spelling)) {
    if (!node->suffix.empty())
      return fail("type suffix '" + next.spelling +
                      "' on an expression that already has one",
                  next.offset);
    node->suffix = next.spelling.str();
    advance();
  }
  return node;
}

PyExprPtr Parser::parseAtom() {
  const Token &token = cur();
  switch (token.kind) {
  case TokenKind::Integer:
  case TokenKind::Float:
  case TokenKind::Imaginary: {
    PyExpr::Kind kind = token.kind == TokenKind::Integer ? PyExpr::Kind::Integer
                        : token.kind == TokenKind::Float
                            ? PyExpr::Kind::Float
                            : PyExpr::Kind::Imaginary;
    PyExprPtr node = makeNode(kind, token.offset);
    node->intValue = token.intValue;
    node->floatValue = token.floatValue;
    node->suffix = token.suffix.str();
    advance();
    return node;
  }
  case TokenKind::DollarName: {
    PyExprPtr node = makeNode(PyExpr::Kind::Name, token.offset);
    node->name = token.spelling.str();
    node->dollar = true;
    advance();
    return node;
  }
  case TokenKind::Name: {
    StringRef spelling = token.spelling;
    PyExprPtr node;
    if (spelling == "True" || spelling == "False") {
      node = makeNode(PyExpr::Kind::Bool, token.offset);
      node->intValue = spelling == "True";
    } else if (spelling == "None") {
      node = makeNode(PyExpr::Kind::None, token.offset);
    } else if (spelling == "await") {
      return fail("'await' is not supported", token.offset);
    } else if (isReservedWord(spelling)) {
      return failHere("expected an expression");
    } else {
      node = makeNode(PyExpr::Kind::Name, token.offset);
      node->name = spelling.str();
    }
    advance();
    return node;
  }
  case TokenKind::Punct:
    if (token.spelling == "(")
      return parseParenthesised();
    if (token.spelling == "[")
      return fail("list displays are not supported", token.offset);
    if (token.spelling == "{")
      return fail("set and dict displays are not supported", token.offset);
    return failHere("expected an expression");
  default:
    return failHere("expected an expression");
  }
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
