//===- HostGpuAccesses.cpp - What each op does to buffers, and where ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See HostGpuAccesses.h for the model. This file: the accesses of one op
// (host code, kernel launches, library calls, calls by their callee's
// summary); KernelAccesses.cpp says what kernels write, ProgramSummaries.cpp
// what callees do.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/HostGpuAccesses.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::sdfg;

void mlir::sdfg::walkHostCode(Region &region,
                              function_ref<void(Operation *)> fn) {
  region.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    fn(op);
    return isa<gpu::LaunchOp>(op) ? WalkResult::skip()
                                  : WalkResult::advance();
  });
}

bool mlir::sdfg::isDeviceCode(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(parent))
      return true;
    if (isa<FunctionOpInterface>(parent))
      return false;
  }
  return false;
}

HostGpuAccesses::~HostGpuAccesses() = default;

BufferAliasAnalysis &
HostGpuAccesses::getAliases(FunctionOpInterface program) {
  std::unique_ptr<BufferAliasAnalysis> &entry = aliases[program];
  if (!entry)
    entry = std::make_unique<BufferAliasAnalysis>(program);
  return *entry;
}

/// The buffers an op given `value` may access: those of a buffer, those
/// whose address an integer carries; none otherwise.
static const BufferAliasAnalysis::RootSet *
accessedRoots(BufferAliasAnalysis &aliases, Value value) {
  if (isBufferType(value.getType()))
    return &aliases.getRoots(value);
  const BufferAliasAnalysis::RootSet &addresses =
      aliases.getAddressRoots(value);
  return addresses.empty() ? nullptr : &addresses;
}

/// Appends an access of `value` (if it is a buffer or carries the address
/// of one).
static void addAccess(SmallVectorImpl<BufferAccess> &accesses,
                      BufferAliasAnalysis &aliases, Value value, bool write) {
  if (const BufferAliasAnalysis::RootSet *roots = accessedRoots(aliases, value))
    accesses.push_back({*roots, write});
}

ArrayRef<Value> HostGpuAccesses::stackAllocationsOf(Operation *scope) {
  auto [it, inserted] = stackAllocations.try_emplace(scope);
  if (!inserted)
    return it->second;
  SmallVector<Value> found;
  walkHostCode(scope->getRegion(0), [&](Operation *op) {
    if (!isa<memref::AllocaOp, LLVM::AllocaOp>(op))
      return;
    if (op->getParentWithTrait<OpTrait::AutomaticAllocationScope>() == scope)
      found.push_back(op->getResult(0));
  });
  return stackAllocations[scope] = std::move(found);
}

