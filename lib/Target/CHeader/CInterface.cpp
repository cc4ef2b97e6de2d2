//===- CInterface.cpp - The C interface of compiled programs --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The ahead-of-time build exports `_mlir_ciface_<program>` (MLIR's C
// interface). This file decides, once for the header and the library's
// interface, which programs have one and how C spells their parameters.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Target/CInterface.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::sdfg;

/// A half float (f16, bf16) passed by value is a floating-point value in the
/// calling convention (an SSE register on x86-64), so its C type must be one
/// (sdfg_f16, sdfg_bf16, see writeHalfTypedefs); in memory, as a memref
/// element, its raw bits suffice.
std::string CTypeSpeller::getScalarCType(Type type, bool byValue) {
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

/// _Float16 (GCC 12, clang) and __bf16 (GCC 13, clang), each emitted where
/// the header uses it.
void mlir::sdfg::writeHalfTypedefs(const CTypeSpeller &speller,
                                   llvm::raw_ostream &os) {
  if (speller.usesF16)
    os << "#ifndef SDFG_F16_DEFINED\n"
          "#define SDFG_F16_DEFINED\n"
          "#if defined(__FLT16_MAX__)\n"
          "typedef _Float16 sdfg_f16;\n"
          "#else\n"
          "#error \"f16 values are passed as _Float16, which this compiler "
          "lacks\"\n"
          "#endif\n"
          "#endif\n\n";
  if (speller.usesBF16)
    os << "#ifndef SDFG_BF16_DEFINED\n"
          "#define SDFG_BF16_DEFINED\n"
          "#if defined(__clang__) || defined(__BFLT16_MAX__)\n"
          "typedef __bf16 sdfg_bf16;\n"
          "#else\n"
          "#error \"bf16 values are passed as __bf16, which this compiler "
          "lacks\"\n"
          "#endif\n"
          "#endif\n\n";
}

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

FailureOr<std::pair<std::string, CParameter::Kind>>
CTypeSpeller::getCType(Type type, Location loc) {
  using Kind = CParameter::Kind;
  if (isa<StreamType>(type))
    return std::make_pair(std::string("void *"), Kind::Stream);
  std::string scalar = getScalarCType(type, /*byValue=*/true);
  if (!scalar.empty()) {
    noteHalfType(scalar);
    return std::make_pair(scalar, Kind::Scalar);
  }
  // A pointer (an opaque address, e.g. a buffer a CUF or C caller owns).
  if (isa<LLVM::LLVMPointerType>(type))
    return std::make_pair(std::string("void *"), Kind::Pointer);
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
    return std::make_pair(name + " *", Kind::UnrankedMemRef);
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return emitError(loc) << "type " << type << " has no C equivalent";
  std::string element =
      getScalarCType(memref.getElementType(), /*byValue=*/false);
  if (element.empty())
    return emitError(loc) << "memref element type " << memref.getElementType()
                          << " has no C equivalent";
  std::string name = "sdfg_memref_" + std::to_string(memref.getRank()) + "d_" +
                     element;
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
  return std::make_pair(name + " *", Kind::MemRef);
}

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
                                             CTypeSpeller &speller) {
  ArrayRef<Type> results = program.getResultTypes();
  if (returnsStatus(program))
    return std::string("int32_t");
  if (results.empty())
    return std::string("void");
  std::string scalar =
      results.size() == 1
          ? CTypeSpeller::getScalarCType(results.front(), /*byValue=*/true)
          : "";
  speller.noteHalfType(scalar);
  if (scalar.empty())
    return program.emitError()
           << "returns " << results.size() << " value(s) of type(s) "
           << results << "; a C entry point is declared only for programs "
                         "returning nothing or one scalar";
  return scalar;
}

/// The C entry of one program.
static FailureOr<CProgram> getCProgram(FunctionOpInterface program,
                                       CTypeSpeller &speller) {
  // The entry _mlir_ciface_NAME needs NAME spelled like an identifier;
  // the short wrapper NAME also needs it to be no keyword, not main and
  // not a name the header defines (then only the entry is declared).
  StringRef name = program.getName();
  if (!isIdentifierSpelling(name) || name.starts_with("_mlir_ciface_"))
    return program.emitError()
           << "program @" << name << " has no C entry point: _mlir_ciface_"
           << name
           << " is no C identifier (or names another program's entry); "
              "rename it";
  // A GPU program's entry takes the caller's stream, which
  // sdfg-add-external-gpu-stream adds; declared before that, the header would
  // promise an entry without the stream that the library does not have.
  bool takesStream =
      llvm::any_of(llvm::seq(program.getNumArguments()), [&](unsigned index) {
        return static_cast<bool>(program.getArgAttr(
            index, SDFGDialect::getExternalStreamAttrName()));
      });
  auto sdfgProgram = dyn_cast<SDFGOp>(program.getOperation());
  bool gpuWork = (sdfgProgram && sdfgProgram.isGpuProgram()) ||
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
              "run sdfg-add-external-gpu-stream before --sdfg-to-c-header (as "
              "sdfg-compile does)";

  CProgram entry{program, name.str(), "", returnsStatus(program),
                 isCIdentifier(name), {}};
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
    auto cType = speller.getCType(type, program.getLoc());
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
      if (!isCIdentifier(markerName) || isArgN(markerName))
        return program.emitError()
               << "names its stream argument '" << markerName
               << "' (sdfg.external_stream), which is no C identifier "
                  "the header can give it (not a keyword, not argN); "
                  "choose another name (sdfg-add-external-gpu-stream's "
                  "argument-name)";
      parameter = markerName.str();
    }
    entry.parameters.push_back(
        CParameter{cType->second, type, cType->first, parameter});
  }
  FailureOr<std::string> result = getResultCType(program, speller);
  if (failed(result))
    return failure();
  entry.resultCType = *result;
  return entry;
}

FailureOr<SmallVector<CProgram>>
mlir::sdfg::collectCPrograms(ModuleOp module) {
  std::string typedefs;
  llvm::raw_string_ostream typedefsOs(typedefs);
  CTypeSpeller speller(typedefsOs);
  return collectCPrograms(module, speller);
}

FailureOr<SmallVector<CProgram>>
mlir::sdfg::collectCPrograms(ModuleOp module, CTypeSpeller &speller) {
  // Every public program with a body: sdfg.sdfg ones and func.func ones
  // (convert-sdfg-to-func gives both a C entry point). Only the module's
  // own: a nested module's functions are not built into the library.
  SmallVector<CProgram> programs;
  for (Operation &op : *module.getBody()) {
    auto program = dyn_cast<FunctionOpInterface>(op);
    if (!program || !isa<SDFGOp, func::FuncOp>(op) || !program.isPublic() ||
        program.isExternal())
      continue;
    FailureOr<CProgram> entry = getCProgram(program, speller);
    if (failed(entry))
      return failure();
    programs.push_back(std::move(*entry));
  }
  return programs;
}
