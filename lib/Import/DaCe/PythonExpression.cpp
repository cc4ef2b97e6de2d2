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

#include "PythonExpression.h"

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
// Lexer
//===----------------------------------------------------------------------===//

namespace {
/// Recursion depth of the parser (parenthesised and nested expressions,
/// chains of unary operators).
constexpr unsigned kMaxNesting = 256;
/// Height of the tree, which left-associative chains (`a + b + ... + z`)
/// grow without recursion; bounded because the tree is destroyed and
/// printed recursively.
constexpr unsigned kMaxTreeHeight = 4096;

enum class TokenKind {
  Name,       // identifier or keyword
  DollarName, // `$N` or `$?`: spelling without the '$'
  Integer,
  Float,
  Imaginary,
  Punct, // operator or delimiter
  Newline,
  End,
  Error, // the lexer's error: `message`; always the last token
};

struct Token {
  TokenKind kind = TokenKind::End;
  size_t offset = 0;
  StringRef spelling;
  int64_t intValue = 0;
  double floatValue = 0;
  StringRef suffix;
  std::string message;
};

bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

bool isTypeSuffix(StringRef s) {
  return llvm::StringSwitch<bool>(s)
      .Cases({"i8", "i16", "i32", "i64"}, true)
      .Cases({"u8", "u16", "u32", "u64"}, true)
      .Cases({"f16", "f32", "f64", "c64", "c128"}, true)
      .Default(false);
}

bool isReservedWord(StringRef s) {
  return llvm::StringSwitch<bool>(s)
      .Cases({"False", "None", "True", "and", "as", "assert", "async"}, true)
      .Cases({"await", "break", "class", "continue", "def", "del", "elif"},
             true)
      .Cases({"else", "except", "finally", "for", "from", "global", "if"}, true)
      .Cases({"import", "in", "is", "lambda", "nonlocal", "not", "or"}, true)
      .Cases({"pass", "raise", "return", "try", "while", "with", "yield"}, true)
      .Default(false);
}

/// A printable rendering of one byte for messages.
std::string describeChar(char c) {
  if (llvm::isPrint(c))
    return (Twine("'") + Twine(c) + "'").str();
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), "0x%02x",
                static_cast<unsigned>(static_cast<unsigned char>(c)));
  return (Twine("byte ") + buffer).str();
}

class Lexer {
public:
  explicit Lexer(StringRef text) : text(text) {}

  /// All tokens up to and including End or Error.
  std::vector<Token> lexAll() {
    std::vector<Token> tokens;
    while (true) {
      tokens.push_back(lex());
      TokenKind kind = tokens.back().kind;
      if (kind == TokenKind::End || kind == TokenKind::Error)
        return tokens;
    }
  }

private:
  char at(size_t i) const { return i < text.size() ? text[i] : '\0'; }

  Token make(TokenKind kind, size_t start, size_t end) {
    Token token;
    token.kind = kind;
    token.offset = start;
    token.spelling = text.slice(start, end);
    pos = end;
    return token;
  }

  Token error(const Twine &message, size_t offset) {
    Token token;
    token.kind = TokenKind::Error;
    token.offset = offset;
    token.message = message.str();
    return token;
  }

  Token lex();
  Token lexNumber(size_t start);
  size_t scanDigits(size_t p, bool (*isDigit)(char), bool afterPrefix);

  StringRef text;
  size_t pos = 0;
  /// Open brackets: newlines inside them continue the line.
  unsigned depth = 0;
};

