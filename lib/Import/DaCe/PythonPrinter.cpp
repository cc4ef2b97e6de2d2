//===- PythonPrinter.cpp - Printing parsed Python expressions -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// PyExpr::str(): an expression printed back as Python, with the
// parentheses its precedence needs, floats in the shortest form that reads
// back to the same value, and typed literals with their suffix (see
// PythonExpression.cpp for the language).
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
