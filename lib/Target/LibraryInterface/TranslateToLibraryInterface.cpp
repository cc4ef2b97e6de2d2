//===- TranslateToLibraryInterface.cpp - Packed entries and manifest ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// `sdfg-compile` builds this LLVM IR into every program library. MLIR's C
// interface (`_mlir_ciface_<name>`) has one C signature per program, which a
// caller can only call if it was compiled against the header; a caller that
// learns the signature at run time (the Python package, the generic XLA FFI
// handler) calls the packed entry instead, with one array of argument
// addresses, and reads the signature from the manifest.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Target/LibraryInterface.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"
#include "SDFGStream/Target/CInterface.h"

#include "mlir/InitAllDialects.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sdfg;

/// Names the library defines besides the programs' own.
static LogicalResult checkNames(ArrayRef<CProgram> programs) {
  for (const CProgram &program : programs)
    if (StringRef(program.name).starts_with("_sdfgstream_packed_") ||
        program.name == "sdfgstreamManifest")
      return program.op.emitError()
             << "program @" << program.name
             << " has a name the library's interface defines itself "
                "(sdfgstreamManifest, _sdfgstream_packed_*); rename it";
  return success();
}

/// The LLVM IR type of a value of MLIR type `type` as the lowered C entry
/// (`_mlir_ciface_<name>`) takes or returns it: memrefs, pointers and
/// streams are pointers, index is i64, scalars are themselves. Emitting the
/// packed entries as IR with these types, rather than as C, calls each
/// entry with exactly the signature the lowering gave it (half floats by
/// value need no C compiler that knows them).
static llvm::Type *getEntryType(Type type, llvm::LLVMContext &context) {
  if (isa<IndexType>(type))
    return llvm::Type::getInt64Ty(context);
  if (auto integer = dyn_cast<IntegerType>(type))
    return llvm::Type::getIntNTy(context, integer.getWidth());
  if (type.isF16())
    return llvm::Type::getHalfTy(context);
  if (type.isBF16())
    return llvm::Type::getBFloatTy(context);
  if (type.isF32())
    return llvm::Type::getFloatTy(context);
  if (type.isF64())
    return llvm::Type::getDoubleTy(context);
  return llvm::PointerType::getUnqual(context);
}

LogicalResult mlir::sdfg::translateToLibraryInterface(
    ModuleOp module, const LibraryInterfaceOptions &options,
    llvm::raw_ostream &os) {
  FailureOr<SmallVector<CProgram>> programs = collectCPrograms(module);
  if (failed(programs) || failed(checkNames(*programs)))
    return failure();
  FailureOr<llvm::json::Value> manifest =
      buildManifest(module, *programs, options);
  if (failed(manifest))
    return failure();

  llvm::LLVMContext context;
  llvm::Module interface("sdfgstream_library_interface", context);
  llvm::IRBuilder<> builder(context);
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  llvm::Type *i32 = builder.getInt32Ty();

  // const char *sdfgstreamManifest(void): the manifest as JSON text.
  std::string text;
  llvm::raw_string_ostream textOs(text);
  textOs << *manifest;
  llvm::Constant *textInit =
      llvm::ConstantDataArray::getString(context, text, /*AddNull=*/true);
  auto *textGlobal = new llvm::GlobalVariable(
      interface, textInit->getType(), /*isConstant=*/true,
      llvm::GlobalValue::PrivateLinkage, textInit, "sdfgstream_manifest_text");
  auto *manifestFn = llvm::Function::Create(
      llvm::FunctionType::get(ptr, /*isVarArg=*/false),
      llvm::GlobalValue::ExternalLinkage, "sdfgstreamManifest", interface);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", manifestFn));
  builder.CreateRet(textGlobal);

  // int32_t _sdfgstream_packed_<name>(void **args): args[i] is the address
  // of the descriptor (memrefs), of the value (scalars), or the pointer or
  // stream itself; a function's scalar result is stored to args[<count>].
  for (const CProgram &program : *programs) {
    SmallVector<llvm::Type *> parameterTypes;
    for (const CParameter &parameter : program.parameters)
      parameterTypes.push_back(getEntryType(parameter.type, context));
    llvm::Type *resultType =
        program.returnsStatus ? i32
        : program.resultCType == "void"
            ? builder.getVoidTy()
            : getEntryType(program.op.getResultTypes().front(), context);
    llvm::FunctionCallee entry = interface.getOrInsertFunction(
        "_mlir_ciface_" + program.name,
        llvm::FunctionType::get(resultType, parameterTypes, false));
    auto *packed = llvm::Function::Create(
        llvm::FunctionType::get(i32, {ptr}, false),
        llvm::GlobalValue::ExternalLinkage,
        "_sdfgstream_packed_" + program.name, interface);
    builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", packed));
    llvm::Value *args = packed->getArg(0);
    SmallVector<llvm::Value *> operands;
    for (auto [index, parameter] : llvm::enumerate(program.parameters)) {
      llvm::Value *slot = builder.CreateLoad(
          ptr, builder.CreateConstGEP1_64(ptr, args, index));
      operands.push_back(parameter.kind == CParameter::Kind::Scalar
                             ? builder.CreateLoad(parameterTypes[index], slot)
                             : slot);
    }
    llvm::Value *result = builder.CreateCall(entry, operands);
    if (program.returnsStatus) {
      builder.CreateRet(result);
      continue;
    }
    if (!resultType->isVoidTy()) {
      llvm::Value *slot = builder.CreateLoad(
          ptr,
          builder.CreateConstGEP1_64(ptr, args, program.parameters.size()));
      builder.CreateStore(result, slot);
    }
    builder.CreateRet(builder.getInt32(0));
  }
  interface.print(os, nullptr);
  return success();
}

static llvm::cl::opt<bool> interfaceSyncCall(
    "library-sync-call",
    llvm::cl::desc("--sdfg-to-manifest / --sdfg-to-library-interface: the "
                   "library is built with sync-call (every call ends with a "
                   "host sync)"),
    llvm::cl::init(false));

void mlir::sdfg::registerLibraryInterfaceTranslations() {
  auto dialects = [](DialectRegistry &registry) {
    registerAllDialects(registry);
    registry.insert<SDFGDialect>();
  };
  TranslateFromMLIRRegistration manifest(
      "sdfg-to-manifest",
      "Describe the public programs' C entries as JSON (the manifest "
      "sdfg-compile builds into a program library)",
      [](ModuleOp module, llvm::raw_ostream &os) {
        FailureOr<SmallVector<CProgram>> programs = collectCPrograms(module);
        if (failed(programs))
          return failure();
        FailureOr<llvm::json::Value> value =
            buildManifest(module, *programs, {interfaceSyncCall});
        if (failed(value))
          return failure();
        os << llvm::formatv("{0:2}", *value) << "\n";
        return success();
      },
      dialects);
  TranslateFromMLIRRegistration source(
      "sdfg-to-library-interface",
      "Write the LLVM IR of a program library's packed entries and "
      "manifest",
      [](ModuleOp module, llvm::raw_ostream &os) {
        return translateToLibraryInterface(module, {interfaceSyncCall}, os);
      },
      dialects);
}