Token Lexer::lex() {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      ++pos;
    } else if (c == '\\' && at(pos + 1) == '\n') {
      pos += 2;
    } else if (c == '\\' && at(pos + 1) == '\r' && at(pos + 2) == '\n') {
      pos += 3;
    } else if (c == '#') {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
    } else if (c == '\n' && depth > 0) {
      ++pos;
    } else {
      break;
    }
  }
  if (pos >= text.size())
    return make(TokenKind::End, text.size(), text.size());

  size_t start = pos;
  char c = text[pos];
  if (c == '\n')
    return make(TokenKind::Newline, start, start + 1);
  if (isIdentifierStart(c)) {
    size_t end = start + 1;
    while (isIdentifierChar(at(end)))
      ++end;
    return make(TokenKind::Name, start, end);
  }
  if (llvm::isDigit(c) || (c == '.' && llvm::isDigit(at(pos + 1))))
    return lexNumber(start);
  if (c == '$') {
    size_t end = start + 2;
    if (at(start + 1) != '?') {
      if (!isIdentifierStart(at(start + 1)))
        return error("expected a symbol name or '?' after '$'", start);
      while (isIdentifierChar(at(end)))
        ++end;
    }
    Token token = make(TokenKind::DollarName, start + 1, end);
    token.offset = start;
    return token;
  }
  if (c == '"' || c == '\'')
    return error("string literals are not supported", start);

  // Longest match first.
  static const char *const puncts[] = {
      "**=", "//=", ">>=", "<<=", "**", "//", "<<", ">>", "<=", ">=",
      "==",  "!=",  "->",  ":=",  "+=", "-=", "*=", "/=", "%=", "&=",
      "|=",  "^=",  "@=",  "+",   "-",  "*",  "/",  "%",  "@",  "&",
      "|",   "^",   "~",   "<",   ">",  "(",  ")",  "[",  "]",  "{",
      "}",   ",",   ":",   ".",   ";",  "="};
  StringRef rest = text.drop_front(start);
  for (const char *punct : puncts) {
    if (!rest.starts_with(punct))
      continue;
    StringRef spelling(punct);
    if (spelling == "(" || spelling == "[" || spelling == "{")
      ++depth;
    else if ((spelling == ")" || spelling == "]" || spelling == "}") &&
             depth > 0)
      --depth;
    return make(TokenKind::Punct, start, start + spelling.size());
  }
  return error("unexpected character " + describeChar(c), start);
}

/// Skips digits (and single underscores between digits, or right after a
/// base prefix) from `p`.
size_t Lexer::scanDigits(size_t p, bool (*isDigit)(char), bool afterPrefix) {
  size_t first = p;
  while (true) {
    if (isDigit(at(p))) {
      ++p;
    } else if (at(p) == '_' && (p > first || afterPrefix) &&
               isDigit(at(p + 1))) {
      ++p;
    } else {
      return p;
    }
  }
}

