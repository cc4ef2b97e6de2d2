//===- PythonPrimaries.cpp - Atoms, calls and subscripts ------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The part of the expression parser below the operators
// (PythonExpression.cpp): primaries (calls, `a[i, j]` subscripts,
// attributes) and atoms (names, literals, parenthesised expressions,
// tuples and lists).
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

using namespace mlir::sdfg::dace::pyparse;

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
