//===- PythonExpression.h - DaCe's small Python languages -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// One parser for the four languages inside the strings of a DaCe SDFG file:
// symbolic expressions (SymPy's str() up to DaCe 2.0.0a3, and the typed
// 2.0.0a4+ serialization with `$N`, `symbol($x, dtype=...)`, `4i64`),
// interstate conditions and assignments, tasklet code, and wcr lambdas.
// All are (a subset of) Python expressions and simple statements; the
// parser builds a small AST, and the importer decides what each name and
// call means where the string is used.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_PYTHONEXPRESSION_H
#define SDFGSTREAM_LIB_IMPORT_DACE_PYTHONEXPRESSION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace sdfg {
namespace dace {

struct PyExpr;
using PyExprPtr = std::unique_ptr<PyExpr>;

/// A node of a parsed Python expression.
struct PyExpr {
  enum class Kind {
    Integer,   // 42, 4i64 (suffix "i64"), 0x1F; `intValue`, `suffix`
    Float,     // 1.5, 1e-3, 2.0f32, inf/nan are Names; `floatValue`, `suffix`
    Imaginary, // 2.0j: `floatValue` is the imaginary part, `suffix`
    Bool,      // True, False: `intValue` is 0 or 1
    None,      // None
    Name,      // N, $N (`name` without '$', `dollar` set), $? (name "?")
    Attribute, // dace.float64, math.exp: operands[0] . `name`
    Unary,     // op in {Neg, Plus, Invert, Not}: operands[0]
    Binary,    // op in {Add..RShift, Pow}: operands[0] op operands[1]
    BoolOp,    // op in {And, Or}: operands (two or more, left to right)
    Compare,   // operands[0] compareOps[0] operands[1] compareOps[1] ...
    IfElse,    // operands[1] if operands[0] else operands[2]
    Call,      // operands[0](operands[1..]) with `keywords`
    Subscript, // operands[0][operands[1..]] (a tuple index is flattened)
    Tuple,     // (a, b) or a, b: operands
    Lambda,    // lambda params: operands[0]; `params`
  };
  enum class Op {
    None,
    // Unary
    Neg, Plus, Invert, Not,
    // Binary
    Add, Sub, Mul, Div, FloorDiv, Mod, Pow, LShift, RShift, BitAnd, BitOr,
    BitXor,
    // BoolOp
    And, Or,
  };
  enum class CompareOp { Lt, Le, Gt, Ge, Eq, Ne };

  PyExpr() = default;
  explicit PyExpr(Kind kind) : kind(kind) {}

  Kind kind = Kind::None;
  /// Byte offset of the node's first character in the parsed string.
  size_t offset = 0;
  Op op = Op::None;
  int64_t intValue = 0;
  /// Integer literals out of int64 range are an error.
  double floatValue = 0;
  /// A typed literal's suffix as written ("i64", "u8", "f32", "c128"), or
  /// empty.
  std::string suffix;
  std::string name;
  bool dollar = false;
  std::vector<CompareOp> compareOps;
  std::vector<PyExprPtr> operands;
  std::vector<std::pair<std::string, PyExprPtr>> keywords;
  std::vector<std::string> params;

  /// Python-like text of the node (fully parenthesised), for messages and
  /// tests.
  std::string str() const;
};

/// One statement. Simple: `target = value` (target a Name, a Subscript or
/// a Tuple of them), `target op= value` (augmentedOp set), or a bare
/// expression (target null). `pass`. Compound, with an indented block (or
/// simple statements after the colon): `for target in value:` (target a
/// Name), `while value:`, `if value:` with `orelse` (an `elif` is an If
/// alone in `orelse`).
struct PyStatement {
  enum class Kind { Simple, Pass, For, While, If };
  Kind kind = Kind::Simple;
  size_t offset = 0;
  PyExprPtr target;
  PyExpr::Op augmentedOp = PyExpr::Op::None;
  PyExprPtr value;
  std::vector<PyStatement> body;
  std::vector<PyStatement> orelse;
};

/// Calls `visit` on every statement of `statements`, blocks included,
/// outer statements before the ones they hold.
void forEachStatement(llvm::ArrayRef<PyStatement> statements,
                      llvm::function_ref<void(const PyStatement &)> visit);

/// A parse error: the message and the byte offset in the parsed string.
struct PyParseError : llvm::ErrorInfo<PyParseError> {
  static char ID;
  std::string message;
  size_t offset;
  PyParseError(std::string message, size_t offset)
      : message(std::move(message)), offset(offset) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
};

/// Parses one expression (the whole string; surrounding whitespace and one
/// trailing newline allowed).
llvm::Expected<PyExprPtr> parsePythonExpression(llvm::StringRef text);

/// Parses statements separated by newlines or ';' (blank lines and '#'
/// comments skipped), with Python's indented blocks for `for`, `while` and
/// `if`/`elif`/`else`; the first statement's indentation is the outermost
/// block's (DaCe sometimes indents a whole tasklet body). Other compound
/// statements (def, with, try, ...), `for`/`while` with `else`, and
/// `break`, `continue`, `return` are a PyParseError naming the keyword.
llvm::Expected<std::vector<PyStatement>>
parsePythonStatements(llvm::StringRef text);

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_PYTHONEXPRESSION_H
