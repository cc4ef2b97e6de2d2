//===- AddExternalGpuStream.cpp - Thread the caller's stream --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Decides which programs have GPU work (directly or through the programs
// they call), gives each of them the caller's stream and moves their GPU
// work onto it. See Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"
#include "SDFGStream/Analysis/StreamQueries.h"
#include "SDFGStream/Transforms/StreamThreading.h"

#include "SDFGStream/Analysis/HostGpuAccesses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_ADDEXTERNALGPUSTREAM
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct AddExternalGpuStream
    : public sdfg::impl::AddExternalGpuStreamBase<AddExternalGpuStream> {
  using AddExternalGpuStreamBase::AddExternalGpuStreamBase;
  void runOnOperation() override;
};
} // namespace

/// Returns true if `program` itself enqueues GPU work (library nodes of a
/// GPU program count: their implementation will).
static bool hasDirectGpuWork(FunctionOpInterface program) {
  auto sdfg = dyn_cast<SDFGOp>(program.getOperation());
  bool gpuNodes = !sdfg || sdfg.isGpuProgram();
  return program.getFunctionBody()
      .walk([&](Operation *op) {
        if (isHostGpuWork(op) ||
            (gpuNodes && isa<LibraryNodeOpInterface>(op)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// A memref.copy in host code to or from GPU-only memory (a buffer in a GPU
/// memory space, as bufferization with memory spaces gives them) lowers to
/// a host memcpy through a device pointer. It is a GPU copy: it becomes a
/// gpu.memcpy, which then goes on the stream like every other. Unranked
/// copies (gpu.memcpy takes ranked buffers) are an error.
static LogicalResult copiesOfGpuMemoryToGpuCopies(FunctionOpInterface program) {
  if (auto sdfg = dyn_cast<SDFGOp>(program.getOperation());
      sdfg && !sdfg.isGpuProgram())
    return success();
  auto inGpuMemory = [](Value buffer) {
    return isGpuMemorySpace(
        cast<BaseMemRefType>(buffer.getType()).getMemorySpace());
  };
  SmallVector<memref::CopyOp> copies;
  walkHostCode(program.getFunctionBody(), [&](Operation *op) {
    auto copy = dyn_cast<memref::CopyOp>(op);
    if (copy &&
        (inGpuMemory(copy.getSource()) || inGpuMemory(copy.getTarget())))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    if (!isa<MemRefType>(copy.getSource().getType()) ||
        !isa<MemRefType>(copy.getTarget().getType()))
      return copy.emitOpError()
             << "copies an unranked buffer to or from GPU memory on the host; "
                "cast it to a ranked memref (the copy becomes a gpu.memcpy, "
                "which takes ranked buffers)";
    OpBuilder builder(copy);
    gpu::MemcpyOp::create(builder, copy.getLoc(), /*asyncToken=*/Type(),
                          /*asyncDependencies=*/ValueRange(), copy.getTarget(),
                          copy.getSource());
    copy.erase();
  }
  return success();
}

void AddExternalGpuStream::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection symbolTables;

  // Programs are sdfg.sdfg and func.func ops outside kernel modules. GPU
  // work in another kind of function (llvm.func: flang's host code after
  // FIR is lowered to the LLVM dialect) cannot be given the stream: an
  // error there, rather than work left off the stream.
  SmallVector<FunctionOpInterface> programs;
  bool foreign = false;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (isa<SDFGOp, func::FuncOp>(op)) {
      programs.push_back(cast<FunctionOpInterface>(op));
      return WalkResult::skip();
    }
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!function)
      return WalkResult::advance();
    function.getFunctionBody().walk([&](Operation *nested) {
      if (!isHostGpuWork(nested))
        return WalkResult::advance();
      foreign = true;
      nested->emitOpError()
          << "is GPU work in '" << op->getName() << "' @"
          << cast<SymbolOpInterface>(op).getName()
          << ", which sdfg-add-external-gpu-stream cannot give the caller's "
             "stream (only func.func and sdfg.sdfg programs take it); write "
             "this host code as func.func";
      return WalkResult::interrupt();
    });
    return WalkResult::skip();
  });
  if (foreign)
    return signalPassFailure();

  // The stream form of MLIR after release 22 (async objects) first, and
  // host copies of GPU memory as GPU copies.
  if (failed(adoptAsyncObjectStreams(programs, argumentName, module)))
    return signalPassFailure();
  for (FunctionOpInterface program : programs)
    if (failed(copiesOfGpuMemoryToGpuCopies(program)))
      return signalPassFailure();

  // GPU work flows from callees to callers: a call to a program with GPU work
  // is GPU work.
  // Uses of a program are calls of it and func.constant references to it
  // (whose call_indirect then passes the stream too).
  llvm::SetVector<Operation *> gpuPrograms;
  DenseMap<Operation *, SmallVector<Operation *>> callsTo;
  for (FunctionOpInterface program : programs) {
    if (program.isExternal()) {
      // A body-less GPU program (compiled elsewhere) takes the stream too.
      if (auto sdfg = dyn_cast<SDFGOp>(program.getOperation());
          sdfg && sdfg.isGpuProgram())
        gpuPrograms.insert(program);
      continue;
    }
    if (hasDirectGpuWork(program))
      gpuPrograms.insert(program);
    program.getFunctionBody().walk([&](Operation *op) {
      Operation *callee = nullptr;
      if (auto call = dyn_cast<CallOpInterface>(op))
        callee = call.resolveCallableInTable(&symbolTables);
      else if (auto constant = dyn_cast<func::ConstantOp>(op))
        callee = symbolTables.lookupNearestSymbolFrom(constant,
                                                      constant.getValueAttr());
      if (isa_and_nonnull<FunctionOpInterface>(callee))
        callsTo[callee].push_back(op);
    });
  }
  for (unsigned i = 0; i < gpuPrograms.size(); ++i) {
    for (Operation *call : callsTo.lookup(gpuPrograms[i])) {
      auto caller = call->getParentOfType<FunctionOpInterface>();
      if (auto sdfg = dyn_cast<SDFGOp>(caller.getOperation());
          sdfg && !sdfg.isGpuProgram()) {
        call->emitOpError()
            << "calls @" << cast<SymbolOpInterface>(gpuPrograms[i]).getName()
            << ", which has GPU work, but program @" << sdfg.getSymName()
            << " targets the CPU";
        return signalPassFailure();
      }
      gpuPrograms.insert(caller);
    }
  }

  // async.execute regions run in place (their chains then become slots).
  for (Operation *program : gpuPrograms)
    if (failed(runAsyncRegionsInPlace(cast<FunctionOpInterface>(program))))
      return signalPassFailure();
  // Token chains of programs in the async form become concurrent slots,
  // before the signatures (their slot count makes the init op).
  if (!serializeAsync)
    for (Operation *program : gpuPrograms)
      deriveSlotsFromTokenChains(cast<FunctionOpInterface>(program));

  // Signatures first, so that every call can then see whether its callee
  // takes the stream.
  for (Operation *program : gpuPrograms)
    if (failed(addExternalStreamArgument(cast<FunctionOpInterface>(program),
                                         argumentName)))
      return signalPassFailure();
  // The address of a program that now takes the stream: only a
  // call_indirect of it can be given the stream.
  for (Operation *program : gpuPrograms)
    for (Operation *use : callsTo.lookup(program)) {
      auto constant = dyn_cast<func::ConstantOp>(use);
      if (!constant)
        continue;
      for (OpOperand &operand : constant->getUses()) {
        auto indirect = dyn_cast<func::CallIndirectOp>(operand.getOwner());
        if (!indirect || operand.getOperandNumber() != 0) {
          operand.getOwner()->emitOpError()
              << "uses the address of @"
              << cast<SymbolOpInterface>(program).getName()
              << ", which takes the caller's stream; only func.call_indirect "
                 "of it can pass the stream";
          return signalPassFailure();
        }
      }
      constant.getResult().setType(
          cast<FunctionOpInterface>(program).getFunctionType());
    }
  // Concurrent slots (asked for by the option or the program), before the
  // work moves: it decides which slots share a stream.
  SmallVector<FunctionOpInterface> concurrent;
  for (Operation *op : gpuPrograms) {
    auto program = cast<FunctionOpInterface>(op);
    InitStreamsOp init = getInitStreamsOp(program);
    if (!init || init.getSlots().size() < 2)
      continue;
    if (concurrentStreams ||
        SDFGDialect::ConcurrentStreamsAttrHelper(&getContext())
            .isAttrPresent(program))
      init.setConcurrent(true);
    if (init.getConcurrent())
      concurrent.push_back(program);
  }
  for (Operation *program : gpuPrograms)
    if (cast<FunctionOpInterface>(program).isExternal())
      continue;
    else if (failed(moveGpuWorkOntoStreams(cast<FunctionOpInterface>(program),
                                      symbolTables, !testOmitStreamWaits)))
      return signalPassFailure();
  if (concurrent.empty() || testOmitStreamWaits)
    return;
  // Every program is on its streams now, so that calls are summarized with
  // the streams they pass.
  HostGpuAccesses accesses(module);
  for (FunctionOpInterface program : concurrent)
    if (failed(orderConcurrentSlots(
            program, accesses,
            SDFGDialect::TokenChainsAttrHelper(&getContext())
                .isAttrPresent(program))))
      return signalPassFailure();
}
