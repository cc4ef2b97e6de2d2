//===- PythonStatements.cpp - Statements of DaCe's Python -----------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Tasklet code and interstate assignments as statements: simple ones
// (assignments, augmented assignments, expressions, `pass`) and the
// compound statements a Python tasklet may hold (`for ... in range(...)`,
// `while`, `if`/`elif`/`else`), which DaCe keeps as written and compiles
// as C++ (dace/codegen/cppunparse.py). Blocks follow Python's indentation
// rules: a block's lines share one indentation; a deeper one opens a block
// only after a compound header; a shallower one must match an enclosing
// block's.
//
//===----------------------------------------------------------------------===//

#include "PythonParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::pyparse;

bool Parser::startsLine(const Token &token) const {
  size_t lineStart = text.rfind('\n', token.offset);
  lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
  return text.slice(lineStart, token.offset).find_first_not_of(" \t\f\r") ==
         StringRef::npos;
}

StringRef Parser::indentationOf(const Token &token) const {
  size_t lineStart = text.rfind('\n', token.offset);
  lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
  StringRef before = text.slice(lineStart, token.offset);
  if (before.find_first_not_of(" \t\f\r") != StringRef::npos)
    return StringRef();
  return before;
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

bool Parser::parseSimpleStatement(PyStatement &statement) {
  const Token &first = cur();
  statement.offset = first.offset;
  if (first.kind == TokenKind::Name) {
    StringRef keyword = first.spelling;
    if (keyword == "pass") {
      statement.kind = PyStatement::Kind::Pass;
      advance();
      return true;
    }
    if (llvm::is_contained({"for", "while", "if"}, keyword)) {
      fail("'" + keyword + "' must start its own line", first.offset);
      return false;
    }
    if (llvm::is_contained({"elif", "else"}, keyword)) {
      fail("'" + keyword + "' without a matching 'if'", first.offset);
      return false;
    }
    if (llvm::is_contained({"def", "class", "with", "try", "except",
                            "finally", "async", "match"},
                           keyword) &&
        ahead(1).kind != TokenKind::Punct) {
      fail("compound statement '" + keyword + "' is not supported",
           first.offset);
      return false;
    }
    if (llvm::is_contained({"return", "break", "continue", "del", "import",
                            "from", "global", "nonlocal", "assert", "raise",
                            "yield"},
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

bool Parser::parseSuite(StringRef indent,
                        std::vector<PyStatement> &statements) {
  if (!consumePunct(":")) {
    failHere("expected ':'");
    return false;
  }
  if (!atLineEnd()) // Simple statements on the header's line.
    return parseSimpleStatements(statements);
  while (cur().kind == TokenKind::Newline)
    advance();
  StringRef inner = indentationOf(cur());
  if (cur().kind == TokenKind::End || inner.size() <= indent.size() ||
      !inner.starts_with(indent)) {
    fail("expected an indented block", cur().offset);
    return false;
  }
  return parseBlock(inner, statements);
}

bool Parser::parseCompoundStatement(StringRef indent, PyStatement &statement) {
  ++blockDepth;
  llvm::scope_exit leave([&] { --blockDepth; });
  if (blockDepth > kMaxNesting) {
    fail("blocks nested too deeply (more than " + Twine(kMaxNesting) +
             " levels)",
         cur().offset);
    return false;
  }
  StringRef keyword = cur().spelling;
  statement.offset = cur().offset;
  advance();
  if (keyword == "for") {
    statement.kind = PyStatement::Kind::For;
    if (cur().kind != TokenKind::Name || isReservedWord(cur().spelling)) {
      failHere("expected the loop variable's name");
      return false;
    }
    statement.target = std::make_unique<PyExpr>();
    statement.target->kind = PyExpr::Kind::Name;
    statement.target->offset = cur().offset;
    statement.target->name = cur().spelling.str();
    advance();
    if (isPunct(",")) {
      fail("a tuple as the loop variable is not supported", cur().offset);
      return false;
    }
    if (!atKeyword("in")) {
      failHere("expected 'in'");
      return false;
    }
    advance();
  } else {
    statement.kind = keyword == "while" ? PyStatement::Kind::While
                                        : PyStatement::Kind::If;
  }
  statement.value = parseExpressionList();
  if (!statement.value || !parseSuite(indent, statement.body))
    return false;

  // elif / else: on a line of their own at the header's indentation.
  size_t save = index;
  while (cur().kind == TokenKind::Newline)
    advance();
  bool continues = cur().kind == TokenKind::Name &&
                   indentationOf(cur()) == indent &&
                   (cur().spelling == "elif" || cur().spelling == "else");
  if (!continues) {
    index = save;
    return true;
  }
  if (statement.kind != PyStatement::Kind::If) {
    fail("'" + keyword + "' with an 'else' block is not supported",
         cur().offset);
    return false;
  }
  if (cur().spelling == "elif") {
    // `elif c:` is an `else:` holding one `if c:`.
    statement.orelse.emplace_back();
    return parseCompoundStatement(indent, statement.orelse.back());
  }
  advance();
  return parseSuite(indent, statement.orelse);
}

bool Parser::parseLine(StringRef indent, std::vector<PyStatement> &statements) {
  if (cur().kind == TokenKind::Name &&
      llvm::is_contained({"for", "while", "if"}, cur().spelling)) {
    statements.emplace_back();
    if (!parseCompoundStatement(indent, statements.back()))
      return false;
    // A block ends where the next line starts.
    if (cur().kind != TokenKind::Newline && cur().kind != TokenKind::End &&
        startsLine(cur()))
      return true;
    if (!atLineEnd()) {
      failHere("expected newline or ';' after the statement");
      return false;
    }
    return true;
  }
  return parseSimpleStatements(statements);
}

bool Parser::parseSimpleStatements(std::vector<PyStatement> &statements) {
  while (true) {
    PyStatement statement;
    if (!parseSimpleStatement(statement))
      return false;
    statements.push_back(std::move(statement));
    if (!consumePunct(";") || atLineEnd())
      break;
  }
  if (!atLineEnd()) {
    failHere("expected newline or ';' after the statement");
    return false;
  }
  return true;
}

bool Parser::parseBlock(StringRef indent,
                        std::vector<PyStatement> &statements) {
  openIndents.push_back(indent);
  llvm::scope_exit close([&] { openIndents.pop_back(); });
  while (true) {
    while (cur().kind == TokenKind::Newline)
      advance();
    if (cur().kind == TokenKind::End)
      return true;
    if (cur().kind == TokenKind::Error) {
      failHere("");
      return false;
    }
    StringRef lineIndent = indentationOf(cur());
    if (lineIndent != indent) {
      // A line at an enclosing block's indentation ends this block.
      if (llvm::is_contained(openIndents, lineIndent))
        return true;
      if (lineIndent.starts_with(indent))
        fail("unexpected indentation", cur().offset);
      else if (openIndents.size() == 1)
        fail("indentation does not match the first statement's",
             cur().offset);
      else
        fail("unindent does not match any enclosing block's indentation",
             cur().offset);
      return false;
    }
    if (!parseLine(indent, statements))
      return false;
  }
}

bool Parser::parseStatementsInput(std::vector<PyStatement> &statements) {
  while (cur().kind == TokenKind::Newline)
    advance();
  StringRef indent = indentationOf(cur());
  return parseBlock(indent, statements);
}

void mlir::sdfg::dace::forEachStatement(
    llvm::ArrayRef<PyStatement> statements,
    llvm::function_ref<void(const PyStatement &)> visit) {
  for (const PyStatement &statement : statements) {
    visit(statement);
    forEachStatement(statement.body, visit);
    forEachStatement(statement.orelse, visit);
  }
}

llvm::Expected<std::vector<PyStatement>>
mlir::sdfg::dace::parsePythonStatements(StringRef text) {
  Parser parser(text);
  std::vector<PyStatement> statements;
  if (!parser.parseStatementsInput(statements))
    return parser.takeError();
  return statements;
}
