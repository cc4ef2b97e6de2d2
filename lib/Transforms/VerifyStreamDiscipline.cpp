//===- VerifyStreamDiscipline.cpp - Lint lowered code for stream misuse ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Ground rule 1 of the design: no GPU work on a stream the caller did not
// give. This pass checks it on the lowered LLVM-dialect IR, where the
// runtime calls are explicit, so it also catches what other passes (or
// upstream lowerings) produced.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"

#include "SDFGStream/Conversion/RuntimeEntries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_VERIFYSTREAMDISCIPLINE
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct VerifyStreamDiscipline
    : public sdfg::impl::VerifyStreamDisciplineBase<VerifyStreamDiscipline> {
  using VerifyStreamDisciplineBase::VerifyStreamDisciplineBase;
  void runOnOperation() override;
};

/// What a runtime function does with streams.
enum class CallKind {
  Other,
  CreatesStream,
  DestroysStream,
  SyncsDevice,
  TakesStream,
  TakesEvent,
  RunsOnDefaultStream,
  NotInRuntime
};
struct CallInfo {
  CallKind kind = CallKind::Other;
  /// Operand index of the stream (TakesStream) or event (TakesEvent), or
  /// LastArgument.
  unsigned operand = 0;
};

/// CallInfo::operand of the rows of VendorStreamCalls.def.
enum : unsigned { NoStream = 0, LastArgument = ~0u };
} // namespace

/// Returns what the CUDA or HIP function `callee` does with streams, after
/// dropping the suffixes that versioned and per-thread-default-stream
/// symbols carry (cuMemcpyHtoDAsync_v2_ptsz is cuMemcpyHtoDAsync).
static CallInfo classifyVendorCall(StringRef callee) {
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (StringRef suffix : {"_v2", "_v3", "_ptsz", "_ptds", "_spt"})
      stripped |= callee.consume_back(suffix);
  }
  using K = CallKind;
  return llvm::StringSwitch<CallInfo>(callee)
#define SDFG_VENDOR_CALL(NAME, KIND, STREAM_ARGUMENT)                          \
  .Case(#NAME, {K::KIND, STREAM_ARGUMENT})
#include "VendorStreamCalls.def"
      .Default({});
}

/// What `callee` does with streams. The runtime's own entries come from
/// its one table (RuntimeEntries.def, through Conversion/RuntimeEntries.h),
/// the list the runtime is checked against, so an mgpu*/sdfgrt* function
/// that it lacks (one that would fail to link or load) is reported rather
/// than passed.
static CallInfo classify(StringRef callee) {
  using K = CallKind;
  if (std::optional<RuntimeEntry> entry = lookupRuntimeEntry(callee)) {
    if (std::optional<unsigned> stream = getRuntimeEntryStreamOperand(*entry))
      return {K::TakesStream, *stream};
    return {K::Other};
  }
  if (std::optional<RefusedRuntimeEntry> refused =
          lookupRefusedRuntimeEntry(callee)) {
    switch (*refused) {
    case RefusedRuntimeEntry::CreatesStream:
      return {K::CreatesStream};
    case RefusedRuntimeEntry::DestroysStream:
      return {K::DestroysStream};
    case RefusedRuntimeEntry::TakesEvent:
      return {K::TakesEvent, 0};
    case RefusedRuntimeEntry::CreatesEvent:
      return {K::NotInRuntime};
    }
  }
  if (callee.starts_with("mgpu") || callee.starts_with("sdfgrt"))
    return {K::NotInRuntime};
  return classifyVendorCall(callee);
}

/// Reports a call of a runtime entry through a declaration whose signature
/// is not the one the runtime implements (an upstream lowering that changed
/// its ABI, a hand-written declaration): the call would pass its arguments
/// wrongly. True if it reported one.
static bool reportWrongSignature(LLVM::CallOp call, StringRef callee) {
  std::optional<RuntimeEntry> entry = lookupRuntimeEntry(callee);
  if (!entry)
    return false;
  auto function = SymbolTable::lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
      call, call.getCalleeAttr());
  if (!function)
    return false;
  LLVM::LLVMFunctionType expected =
      getRuntimeEntryLLVMType(call.getContext(), *entry);
  if (function.getFunctionType() == expected)
    return false;
  InFlightDiagnostic diag = call.emitError()
                            << "calls " << callee << " declared as "
                            << function.getFunctionType()
                            << ", but the runtime implements " << expected;
  diag.attachNote(function.getLoc()) << "declared here";
  return true;
}

/// Returns true if `value` is a compile-time constant pointer (null, or an
/// integer constant cast to a pointer).
static bool isConstantPointer(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (auto cast = dyn_cast<LLVM::IntToPtrOp>(def))
    return isConstantPointer(cast.getArg()) ||
           (cast.getArg().getDefiningOp() &&
            cast.getArg().getDefiningOp()->hasTrait<OpTrait::ConstantLike>());
  return def->hasTrait<OpTrait::ConstantLike>();
}

/// Returns the global that `stream` is loaded from (at any offset into it),
/// or null. Such a stream is the same for every call: not the caller's.
static FlatSymbolRefAttr getGlobalStreamSource(Value stream) {
  auto load = stream.getDefiningOp<LLVM::LoadOp>();
  if (!load)
    return {};
  Value address = load.getAddr();
  while (auto gep = address.getDefiningOp<LLVM::GEPOp>())
    address = gep.getBase();
  auto global = address.getDefiningOp<LLVM::AddressOfOp>();
  return global ? global.getGlobalNameAttr() : FlatSymbolRefAttr();
}

static CallInfo classify(StringRef callee);