Token Lexer::lexNumber(size_t start) {
  auto isDec = [](char c) { return c >= '0' && c <= '9'; };
  auto isHex = [](char c) { return llvm::isHexDigit(c); };
  auto isOct = [](char c) { return c >= '0' && c <= '7'; };
  auto isBin = [](char c) { return c == '0' || c == '1'; };

  unsigned base = 10;
  bool (*isDigit)(char) = +isDec;
  char prefix = llvm::toLower(at(start + 1));
  if (at(start) == '0' && (prefix == 'x' || prefix == 'o' || prefix == 'b')) {
    base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    isDigit = prefix == 'x' ? +isHex : prefix == 'o' ? +isOct : +isBin;
  }

  TokenKind kind = TokenKind::Integer;
  size_t digitsStart = base == 10 ? start : start + 2;
  size_t p = scanDigits(digitsStart, isDigit, base != 10);
  size_t digitsEnd = p;
  if (base != 10 && p == digitsStart)
    return error("invalid " +
                     StringRef(base == 16  ? "hexadecimal"
                               : base == 8 ? "octal"
                                           : "binary") +
                     " literal",
                 start);
  if (base == 10) {
    if (at(p) == '.') {
      kind = TokenKind::Float;
      p = scanDigits(p + 1, isDigit, false);
    }
    char e = llvm::toLower(at(p));
    size_t expDigits = (at(p + 1) == '+' || at(p + 1) == '-') ? p + 2 : p + 1;
    if (e == 'e' && isDec(at(expDigits))) {
      kind = TokenKind::Float;
      p = scanDigits(expDigits, isDigit, false);
    }
    digitsEnd = p;
    if (llvm::toLower(at(p)) == 'j') {
      kind = TokenKind::Imaginary;
      ++p;
    }
  }

  // A typed literal's suffix, or garbage glued to the number.
  size_t suffixStart = p;
  while (isIdentifierChar(at(p)))
    ++p;
  StringRef suffix = text.slice(suffixStart, p);
  StringRef whole = text.slice(start, p);
  if (!suffix.empty()) {
    bool integerSuffix = suffix[0] == 'i' || suffix[0] == 'u';
    if (!isTypeSuffix(suffix))
      return error("invalid numeric literal '" + whole + "'", start);
    if (kind == TokenKind::Float && integerSuffix)
      return error("integer type suffix '" + suffix +
                       "' on a floating-point literal",
                   start);
    if (kind == TokenKind::Imaginary && suffix[0] != 'c')
      return error("type suffix '" + suffix + "' on an imaginary literal",
                   start);
  }

  std::string digits;
  for (char d : text.slice(digitsStart, digitsEnd))
    if (d != '_')
      digits += d;

  Token token = make(kind, start, p);
  token.suffix = suffix;
  if (kind == TokenKind::Integer) {
    if (base == 10 && digits.size() > 1 && digits[0] == '0' &&
        digits.find_first_not_of('0') != std::string::npos)
      return error("leading zeros in a decimal integer literal are not "
                   "permitted (use an 0o prefix for octal)",
                   start);
    uint64_t value = 0;
    constexpr uint64_t max = std::numeric_limits<int64_t>::max();
    for (char d : digits) {
      uint64_t digit = llvm::hexDigitValue(d);
      if (value > (max - digit) / base)
        return error("integer literal '" + whole +
                         "' does not fit in a signed 64-bit integer",
                     start);
      value = value * base + digit;
    }
    token.intValue = static_cast<int64_t>(value);
    return token;
  }
  // APFloat reads independently of the C locale, unlike strtod.
  llvm::APFloat value(llvm::APFloat::IEEEdouble());
  auto status =
      value.convertFromString(digits, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return error("invalid floating-point literal '" + whole + "'", start);
  }
  token.floatValue = value.convertToDouble();
  return token;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

class Parser {
public:
  explicit Parser(StringRef text) : text(text), tokens(Lexer(text).lexAll()) {}

  PyExprPtr parseExpressionInput();
  bool parseStatementsInput(std::vector<PyStatement> &statements);

  llvm::Error takeError() {
    return llvm::make_error<PyParseError>(std::move(errorMessage), errorOffset);
  }

private:
  /// Counts one level of recursion for as long as it lives.
  struct NestingGuard {
    explicit NestingGuard(Parser &parser) : parser(parser) { ++parser.nesting; }
    ~NestingGuard() { --parser.nesting; }
    bool tooDeep() const { return parser.nesting > kMaxNesting; }
    Parser &parser;
  };

  const Token &cur() const { return tokens[index]; }
  const Token &ahead(size_t n) const {
    return tokens[std::min(index + n, tokens.size() - 1)];
  }
  void advance() {
    if (index + 1 < tokens.size())
      ++index;
  }
  bool isPunct(StringRef spelling) const {
    return cur().kind == TokenKind::Punct && cur().spelling == spelling;
  }
  bool atKeyword(StringRef keyword) const {
    return cur().kind == TokenKind::Name && cur().spelling == keyword;
  }
  bool consumePunct(StringRef spelling) {
    if (!isPunct(spelling))
      return false;
    advance();
    return true;
  }
  bool atLineEnd() const {
    return cur().kind == TokenKind::Newline || cur().kind == TokenKind::End;
  }
  bool startsExpression(const Token &token) const;

  std::nullptr_t fail(const Twine &message, size_t offset) {
    errorMessage = message.str();
    errorOffset = offset;
    return nullptr;
  }
  /// Fails at the current token; a lexer error there is the better
  /// message, since it says why the parser could not go on.
  std::nullptr_t failHere(const Twine &message) {
    if (cur().kind == TokenKind::Error)
      return fail(cur().message, cur().offset);
    return fail(message + ", found " + describe(cur()), cur().offset);
  }
  std::nullptr_t tooDeep() {
    return fail("expression nested too deeply (more than " +
                    Twine(kMaxNesting) + " levels)",
                cur().offset);
  }
  static std::string describe(const Token &token);

  PyExprPtr makeNode(PyExpr::Kind kind, size_t offset) {
    auto node = std::make_unique<PyExpr>();
    node->kind = kind;
    node->offset = offset;
    // Addresses are reused after a free; a new node starts as a leaf.
    heights[node.get()] = 0;
    return node;
  }
  /// Records the height of `node` from its children; fails when the tree
  /// grows too tall.
  PyExprPtr seal(PyExprPtr node);

  PyExprPtr parseExpressionList();
  PyExprPtr parseExpression();
  PyExprPtr parseLambda();
  PyExprPtr parseOr();
  PyExprPtr parseAnd();
  /// `operand (keyword operand)*` as one BoolOp node with `op`.
  PyExprPtr parseBoolChain(llvm::StringRef keyword, PyExpr::Op op,
                           PyExprPtr (Parser::*parseOperand)());
  PyExprPtr parseNot();
  PyExprPtr parseComparison();
  PyExprPtr parseBinary(unsigned level);
  PyExprPtr parseFactor();
  PyExprPtr parsePower();
  PyExprPtr parsePrimary();
  PyExprPtr parseAtom();
  PyExprPtr parseParenthesised();
  PyExprPtr parseCall(PyExprPtr callee);
  PyExprPtr parseSubscript(PyExprPtr value);
  bool parseStatement(PyStatement &statement);
  bool checkAssignmentTarget(const PyExpr &target, bool augmented);
  bool checkIndentation();

  StringRef text;
  std::vector<Token> tokens;
  size_t index = 0;
  unsigned nesting = 0;
  llvm::DenseMap<const PyExpr *, unsigned> heights;
  /// The indentation of the first statement, which all others must share.
  std::optional<StringRef> blockIndent;
  std::string errorMessage;
  size_t errorOffset = 0;
};

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

/// All statements of a block share the indentation of the first one; DaCe
/// sometimes indents a whole tasklet body.
bool Parser::checkIndentation() {
  size_t offset = cur().offset;
  size_t lineStart = text.rfind('\n', offset);
  lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
  StringRef indent = text.slice(lineStart, offset);
  if (!blockIndent) {
    blockIndent = indent;
    return true;
  }
  if (indent == *blockIndent)
    return true;
  if (indent.starts_with(*blockIndent))
    fail("unexpected indentation", offset);
  else
    fail("indentation does not match the first statement's", offset);
  return false;
}

bool Parser::checkAssignmentTarget(const PyExpr &target, bool augmented) {
  bool ok = target.suffix.empty() && (target.kind == PyExpr::Kind::Name ||
                                      target.kind == PyExpr::Kind::Subscript ||
                                      (target.kind == PyExpr::Kind::Tuple &&
                                       !augmented && !target.operands.empty()));
  if (!ok) {
    fail(Twine("cannot assign to '") + target.str() + "'" +
             (augmented ? " with an augmented assignment" : ""),
         target.offset);
    return false;
  }
  if (target.kind == PyExpr::Kind::Tuple)
    for (const PyExprPtr &element : target.operands)
      if (!checkAssignmentTarget(*element, augmented))
        return false;
  return true;
}

bool Parser::parseStatement(PyStatement &statement) {
  const Token &first = cur();
  statement.offset = first.offset;
  if (first.kind == TokenKind::Name) {
    StringRef keyword = first.spelling;
    if (llvm::is_contained({"if", "elif", "else", "for", "while", "def",
                            "class", "with", "try", "except", "finally",
                            "async"},
                           keyword)) {
      fail("compound statement '" + keyword + "' is not supported",
           first.offset);
      return false;
    }
    if (llvm::is_contained({"return", "pass", "break", "continue", "del",
                            "import", "from", "global", "nonlocal", "assert",
                            "raise", "yield"},
                           keyword)) {
      fail("'" + keyword + "' statements are not supported", first.offset);
      return false;
    }
  }

  PyExprPtr lhs = parseExpressionList();
  if (!lhs)
    return false;
  if (isPunct("=")) {
    if (!checkAssignmentTarget(*lhs, /*augmented=*/false))
      return false;
    advance();
    statement.target = std::move(lhs);
    statement.value = parseExpressionList();
    if (!statement.value)
      return false;
    if (isPunct("=")) {
      fail("chained assignment is not supported", cur().offset);
      return false;
    }
    return true;
  }
  if (cur().kind == TokenKind::Punct && cur().spelling.size() >= 2 &&
      cur().spelling.ends_with("=") &&
      !llvm::is_contained({"==", "!=", "<=", ">="}, cur().spelling)) {
    PyExpr::Op op = llvm::StringSwitch<PyExpr::Op>(cur().spelling.drop_back())
                        .Case("+", PyExpr::Op::Add)
                        .Case("-", PyExpr::Op::Sub)
                        .Case("*", PyExpr::Op::Mul)
                        .Case("/", PyExpr::Op::Div)
                        .Case("//", PyExpr::Op::FloorDiv)
                        .Case("%", PyExpr::Op::Mod)
                        .Case("**", PyExpr::Op::Pow)
                        .Case("<<", PyExpr::Op::LShift)
                        .Case(">>", PyExpr::Op::RShift)
                        .Case("&", PyExpr::Op::BitAnd)
                        .Case("|", PyExpr::Op::BitOr)
                        .Case("^", PyExpr::Op::BitXor)
                        .Default(PyExpr::Op::None);
    if (op == PyExpr::Op::None) {
      fail("operator '" + cur().spelling + "' is not supported", cur().offset);
      return false;
    }
    if (!checkAssignmentTarget(*lhs, /*augmented=*/true))
      return false;
    advance();
    statement.target = std::move(lhs);
    statement.augmentedOp = op;
    statement.value = parseExpressionList();
    return statement.value != nullptr;
  }
  if (isPunct(":")) {
    fail("annotated assignments are not supported", cur().offset);
    return false;
  }
  statement.value = std::move(lhs);
  return true;
}

bool Parser::parseStatementsInput(std::vector<PyStatement> &statements) {
  while (true) {
    while (cur().kind == TokenKind::Newline)
      advance();
    if (cur().kind == TokenKind::End)
      return true;
    if (!checkIndentation())
      return false;
    // The simple statements of one line.
    while (true) {
      PyStatement statement;
      if (!parseStatement(statement))
        return false;
      statements.push_back(std::move(statement));
      if (!consumePunct(";"))
        break;
      if (atLineEnd())
        break;
    }
    if (!atLineEnd()) {
      failHere("expected newline or ';' after the statement");
      return false;
    }
  }
}
} // namespace

llvm::Expected<PyExprPtr>
mlir::sdfg::dace::parsePythonExpression(StringRef text) {
  Parser parser(text);
  PyExprPtr expression = parser.parseExpressionInput();
  if (!expression)
    return parser.takeError();
  return expression;
}

llvm::Expected<std::vector<PyStatement>>
mlir::sdfg::dace::parsePythonStatements(StringRef text) {
  Parser parser(text);
  std::vector<PyStatement> statements;
  if (!parser.parseStatementsInput(statements))
    return parser.takeError();
  return statements;
}
