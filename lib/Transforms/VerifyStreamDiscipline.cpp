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

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
  NotInRuntime
};
struct CallInfo {
  CallKind kind = CallKind::Other;
  /// Operand index of the stream (TakesStream) or event (TakesEvent).
  unsigned operand = 0;
};
} // namespace

/// What `callee` does with streams. The runtime's own entries come from
/// RuntimeEntries.def, the list the runtime is checked against, so an
/// mgpu*/sdfgrt* function that it lacks (one that would fail to link or
/// load) is reported rather than passed.
static CallInfo classify(StringRef callee) {
  using K = CallKind;
  std::optional<CallInfo> known =
      llvm::StringSwitch<std::optional<CallInfo>>(callee)
#define SDFGRT_RUNTIME_ENTRY(name, stream)                                     \
  .Case(#name, stream < 0 ? CallInfo{K::Other}                                 \
                          : CallInfo{K::TakesStream, unsigned(stream)})
#include "SDFGStream/Runtime/RuntimeEntries.def"
          // MLIR's runtime ABI that the runtime leaves out on purpose.
          .Case("mgpuStreamCreate", CallInfo{K::CreatesStream})
          .Case("mgpuStreamDestroy", CallInfo{K::DestroysStream})
          .Case("mgpuEventSynchronize", CallInfo{K::TakesEvent, 0})
          .Case("mgpuEventDestroy", CallInfo{K::TakesEvent, 0})
          // Vendor APIs called directly.
          .Cases({"cudaStreamCreate", "cudaStreamCreateWithFlags",
                  "cudaStreamCreateWithPriority", "cuStreamCreate",
                  "cuStreamCreateWithPriority", "hipStreamCreate",
                  "hipStreamCreateWithFlags", "hipStreamCreateWithPriority"},
                 CallInfo{K::CreatesStream})
          .Cases({"cudaStreamDestroy", "cuStreamDestroy", "cuStreamDestroy_v2",
                  "hipStreamDestroy"},
                 CallInfo{K::DestroysStream})
          .Cases({"cudaDeviceSynchronize", "cudaThreadSynchronize",
                  "cuCtxSynchronize", "hipDeviceSynchronize",
                  "hipCtxSynchronize"},
                 CallInfo{K::SyncsDevice})
          .Default(std::nullopt);
  if (known)
    return *known;
  if (callee.starts_with("mgpu") || callee.starts_with("sdfgrt"))
    return {K::NotInRuntime};
  return {};
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

/// Returns true if `value` was made by mgpuEventCreate.
static bool isEvent(Value value) {
  auto call = value.getDefiningOp<LLVM::CallOp>();
  return call && call.getCallee() == "mgpuEventCreate";
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
      }
      return;
    }
    auto call = dyn_cast<LLVM::CallOp>(op);
    if (!call || !call.getCallee())
      return;
    StringRef callee = *call.getCallee();
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
    case CallKind::TakesStream:
      if (info.operand >= call.getArgOperands().size() ||
          !isConstantPointer(call.getArgOperands()[info.operand]))
        return;
      call.emitError() << "passes a null or constant stream to " << callee;
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