/// Returns true if `stream` may be one the caller gave: an argument of its
/// function, a stream loaded from memory (a struct the caller passed, a
/// stack slot, the slots that sdfgrtForkStreams forks from the caller's
/// stream), through the block arguments of branches and selects. A stream
/// that a call returns is not, unless the call creates it (reported as
/// such), nor is a constant that reaches it through a branch, nor one made
/// from an integer. Constants and globals used directly have their own
/// errors.
static bool isCallersStream(Value stream,
                            llvm::SmallPtrSetImpl<Value> &visited) {
  if (!visited.insert(stream).second)
    return true; // A cycle of block arguments adds no new source.
  if (auto argument = dyn_cast<BlockArgument>(stream)) {
    Block *block = argument.getOwner();
    if (block->isEntryBlock())
      return isa<FunctionOpInterface>(block->getParentOp());
    for (auto it = block->pred_begin(), e = block->pred_end(); it != e;
         ++it) {
      auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
      if (!branch)
        return false;
      Value incoming = branch.getSuccessorOperands(
          it.getSuccessorIndex())[argument.getArgNumber()];
      if (!incoming || !isCallersStream(incoming, visited))
        return false;
    }
    return true;
  }
  Operation *def = stream.getDefiningOp();
  if (isa<LLVM::LoadOp>(def))
    return true;
  if (auto select = dyn_cast<LLVM::SelectOp>(def))
    return isCallersStream(select.getTrueValue(), visited) &&
           isCallersStream(select.getFalseValue(), visited);
  if (auto call = dyn_cast<LLVM::CallOp>(def))
    return call.getCallee() &&
           classify(*call.getCallee()).kind == CallKind::CreatesStream;
  return false;
}

static bool isCallersStream(Value stream) {
  llvm::SmallPtrSet<Value, 8> visited;
  return isCallersStream(stream, visited);
}

/// Returns the stream argument of `call` that `info` names, or null where
/// the call has fewer arguments.
static Value getStreamOperand(LLVM::CallOp call, CallInfo info) {
  OperandRange args = call.getArgOperands();
  if (info.operand == LastArgument)
    return args.empty() ? Value() : args.back();
  return info.operand < args.size() ? args[info.operand] : Value();
}

/// Returns true if `value` was made by mgpuEventCreate.
static bool isEvent(Value value) {
  auto call = value.getDefiningOp<LLVM::CallOp>();
  return call && call.getCallee() &&
         lookupRefusedRuntimeEntry(*call.getCallee()) ==
             RefusedRuntimeEntry::CreatesEvent;
}

void VerifyStreamDiscipline::runOnOperation() {
  bool failed = false;
  getOperation().walk([&](Operation *op) {
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      Value stream = launch.getAsyncObject();
      if (!stream) {
        launch.emitError() << "launches a kernel without a stream: its "
                              "translation creates, synchronizes and "
                              "destroys a stream for it";
        failed = true;
      } else if (isConstantPointer(stream)) {
        launch.emitError()
            << "launches a kernel on a null or constant stream";
        failed = true;
      } else if (FlatSymbolRefAttr global = getGlobalStreamSource(stream)) {
        launch.emitError() << "launches a kernel on a stream loaded from "
                              "global "
                           << global << ": the stream must be the caller's";
        failed = true;
      } else if (!isCallersStream(stream)) {
        launch.emitError()
            << "launches a kernel on a stream that is neither an argument "
               "of its function nor loaded from memory: the stream must be "
               "the caller's";
        failed = true;
      }
      return;
    }
    auto call = dyn_cast<LLVM::CallOp>(op);
    if (!call || !call.getCallee())
      return;
    StringRef callee = *call.getCallee();
    if (reportWrongSignature(call, callee)) {
      failed = true;
      return;
    }
    CallInfo info = classify(callee);
    switch (info.kind) {
    case CallKind::Other:
      return;
    case CallKind::CreatesStream:
      call.emitError() << "creates a stream (" << callee
                       << "): GPU work must run on the caller's stream";
      break;
    case CallKind::DestroysStream:
      call.emitError() << "destroys a stream (" << callee << ")";
      break;
    case CallKind::NotInRuntime:
      call.emitError() << "calls " << callee
                       << ", which the SDFGStream runtime does not implement "
                          "(the program would fail to link or load)";
      break;
    case CallKind::SyncsDevice:
      call.emitError() << "synchronizes the whole device or context ("
                       << callee << "); synchronize the caller's stream";
      break;
    case CallKind::TakesStream: {
      Value stream = getStreamOperand(call, info);
      if (!stream)
        return;
      if (isConstantPointer(stream)) {
        call.emitError() << "passes a null or constant stream to " << callee;
        break;
      }
      if (FlatSymbolRefAttr global = getGlobalStreamSource(stream)) {
        call.emitError() << "passes a stream loaded from global " << global
                         << " to " << callee
                         << ": the stream must be the caller's";
        break;
      }
      if (isCallersStream(stream))
        return;
      call.emitError() << "passes a stream to " << callee
                       << " that is neither an argument of its function nor "
                          "loaded from memory: the stream must be the "
                          "caller's";
      break;
    }
    case CallKind::RunsOnDefaultStream:
      call.emitError() << "runs on the default stream (" << callee
                       << "): enqueue it on the caller's stream with the "
                          "asynchronous form";
      break;
    case CallKind::TakesEvent:
      if (info.operand >= call.getArgOperands().size() ||
          isEvent(call.getArgOperands()[info.operand]))
        return;
      call.emitError() << "passes something that is not an event to "
                       << callee
                       << " (upstream's lowering of gpu.wait on a stream "
                          "it did not create)";
      break;
    }
    failed = true;
  });
  if (failed)
    signalPassFailure();
}
