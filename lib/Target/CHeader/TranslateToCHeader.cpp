//===- TranslateToCHeader.cpp - C header of compiled programs -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The ahead-of-time build exports `_mlir_ciface_<program>` (MLIR's C
// interface): this header declares it with C types and adds a
// `<program>(...)` inline wrapper under the program's own name.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Target/CHeader.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::sdfg;

/// Returns the C spelling of a scalar type, or an empty string.
static std::string getScalarCType(Type type) {
  if (isa<IndexType>(type))
    return "int64_t";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width == 1)
      return "bool";
    if (width == 8 || width == 16 || width == 32 || width == 64)
      return (integer.isUnsigned() ? "uint" : "int") + std::to_string(width) +
             "_t";
    return "";
  }
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16() || type.isBF16())
    return "uint16_t"; // Raw bits: C has no portable half type.
  return "";
}

namespace {
/// Emits the declarations, defining each memref descriptor struct once.
class HeaderEmitter {
public:
  explicit HeaderEmitter(llvm::raw_ostream &os) : os(os) {}

  /// Returns the C type of a program argument, defining what it needs.
  FailureOr<std::string> getCType(Type type, Location loc) {
    if (isa<StreamType>(type))
      return std::string("void *");
    std::string scalar = getScalarCType(type);
    if (!scalar.empty())
      return scalar;
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return emitError(loc) << "type " << type << " has no C equivalent";
    std::string element = getScalarCType(memref.getElementType());
    if (element.empty())
      return emitError(loc) << "memref element type "
                            << memref.getElementType()
                            << " has no C equivalent";
    std::string name = "sdfg_memref_" + std::to_string(memref.getRank()) +
                       "d_" + element;
    if (definedStructs.insert(name).second) {
      // Guarded, so that headers of several programs can be included
      // together (C99 forbids repeating a typedef).
      std::string guard = StringRef(name).upper() + "_DEFINED";
      os << "#ifndef " << guard << "\n#define " << guard << "\n"
         << "typedef struct {\n"
         << "  " << element << " *allocated;\n"
         << "  " << element << " *aligned;\n"
         << "  int64_t offset;\n";
      if (memref.getRank() > 0)
        os << "  int64_t sizes[" << memref.getRank() << "];\n"
           << "  int64_t strides[" << memref.getRank() << "];\n";
      os << "} " << name << ";\n#endif\n\n";
    }
    return name + " *";
  }

private:
  llvm::raw_ostream &os;
  llvm::StringSet<> definedStructs;
};
} // namespace

/// The C result of a public program: sdfg.sdfg programs, and func.func
/// ones that take the caller's stream and return nothing, return the call's
/// status (convert-sdfg-to-func makes them so); other functions return
/// their one scalar result or nothing.
static FailureOr<std::string> getResultCType(FunctionOpInterface program) {
  bool takesStream = false;
  for (unsigned index = 0, e = program.getNumArguments(); index < e; ++index)
    takesStream |= static_cast<bool>(
        program.getArgAttr(index, SDFGDialect::getExternalStreamAttrName()));
  ArrayRef<Type> results = program.getResultTypes();
  if (isa<SDFGOp>(program) || (results.empty() && takesStream))
    return std::string("int32_t");
  if (results.empty())
    return std::string("void");
  std::string scalar =
      results.size() == 1 ? getScalarCType(results.front()) : "";
  if (scalar.empty())
    return program.emitError()
           << "returns " << results.size() << " value(s) of type(s) "
           << results << "; a C entry point is declared only for programs "
                         "returning nothing or one scalar";
  return scalar;
}

LogicalResult mlir::sdfg::translateToCHeader(ModuleOp module,
                                             llvm::raw_ostream &os) {
  // Every public program with a body: sdfg.sdfg ones and func.func ones
  // (convert-sdfg-to-func gives both a C entry point).
  SmallVector<FunctionOpInterface> programs;
  module.walk([&](Operation *op) {
    auto program = dyn_cast<FunctionOpInterface>(op);
    if (program && isa<SDFGOp, func::FuncOp>(op) && program.isPublic() &&
        !program.isExternal())
      programs.push_back(program);
  });

  std::string body;
  llvm::raw_string_ostream bodyOs(body);
  HeaderEmitter emitter(bodyOs);
  for (FunctionOpInterface program : programs) {
    std::string params, args;
    for (auto [index, type] : llvm::enumerate(program.getArgumentTypes())) {
      FailureOr<std::string> cType = emitter.getCType(type, program.getLoc());
      if (failed(cType))
        return failure();
      std::string name = "arg" + std::to_string(index);
      if (auto marker = program.getArgAttrOfType<StringAttr>(
              index, SDFGDialect::getExternalStreamAttrName()))
        name = marker.getValue().str();
      if (index) {
        params += ", ";
        args += ", ";
      }
      params += *cType + (StringRef(*cType).ends_with("*") ? "" : " ") + name;
      args += name;
    }
    FailureOr<std::string> result = getResultCType(program);
    if (failed(result))
      return failure();
    if (params.empty())
      params = "void";
    StringRef name = program.getName();
    if (*result == "int32_t")
      bodyOs << "/* Program @" << name
             << ": returns 0, or the error code of the first GPU operation "
                "that\n   failed (its text: sdfgrtGetLastError()). */\n";
    else
      bodyOs << "/* Function @" << name << ". */\n";
    bodyOs << *result << " _mlir_ciface_" << name << "(" << params << ");\n"
           << "static inline " << *result << " " << name << "(" << params
           << ") {\n  " << (*result == "void" ? "" : "return ")
           << "_mlir_ciface_" << name << "(" << args << ");\n}\n\n";
  }

  os << "/* Generated by sdfg-translate --sdfg-to-c-header. Do not edit. */\n"
     << "#pragma once\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << body << "#ifdef __cplusplus\n}\n#endif\n";
  return success();
}

void mlir::sdfg::registerToCHeaderTranslation() {
  TranslateFromMLIRRegistration registration(
      "sdfg-to-c-header",
      "Declare the C entry points of the public programs (sdfg.sdfg and "
      "func.func)",
      [](ModuleOp module, llvm::raw_ostream &os) {
        return translateToCHeader(module, os);
      },
      [](DialectRegistry &registry) {
        registerAllDialects(registry);
        registry.insert<SDFGDialect>();
      });
}
