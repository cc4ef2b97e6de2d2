//===- RuntimeEntries.cpp - The runtime's entries, as the compiler sees them //
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Builds the typed table of RuntimeEntries.def: each entry's signature,
// written there over sdfgrt::abi's types, becomes a list of functions that
// make its MLIR types.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/RuntimeEntries.h"

#include "SDFGStream/Runtime/EntrySignature.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {

using TypeBuilder = Type (*)(MLIRContext *);

/// The MLIR type of the ABI type `T` (null for void).
template <typename T> struct TypeOf;
template <> struct TypeOf<void> {
  static Type build(MLIRContext *) { return {}; }
};
template <> struct TypeOf<sdfgrt::abi::ptr> {
  static Type build(MLIRContext *context) {
    return LLVM::LLVMPointerType::get(context);
  }
};
template <unsigned Bits> struct TypeOf<sdfgrt::abi::IntegerOf<Bits>> {
  static Type build(MLIRContext *context) {
    return IntegerType::get(context, Bits);
  }
};

/// The builders of the result and parameter types of a signature.
template <typename Signature> struct SignatureBuilders;
template <typename R, typename... A> struct SignatureBuilders<R(A...)> {
  static constexpr TypeBuilder result = &TypeOf<R>::build;
  // One more than the parameters, so that no array is empty.
  static constexpr TypeBuilder params[sizeof...(A) + 1] = {&TypeOf<A>::build...,
                                                           nullptr};
  static constexpr unsigned numParams = sizeof...(A);
};

struct EntryInfo {
  StringLiteral name;
  int streamOperand;
  bool mayFail;
  TypeBuilder result;
  const TypeBuilder *params;
  unsigned numParams;
};

} // namespace

// The signatures are read in sdfgrt::abi, where `ptr` is the ABI's pointer
// (not mlir::ptr, which the using-directive above makes visible).
namespace sdfgrt {
namespace abi {
namespace {
/// RuntimeEntries.def, in the order of RuntimeEntry.
constexpr EntryInfo kEntries[] = {
#define SDFGRT_RUNTIME_ENTRY(name, streamOperand, mayFail, signature)          \
  {#name,                                                                      \
   streamOperand,                                                              \
   mayFail != 0,                                                               \
   SignatureBuilders<signature>::result,                                       \
   SignatureBuilders<signature>::params,                                       \
   SignatureBuilders<signature>::numParams},
#include "SDFGStream/Runtime/RuntimeEntries.def"
};
} // namespace
} // namespace abi
} // namespace sdfgrt

namespace {

const EntryInfo &getInfo(RuntimeEntry entry) {
  return sdfgrt::abi::kEntries[static_cast<unsigned>(entry)];
}

/// The parameter types of `entry`.
SmallVector<Type> getParamTypes(MLIRContext *context, RuntimeEntry entry) {
  const EntryInfo &info = getInfo(entry);
  SmallVector<Type> types;
  for (unsigned i = 0; i < info.numParams; ++i)
    types.push_back(info.params[i](context));
  return types;
}

} // namespace

StringRef mlir::sdfg::getRuntimeEntryName(RuntimeEntry entry) {
  return getInfo(entry).name;
}

