//===- CInterface.h - The C interface of compiled programs ------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the ahead-of-time build exports for each public program, in C terms:
// the entry `_mlir_ciface_<name>`, its parameters (C type, name, kind) and
// its result. The C header (`--sdfg-to-c-header`) and the library's
// interface (`--sdfg-to-library-interface`: packed entries and the
// manifest that the Python package reads) are both written from it, so
// they cannot disagree on a name or a type.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TARGET_CINTERFACE_H
#define SDFGSTREAM_TARGET_CINTERFACE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace sdfg {

/// One parameter of a program's C entry.
struct CParameter {
  enum class Kind {
    MemRef,         ///< pointer to a ranked strided descriptor
    UnrankedMemRef, ///< pointer to {rank, pointer to the descriptor}
    Scalar,         ///< by value
    Pointer,        ///< an opaque address (`!llvm.ptr`)
    Stream          ///< the caller's stream, `void *`
  };
  Kind kind;
  Type type;
  std::string cType; ///< as the header spells it ("sdfg_memref_1d_float *")
  std::string name;  ///< the header's parameter name
};

/// One public program's C entry.
struct CProgram {
  mutable FunctionOpInterface op; // (ops are handles: const of no use)
  std::string name;
  std::string resultCType;  ///< "int32_t" for a status, "void", a scalar
  bool returnsStatus;       ///< the result is the call's status
  bool hasShortName;        ///< the header also defines `name(...)`
  SmallVector<CParameter> parameters;
};

/// Spells C types, and writes each descriptor typedef a type needs once
/// (to `typedefs`).
class CTypeSpeller {
public:
  explicit CTypeSpeller(llvm::raw_ostream &typedefs) : os(typedefs) {}

  /// The C type of a program parameter and its kind, defining what it
  /// needs; an error at `loc` for a type C cannot take.
  FailureOr<std::pair<std::string, CParameter::Kind>> getCType(Type type,
                                                               Location loc);
  /// The C spelling of a scalar type, or "" (half floats: raw bits in
  /// memory, sdfg_f16/sdfg_bf16 by value).
  static std::string getScalarCType(Type type, bool byValue);

  /// Notes which half float types (passed by value) the header needs.
  void noteHalfType(StringRef scalar) {
    usesF16 |= scalar == "sdfg_f16";
    usesBF16 |= scalar == "sdfg_bf16";
  }
  bool usesF16 = false, usesBF16 = false;

private:
  llvm::raw_ostream &os;
  llvm::StringSet<> definedStructs;
};

/// The C entries of the public programs with a body directly in `module`
/// (sdfg.sdfg and func.func), in order; an error at the program that has
/// none (a name that is no C identifier, GPU work without the caller's
/// stream, a type C cannot take).
FailureOr<SmallVector<CProgram>> collectCPrograms(ModuleOp module,
                                                  CTypeSpeller &speller);

/// The same, for callers that write no C (the descriptor typedefs are
/// dropped).
FailureOr<SmallVector<CProgram>> collectCPrograms(ModuleOp module);

/// The typedefs of half floats passed by value, as the header needs them.
void writeHalfTypedefs(const CTypeSpeller &speller, llvm::raw_ostream &os);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_TARGET_CINTERFACE_H
