//===- PythonLexer.cpp - Tokens of DaCe's Python --------------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Tokens of the Python subset in SDFG files: names, `$N` symbols (DaCe
// 2.0.0a4+), numbers with DaCe's typed-literal suffixes, operators, and
// newlines (inside brackets a newline continues the line).
//
//===----------------------------------------------------------------------===//

#include "PythonParser.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir::sdfg::dace::pyparse;

static bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

bool mlir::sdfg::dace::pyparse::isTypeSuffix(StringRef s) {
  return llvm::StringSwitch<bool>(s)
      .Cases({"i8", "i16", "i32", "i64"}, true)
      .Cases({"u8", "u16", "u32", "u64"}, true)
      .Cases({"f16", "f32", "f64", "c64", "c128"}, true)
      .Default(false);
}

bool mlir::sdfg::dace::pyparse::isReservedWord(StringRef s) {
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
static std::string describeChar(char c) {
  if (llvm::isPrint(c))
    return (Twine("'") + Twine(c) + "'").str();
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), "0x%02x",
                static_cast<unsigned>(static_cast<unsigned char>(c)));
  return (Twine("byte ") + buffer).str();
}

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
