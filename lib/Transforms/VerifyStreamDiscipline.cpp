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
enum class CallKind { Other, CreatesStream, DestroysStream, SyncsDevice,
                      TakesStream, TakesEvent };
struct CallInfo {
  CallKind kind = CallKind::Other;
  /// Operand index of the stream (TakesStream) or event (TakesEvent).
  unsigned operand = 0;
};
} // namespace

static CallInfo classify(StringRef callee) {
  using K = CallKind;
  return llvm::StringSwitch<CallInfo>(callee)
      // MLIR's runtime ABI and SDFGStream's runtime.
      .Case("mgpuStreamCreate", {K::CreatesStream})
      .Case("mgpuStreamDestroy", {K::DestroysStream})
      .Case("mgpuLaunchKernel", {K::TakesStream, 8})
      .Case("mgpuLaunchClusterKernel", {K::TakesStream, 11})
      .Case("mgpuMemAlloc", {K::TakesStream, 1})
      .Case("mgpuMemFree", {K::TakesStream, 1})
      .Case("mgpuMemcpy", {K::TakesStream, 3})
      .Case("mgpuMemset32", {K::TakesStream, 3})
      .Case("mgpuMemset16", {K::TakesStream, 3})
      .Case("sdfgrtMemset8", {K::TakesStream, 3})
      .Case("sdfgrtMemcpyStrided", {K::TakesStream, 4})
      .Case("sdfgrtMemsetStrided", {K::TakesStream, 4})
      .Case("mgpuStreamSynchronize", {K::TakesStream, 0})
      .Case("mgpuStreamWaitEvent", {K::TakesStream, 0})
      .Case("mgpuEventRecord", {K::TakesStream, 1})
      .Case("mgpuEventSynchronize", {K::TakesEvent, 0})
      .Case("mgpuEventDestroy", {K::TakesEvent, 0})
      // Vendor APIs called directly.
      .Cases({"cudaStreamCreate", "cudaStreamCreateWithFlags",
              "cudaStreamCreateWithPriority", "cuStreamCreate",
              "cuStreamCreateWithPriority", "hipStreamCreate",
              "hipStreamCreateWithFlags", "hipStreamCreateWithPriority"},
             {K::CreatesStream})
      .Cases({"cudaStreamDestroy", "cuStreamDestroy", "cuStreamDestroy_v2",
              "hipStreamDestroy"},
             {K::DestroysStream})
      .Cases({"cudaDeviceSynchronize", "cudaThreadSynchronize",
              "cuCtxSynchronize", "hipDeviceSynchronize", "hipCtxSynchronize"},
             {K::SyncsDevice})
      .Default({});
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