std::optional<RuntimeEntry> mlir::sdfg::lookupRuntimeEntry(StringRef name) {
  return llvm::StringSwitch<std::optional<RuntimeEntry>>(name)
#define SDFGRT_RUNTIME_ENTRY(entry, streamOperand, mayFail, signature)         \
  .Case(#entry, RuntimeEntry::entry)
#include "SDFGStream/Runtime/RuntimeEntries.def"
      .Default(std::nullopt);
}

std::optional<RefusedRuntimeEntry>
mlir::sdfg::lookupRefusedRuntimeEntry(StringRef name) {
  return llvm::StringSwitch<std::optional<RefusedRuntimeEntry>>(name)
#define SDFGRT_REFUSED_ENTRY(entry, kind)                                      \
  .Case(#entry, RefusedRuntimeEntry::kind)
#include "SDFGStream/Runtime/RuntimeEntries.def"
      .Default(std::nullopt);
}

std::optional<unsigned>
mlir::sdfg::getRuntimeEntryStreamOperand(RuntimeEntry entry) {
  int operand = getInfo(entry).streamOperand;
  if (operand < 0)
    return std::nullopt;
  return static_cast<unsigned>(operand);
}

bool mlir::sdfg::runtimeEntryMayFail(RuntimeEntry entry) {
  return getInfo(entry).mayFail;
}

LLVM::LLVMFunctionType mlir::sdfg::getRuntimeEntryLLVMType(MLIRContext *context,
                                                           RuntimeEntry entry) {
  Type result = getInfo(entry).result(context);
  return LLVM::LLVMFunctionType::get(result ? result
                                            : LLVM::LLVMVoidType::get(context),
                                     getParamTypes(context, entry));
}

FunctionType mlir::sdfg::getRuntimeEntryFunctionType(MLIRContext *context,
                                                     RuntimeEntry entry) {
  Type result = getInfo(entry).result(context);
  return FunctionType::get(context, getParamTypes(context, entry),
                           result ? TypeRange(result) : TypeRange());
}

/// The declaration of `entry` in `module` as a `FuncOp` whose type is
/// `type`, made if missing; failure with an error at `loc` if the name is
/// taken otherwise.
template <typename FuncOp, typename FuncType>
static FailureOr<FuncOp> lookupOrDeclare(ModuleOp module, Location loc,
                                         RuntimeEntry entry, FuncType type) {
  StringRef name = getRuntimeEntryName(entry);
  if (Operation *existing = module.lookupSymbol(name)) {
    auto function = dyn_cast<FuncOp>(existing);
    if (function && function.getFunctionType() == type)
      return function;
    InFlightDiagnostic diag =
        emitError(loc) << "'" << name << "' is a runtime entry of type " << type
                       << ", but the module declares it otherwise";
    diag.attachNote(existing->getLoc()) << "declared here";
    return failure();
  }
  // LLVM declarations go first in the module, as upstream's
  // LLVM::lookupOrCreateFn puts them; func.func ones last.
  OpBuilder builder(module.getContext());
  if constexpr (std::is_same_v<FuncOp, func::FuncOp>)
    builder.setInsertionPointToEnd(module.getBody());
  else
    builder.setInsertionPointToStart(module.getBody());
  auto function = FuncOp::create(builder, module.getLoc(), name, type);
  if constexpr (std::is_same_v<FuncOp, func::FuncOp>)
    function.setPrivate();
  return function;
}

FailureOr<LLVM::LLVMFuncOp>
mlir::sdfg::lookupOrDeclareRuntimeEntry(ModuleOp module, Location loc,
                                        RuntimeEntry entry) {
  return lookupOrDeclare<LLVM::LLVMFuncOp>(
      module, loc, entry, getRuntimeEntryLLVMType(module.getContext(), entry));
}

FailureOr<func::FuncOp>
mlir::sdfg::lookupOrDeclareRuntimeEntryFunc(ModuleOp module, Location loc,
                                            RuntimeEntry entry) {
  return lookupOrDeclare<func::FuncOp>(
      module, loc, entry,
      getRuntimeEntryFunctionType(module.getContext(), entry));
}

ValueRange mlir::sdfg::createRuntimeEntryFuncCall(OpBuilder &builder,
                                                  Location loc,
                                                  RuntimeEntry entry,
                                                  ValueRange args) {
  FunctionType type = getRuntimeEntryFunctionType(builder.getContext(), entry);
  return func::CallOp::create(builder, loc, getRuntimeEntryName(entry),
                              type.getResults(), args)
      .getResults();
}

FailureOr<Value> mlir::sdfg::emitRuntimeCall(OpBuilder &builder, Operation *op,
                                             RuntimeEntry entry,
                                             ValueRange args) {
  LLVM::LLVMFunctionType type =
      getRuntimeEntryLLVMType(op->getContext(), entry);
  if (!llvm::equal(args.getTypes(), type.getParams())) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "lowers to a call of "
                              << getRuntimeEntryName(entry) << " with (";
    llvm::interleaveComma(args.getTypes(), diag);
    diag << ") where the runtime takes " << type;
    return failure();
  }
  FailureOr<LLVM::LLVMFuncOp> callee = lookupOrDeclareRuntimeEntry(
      op->getParentOfType<ModuleOp>(), op->getLoc(), entry);
  if (failed(callee))
    return failure();
  auto call = LLVM::CallOp::create(builder, op->getLoc(), *callee, args);
  return type.getReturnType() == LLVM::LLVMVoidType::get(op->getContext())
             ? Value()
             : call.getResult();
}
