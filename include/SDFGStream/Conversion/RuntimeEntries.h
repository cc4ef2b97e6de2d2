//===- RuntimeEntries.h - The runtime's entries, as the compiler sees them ===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The one table of runtime entries (include/SDFGStream/Runtime/
// RuntimeEntries.def) as typed values for the passes: which entries exist,
// which argument is the stream, whether a call can fail the program call,
// and each one's signature as an MLIR type. The lowering declares and calls
// entries only through this header (no entry name is spelled in
// lib/Conversion), sdfg-verify-stream-discipline checks calls against it,
// and the runtime checks its C declarations against the same list, so the
// three cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_CONVERSION_RUNTIMEENTRIES_H
#define SDFGSTREAM_CONVERSION_RUNTIMEENTRIES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir {
namespace sdfg {

/// An entry point of the runtime, named as in C.
enum class RuntimeEntry : unsigned {
#define SDFGRT_RUNTIME_ENTRY(name, streamOperand, mayFail, signature) name,
#include "SDFGStream/Runtime/RuntimeEntries.def"
};

/// What calling an entry of MLIR's runtime ABI that the runtime leaves out
/// on purpose would do.
enum class RefusedRuntimeEntry {
  CreatesStream,
  DestroysStream,
  CreatesEvent,
  TakesEvent
};

/// The C name of `entry`.
StringRef getRuntimeEntryName(RuntimeEntry entry);

/// The entry named `name`, or nullopt if the runtime has none.
std::optional<RuntimeEntry> lookupRuntimeEntry(StringRef name);

/// What `name` is if it is an entry of MLIR's runtime ABI that the runtime
/// refuses (mgpuStreamCreate, ...), or nullopt.
std::optional<RefusedRuntimeEntry> lookupRefusedRuntimeEntry(StringRef name);

/// The index of the argument of `entry` that is the stream it runs its GPU
/// work on, or nullopt for an entry without one.
std::optional<unsigned> getRuntimeEntryStreamOperand(RuntimeEntry entry);

/// Whether a call of `entry` can fail the current program call.
bool runtimeEntryMayFail(RuntimeEntry entry);

/// The signature of `entry` as the LLVM dialect declares it (opaque
/// pointers in address space 0, signless integers, void results).
LLVM::LLVMFunctionType getRuntimeEntryLLVMType(MLIRContext *context,
                                               RuntimeEntry entry);

/// The signature of `entry` as a func.func declares it (pointers are
/// `!llvm.ptr`, no result for void), which func-to-llvm turns into
/// getRuntimeEntryLLVMType's.
FunctionType getRuntimeEntryFunctionType(MLIRContext *context,
                                         RuntimeEntry entry);

/// The llvm.func declaration of `entry` in `module`, made at the end of its
/// body if missing; failure (with an error at `loc`) if the module has
/// another symbol of that name or declares it with another signature.
FailureOr<LLVM::LLVMFuncOp>
lookupOrDeclareRuntimeEntry(ModuleOp module, Location loc, RuntimeEntry entry);

/// The same as a func.func, for passes that run before the LLVM dialect.
FailureOr<func::FuncOp> lookupOrDeclareRuntimeEntryFunc(ModuleOp module,
                                                        Location loc,
                                                        RuntimeEntry entry);

/// Emits `func.call @entry(args)` at the insertion point of `builder`, with
/// the entry's results (declare it with lookupOrDeclareRuntimeEntryFunc);
/// the call's results.
ValueRange createRuntimeEntryFuncCall(OpBuilder &builder, Location loc,
                                      RuntimeEntry entry, ValueRange args = {});

/// Emits `llvm.call @entry(args)` at the insertion point of `builder`,
/// declaring the entry on first use; the call's result (null for a void
/// entry), or failure with an error on `op` if `args` do not have the
/// entry's parameter types or the module declares it otherwise.
FailureOr<Value> emitRuntimeCall(OpBuilder &builder, Operation *op,
                                 RuntimeEntry entry, ValueRange args);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_CONVERSION_RUNTIMEENTRIES_H
