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
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::sdfg;

/// Returns the C spelling of a scalar type, or an empty string. A half
/// float (f16, bf16) passed by value is a floating-point value in the
/// calling convention (an SSE register on x86-64), so its C type must be
/// one (sdfg_f16, sdfg_bf16, see kHalfTypes); in memory, as a memref
/// element, its raw bits suffice.
static std::string getScalarCType(Type type, bool byValue) {
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
  if (type.isF16() || type.isBF16()) {
    if (!byValue)
      return "uint16_t"; // Raw bits: C has no portable half type.
    return type.isF16() ? "sdfg_f16" : "sdfg_bf16";
  }
  return "";
}

/// The C types of half floats passed by value, each emitted where the
/// header uses it: _Float16 (GCC 12, clang) and __bf16 (GCC 13, clang).
static constexpr const char *kF16Type =
    "#ifndef SDFG_F16_DEFINED\n"
    "#define SDFG_F16_DEFINED\n"
    "#if defined(__FLT16_MAX__)\n"
    "typedef _Float16 sdfg_f16;\n"
    "#else\n"
    "#error \"f16 values are passed as _Float16, which this compiler lacks\"\n"
    "#endif\n"
    "#endif\n\n";
static constexpr const char *kBF16Type =
    "#ifndef SDFG_BF16_DEFINED\n"
    "#define SDFG_BF16_DEFINED\n"
    "#if defined(__clang__) || defined(__BFLT16_MAX__)\n"
    "typedef __bf16 sdfg_bf16;\n"
    "#else\n"
    "#error \"bf16 values are passed as __bf16, which this compiler lacks\"\n"
    "#endif\n"
    "#endif\n\n";

/// C and C++ keywords and names a header cannot declare as a function.
static bool isReservedInC(StringRef name) {
  static const llvm::StringSet<> reserved = {
      // C99/C11
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "bool", "true", "false",
      // C++
      "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor",
      "catch", "class", "compl", "concept", "consteval", "constexpr",
      "constinit", "const_cast", "co_await", "co_return", "co_yield",
      "decltype", "delete", "dynamic_cast", "explicit", "export", "friend",
      "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
      "operator", "or", "or_eq", "private", "protected", "public",
      "reinterpret_cast", "requires", "static_assert", "static_cast",
      "template", "this", "thread_local", "throw", "try", "typeid",
      "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
      // The program's entry and what the header defines itself.
      "main"};
  return reserved.contains(name) || name.starts_with("sdfg_memref_") ||
         name.starts_with("sdfg_f16") || name.starts_with("sdfg_bf16");
}