OpAccesses HostGpuAccesses::getOwnAccesses(Operation *op,
                                           FunctionOpInterface program) {
  OpAccesses result;
  BufferAliasAnalysis &aliases = getAliases(program);
  auto gpuAccess = [&](Value stream, Value value, bool write) {
    // An address passed as an integer: the GPU may read and write through
    // it (a kernel's integer argument is not followed).
    if (const BufferAliasAnalysis::RootSet *roots =
            accessedRoots(aliases, value))
      result.gpu.push_back(
          {stream, {*roots, write || !isBufferType(value.getType())}});
  };
  auto hostReadWriteOperands = [&]() {
    for (Value operand : op->getOperands()) {
      addAccess(result.host, aliases, operand, /*write=*/true);
    }
  };

  if (auto sync = dyn_cast<SyncOp>(op)) {
    for (Value stream : sync.getStreams())
      result.synced.push_back(getCanonicalStream(stream));
    return result;
  }
  if (auto wait = dyn_cast<StreamWaitOp>(op)) {
    result.streamWaits.push_back({getCanonicalStream(wait.getStream()),
                                  getCanonicalStream(wait.getWaitedOn())});
    return result;
  }
  // Stream bookkeeping, pointer-attribute queries and timer events touch no
  // buffer contents.
  if (isa<InitStreamsOp, StreamTokenOp, CheckDeviceOp, TimerBeginOp,
          TimerEndOp>(op))
    return result;

  Value stream = getStreamOf(op, symbolTables);

  // Buffers whose address escaped may be accessed by any kernel and by any
  // opaque host code.
  const BufferAliasAnalysis::RootSet &escaped = aliases.getEscapedRoots();
  auto escapedOnHost = [&]() {
    if (!escaped.empty())
      result.host.push_back({escaped, /*write=*/true});
  };

  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        call.resolveCallableInTable(&symbolTables));
    if (!callee || callee.isExternal())
      escapedOnHost();
    if (!callee) {
      // Unknown callee: every buffer on the host, and through GPU work on
      // any stream it is passed.
      hostReadWriteOperands();
      for (Value operand : call.getArgOperands())
        if (isa<StreamType>(operand.getType()))
          for (Value buffer : call.getArgOperands())
            gpuAccess(getCanonicalStream(operand), buffer, /*write=*/true);
      return result;
    }
    const ProgramSummary &summary = getSummary(callee);
    OperandRange args = call.getArgOperands();
    // The accesses of `accesses`, their GPU work on `on` (on no stream we
    // know: ordered like host work).
    auto apply = [&](const SummaryAccesses &accesses, Value on) {
      auto add = [&](const BufferAliasAnalysis::RootSet &roots, uint8_t bits) {
        if (bits & (HostRead | HostWrite))
          result.host.push_back({roots, static_cast<bool>(bits & HostWrite)});
        if (!(bits & (GpuRead | GpuWrite)))
          return;
        if (on)
          result.gpu.push_back(
              {on, {roots, static_cast<bool>(bits & GpuWrite)}});
        else
          result.host.push_back({roots, true});
      };
      for (unsigned i = 0, e = std::min<size_t>(args.size(),
                                                accesses.arguments.size());
           i < e; ++i)
        if (const BufferAliasAnalysis::RootSet *roots =
                accessedRoots(aliases, args[i]))
          add(*roots, accesses.arguments[i]);
      for (auto [symbol, bits] : accesses.globals)
        add({aliases.getGlobalRoot(symbol, MemoryKind::HostVisible)}, bits);
      if (accesses.unknown)
        add({BufferAliasAnalysis::kUnknownRoot}, accesses.unknown);
    };
    apply(summary, stream);
    // GPU work on other streams the callee is given: pending on the stream
    // the caller passes there.
    for (const auto &[parameter, accesses] : summary.otherStreams)
      apply(accesses, parameter < args.size()
                          ? getCanonicalStream(args[parameter])
                          : Value());
    // Streams the callee leaves idle: its work there is done when it
    // returns, and so is everything before the call. Its GPU accesses stay:
    // on a concurrent slot they must still wait for what they conflict with.
    const CalleeExitSyncs &exit = getExitSyncs(callee);
    auto synchronized = [&](Value synced) {
      if (synced && !llvm::is_contained(result.syncedAfter, synced))
        result.syncedAfter.push_back(synced);
    };
    if (exit.callStream)
      synchronized(stream);
    for (unsigned parameter : exit.streamParameters)
      if (parameter < args.size())
        synchronized(getCanonicalStream(args[parameter]));
    return result;
  }

  if (stream) {
    if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
      gpuAccess(stream, copy.getDst(), /*write=*/true);
      gpuAccess(stream, copy.getSrc(), /*write=*/false);
    } else if (auto memset = dyn_cast<gpu::MemsetOp>(op)) {
      gpuAccess(stream, memset.getDst(), /*write=*/true);
    } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      Operation *kernel =
          symbolTables.lookupNearestSymbolFrom(op, launch.getKernel());
      for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands()))
        gpuAccess(stream, operand,
                  !kernel || kernelMayWrite(kernel, index));
      if (!escaped.empty())
        result.gpu.push_back({stream, {escaped, /*write=*/true}});
      // The device globals the kernel uses, like buffers.
      if (auto function = dyn_cast_or_null<FunctionOpInterface>(kernel);
          function && !function.isExternal())
        for (auto [symbol, write] :
             deviceGlobalsOf(function.getFunctionBody()))
          result.gpu.push_back(
              {stream,
               {{aliases.getGlobalRoot(symbol, MemoryKind::Device)}, write}});
    } else if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(launch.getBody(), captured);
      for (Value value : captured)
        if (isBufferType(value.getType()))
          gpuAccess(stream, value, regionMayWrite(launch.getBody(), value));
      if (!escaped.empty())
        result.gpu.push_back({stream, {escaped, /*write=*/true}});
      for (auto [symbol, write] : deviceGlobalsOf(launch.getBody()))
        result.gpu.push_back(
            {stream,
             {{aliases.getGlobalRoot(symbol, MemoryKind::Device)}, write}});
    } else if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      gpuAccess(stream, alloc.getMemref(), /*write=*/true);
    } else {
      for (Value operand : op->getOperands())
        gpuAccess(stream, operand, /*write=*/true);
    }
    return result;
  }

  // Host code from here on.
  if (op->hasTrait<OpTrait::ReturnLike>() &&
      op->getParentOp()->hasTrait<OpTrait::AutomaticAllocationScope>()) {
    // Leaving an allocation scope (returning from a function, the end of a
    // memref.alloca_scope) frees its stack allocations: a host free, which
    // waits for GPU work that may still read or write them (an H2D copy
    // from a staging buffer on the stack).
    for (Value allocation : stackAllocationsOf(op->getParentOp()))
      addAccess(result.host, aliases, allocation, /*write=*/true);
  }
  if (op->hasTrait<OpTrait::ReturnLike>() &&
      isa<FunctionOpInterface>(op->getParentOp())) {
    // Returned buffers are read by whoever gets them, unless the host can
    // never touch them.
    for (Value operand : op->getOperands())
      if (isBufferType(operand.getType()) && !aliases.isDeviceOnly(operand))
        addAccess(result.host, aliases, operand, /*write=*/false);
    return result;
  }
  if (isa<LibraryNodeOpInterface>(op) ||
      (isa<gpu::AsyncOpInterface>(op) && !stream)) {
    // A library node without a stream runs on the host; a GPU op that is on
    // no stream we know completes before the next op, as host code.
    hostReadWriteOperands();
  } else if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      if (isa<MemoryEffects::Allocate>(effect.getEffect()))
        continue;
      bool write =
          isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
      if (Value value = effect.getValue()) {
        addAccess(result.host, aliases, value, write);
        continue;
      }
      // An effect on no particular value: on the buffers the op is given.
      for (Value operand : op->getOperands())
        addAccess(result.host, aliases, operand, write);
    }
  } else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    hostReadWriteOperands(); // Declares nothing: anything it is given.
    escapedOnHost();
  }

  return result;
}

OpAccesses HostGpuAccesses::getAccesses(Operation *op,
                                        FunctionOpInterface program) {
  OpAccesses result = getOwnAccesses(op, program);
  // A region op that no interface describes: what is nested in it happens
  // at it (its own syncs go before it, see PendingGpuWork.h).
  if (op->getNumRegions() && !isa<RegionBranchOpInterface, gpu::LaunchOp>(op)) {
    OpAccesses nested = getNestedAccesses(op, program);
    llvm::append_range(result.host, nested.host);
    llvm::append_range(result.gpu, nested.gpu);
  }
  return result;
}

OpAccesses HostGpuAccesses::getNestedAccesses(Operation *op,
                                              FunctionOpInterface program) {
  OpAccesses result;
  for (Region &region : op->getRegions())
    walkHostCode(region, [&](Operation *nested) {
      // The walk reaches the ops of nested region ops itself.
      OpAccesses inner = getOwnAccesses(nested, program);
      llvm::append_range(result.host, inner.host);
      llvm::append_range(result.gpu, inner.gpu);
    });
  return result;
}
