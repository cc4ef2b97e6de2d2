//===- PythonParser.h - Lexer and parser of DaCe's Python -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The lexer and the recursive-descent parser behind PythonExpression.h,
// shared by PythonLexer.cpp (tokens), PythonExpression.cpp (expressions)
// and PythonStatements.cpp (statements and indented blocks). Not a public
// interface: include PythonExpression.h.
//
// The parser never recurses more than kMaxNesting levels and never builds a
// tree taller than kMaxTreeHeight, so that neither parsing nor the
// recursive destruction and printing of the tree can exhaust the stack on
// hostile input.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_PYTHONPARSER_H
#define SDFGSTREAM_LIB_IMPORT_DACE_PYTHONPARSER_H

#include "PythonExpression.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace sdfg {
namespace dace {
namespace pyparse {
using llvm::StringRef;
using llvm::Twine;

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

bool isTypeSuffix(StringRef s);
bool isReservedWord(StringRef s);

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
  /// The statements of one block, all at indentation `indent`, up to a
  /// line indented less (or the end).
  bool parseBlock(StringRef indent, std::vector<PyStatement> &statements);
  /// The statements of one line: simple ones separated by ';', or one
  /// compound statement with its suite.
  bool parseLine(StringRef indent, std::vector<PyStatement> &statements);
  bool parseSimpleStatement(PyStatement &statement);
  /// Simple statements separated by ';' up to the end of the line.
  bool parseSimpleStatements(std::vector<PyStatement> &statements);
  bool parseCompoundStatement(StringRef indent, PyStatement &statement);
  /// After a compound header's ':': simple statements on the same line, or
  /// a newline and a block indented deeper than `indent`.
  bool parseSuite(StringRef indent, std::vector<PyStatement> &statements);
  /// The whitespace before `token` on its line (empty unless `token` is the
  /// first on its line).
  StringRef indentationOf(const Token &token) const;
  /// Whether only whitespace precedes `token` on its line.
  bool startsLine(const Token &token) const;
  /// Compound statements being parsed (bounded like `nesting`).
  unsigned blockDepth = 0;
  /// The indentations of the blocks being parsed, outermost first.
  std::vector<StringRef> openIndents;
  bool checkAssignmentTarget(const PyExpr &target, bool augmented);

  StringRef text;
  std::vector<Token> tokens;
  size_t index = 0;
  unsigned nesting = 0;
  llvm::DenseMap<const PyExpr *, unsigned> heights;
  std::string errorMessage;
  size_t errorOffset = 0;
};

} // namespace pyparse
} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_PYTHONPARSER_H