/// Whether `name` is spelled like a C identifier.
static bool isIdentifierSpelling(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Whether `name` can be declared in C: an identifier that is no keyword.
static bool isCIdentifier(StringRef name) {
  return isIdentifierSpelling(name) && !isReservedInC(name);
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
    std::string scalar = getScalarCType(type, /*byValue=*/true);
    if (!scalar.empty()) {
      noteHalfType(scalar);
      return scalar;
    }
    // A pointer (an opaque address, e.g. a buffer a CUF or C caller owns).
    if (isa<LLVM::LLVMPointerType>(type))
      return std::string("void *");
    // An unranked memref: MLIR's C interface passes a pointer to
    // {rank, pointer to the ranked descriptor}.
    if (auto unranked = dyn_cast<UnrankedMemRefType>(type)) {
      if (getScalarCType(unranked.getElementType(), /*byValue=*/false).empty())
        return emitError(loc) << "memref element type "
                              << unranked.getElementType()
                              << " has no C equivalent";
      std::string name = "sdfg_unranked_memref";
      if (definedStructs.insert(name).second)
        os << "#ifndef SDFG_UNRANKED_MEMREF_DEFINED\n"
           << "#define SDFG_UNRANKED_MEMREF_DEFINED\n"
           << "/* An unranked memref: its rank and a pointer to the ranked\n"
           << "   descriptor (sdfg_memref_<rank>d_<element>). */\n"
           << "typedef struct {\n"
           << "  int64_t rank;\n"
           << "  void *descriptor;\n"
           << "} " << name << ";\n#endif\n\n";
      return name + " *";
    }
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return emitError(loc) << "type " << type << " has no C equivalent";
    std::string element =
        getScalarCType(memref.getElementType(), /*byValue=*/false);
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
} // namespace

/// The C result of a public program: sdfg.sdfg programs, and func.func
/// ones that take the caller's stream and return nothing, return the call's
/// status (convert-sdfg-to-func makes them so); other functions return
/// their one scalar result or nothing.
static bool returnsStatus(FunctionOpInterface program) {
  bool takesStream = false;
  for (unsigned index = 0, e = program.getNumArguments(); index < e; ++index)
    takesStream |= static_cast<bool>(
        program.getArgAttr(index, SDFGDialect::getExternalStreamAttrName()));
  return isa<SDFGOp>(program) ||
         (program.getResultTypes().empty() && takesStream);
}

static FailureOr<std::string> getResultCType(FunctionOpInterface program,
                                             HeaderEmitter &emitter) {
  ArrayRef<Type> results = program.getResultTypes();
  if (returnsStatus(program))
    return std::string("int32_t");
  if (results.empty())
    return std::string("void");
  std::string scalar = results.size() == 1
                           ? getScalarCType(results.front(), /*byValue=*/true)
                           : "";
  emitter.noteHalfType(scalar);
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
  // Only the module's own: a nested module's functions are not built into
  // the library.
  SmallVector<FunctionOpInterface> programs;
  for (Operation &op : *module.getBody()) {
    auto program = dyn_cast<FunctionOpInterface>(op);
    if (program && isa<SDFGOp, func::FuncOp>(op) && program.isPublic() &&
        !program.isExternal())
      programs.push_back(program);
  }

  std::string body;
  llvm::raw_string_ostream bodyOs(body);
  HeaderEmitter emitter(bodyOs);
  for (FunctionOpInterface program : programs) {
    // The entry _mlir_ciface_NAME needs NAME spelled like an identifier;
    // the short wrapper NAME also needs it to be no keyword, not main and
    // not a name the header defines (then only the entry is declared).
    StringRef name = program.getName();
    if (!isIdentifierSpelling(name) || name.starts_with("_mlir_ciface_"))
      return program.emitError()
             << "program @" << name
             << " has no C entry point: _mlir_ciface_" << name
             << " is no C identifier (or names another program's entry); "
                "rename it";
    // A GPU program's entry takes the caller's stream, which
    // add-external-gpu-stream adds; declared before that, the header would
    // promise an entry without the stream that the library does not have.
    bool takesStream = llvm::any_of(
        llvm::seq(program.getNumArguments()), [&](unsigned index) {
          return static_cast<bool>(program.getArgAttr(
              index, SDFGDialect::getExternalStreamAttrName()));
        });
    auto sdfgProgram = dyn_cast<SDFGOp>(program.getOperation());
    bool gpuWork =
        (sdfgProgram && sdfgProgram.isGpuProgram()) ||
        program.getFunctionBody()
            .walk([](Operation *op) {
              return isHostGpuWork(op) ? WalkResult::interrupt()
                                       : WalkResult::advance();
            })
            .wasInterrupted();
    if (gpuWork && !takesStream)
      return program.emitError()
             << "program @" << name
             << " does GPU work but has not been given the caller's stream; "
                "run add-external-gpu-stream before --sdfg-to-c-header (as "
                "sdfg-compile does)";
    bool wrapper = isCIdentifier(name);
    std::string params, args;
    // Arguments named in their source program (sdfg.arg_name, e.g. a DaCe
    // container) keep that name where it is a C identifier no other
    // parameter has; the rest are arg0, arg1, ...
    llvm::StringMap<unsigned> sourceNames;
    for (unsigned index = 0; index < program.getNumArguments(); ++index) {
      for (StringRef attr : {SDFGDialect::getArgNameAttrName(),
                             SDFGDialect::getExternalStreamAttrName()})
        if (auto name = program.getArgAttrOfType<StringAttr>(index, attr))
          ++sourceNames[name.getValue()];
    }
    auto isArgN = [](StringRef name) {
      return name.consume_front("arg") && !name.empty() &&
             llvm::all_of(name, llvm::isDigit);
    };
    for (auto [index, type] : llvm::enumerate(program.getArgumentTypes())) {
      FailureOr<std::string> cType = emitter.getCType(type, program.getLoc());
      if (failed(cType))
        return failure();
      std::string parameter = "arg" + std::to_string(index);
      if (auto source = program.getArgAttrOfType<StringAttr>(
              index, SDFGDialect::getArgNameAttrName());
          source && isCIdentifier(source.getValue()) &&
          !isArgN(source.getValue()) && sourceNames[source.getValue()] == 1)
        parameter = source.getValue().str();
      if (auto marker = program.getArgAttrOfType<StringAttr>(
              index, SDFGDialect::getExternalStreamAttrName())) {
        // The stream's name, where it is a C identifier the other
        // parameters (arg0, arg1, ...) do not have.
        StringRef markerName = marker.getValue();
        StringRef digits = markerName;
        bool clashes = digits.consume_front("arg") && !digits.empty() &&
                       llvm::all_of(digits, llvm::isDigit);
        if (!isCIdentifier(markerName) || clashes)
          return program.emitError()
                 << "names its stream argument '" << markerName
                 << "' (sdfg.external_stream), which is no C identifier "
                    "the header can give it (not a keyword, not argN); "
                    "choose another name (add-external-gpu-stream's "
                    "argument-name)";
        parameter = markerName.str();
      }
      if (index) {
        params += ", ";
        args += ", ";
      }
      params +=
          *cType + (StringRef(*cType).ends_with("*") ? "" : " ") + parameter;
      args += parameter;
    }
    FailureOr<std::string> result =
        getResultCType(program, emitter);
    if (failed(result))
      return failure();
    if (params.empty())
      params = "void";
    if (returnsStatus(program))
      bodyOs << "/* Program @" << name
             << ": returns 0, or the error code of the first GPU operation "
                "that\n   failed (its text: sdfgrtGetLastError()). */\n";
    else
      bodyOs << "/* Function @" << name << ". */\n";
    bodyOs << *result << " _mlir_ciface_" << name << "(" << params << ");\n";
    if (wrapper)
      bodyOs << "static inline " << *result << " " << name << "(" << params
             << ") {\n  " << (*result == "void" ? "" : "return ")
             << "_mlir_ciface_" << name << "(" << args << ");\n}\n";
    else
      bodyOs << "/* (No short name: " << name
             << " is a C or C++ keyword, main, or a name of this header.) "
                "*/\n";
    bodyOs << "\n";
  }

  os << "/* Generated by sdfg-translate --sdfg-to-c-header. Do not edit. */\n"
     << "#pragma once\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << (emitter.usesF16 ? kF16Type : "")
     << (emitter.usesBF16 ? kBF16Type : "") << body
     << "#ifdef __cplusplus\n}\n#endif\n";
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
