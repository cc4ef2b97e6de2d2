//===- HostGpuAccesses.cpp - What each op does to buffers, and where ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See HostGpuAccesses.h for the model. The kernel write analysis follows a
// buffer through the kernel body (views, branches, region ops) and stops at
// the first op that may write it; an op that declares no effects is taken
// to write.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/HostGpuAccesses.h"
// getExitSyncs solves PendingGpuWork (in its ExitState mode) on a callee.
#include "SDFGStream/Analysis/PendingGpuWork.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sdfg;

bool SummaryAccesses::operator==(const SummaryAccesses &other) const {
  if (arguments != other.arguments || unknown != other.unknown ||
      globals.size() != other.globals.size())
    return false;
  for (auto [symbol, bits] : globals)
    if (other.globals.lookup(symbol) != bits)
      return false;
  return true;
}

bool ProgramSummary::operator==(const ProgramSummary &other) const {
  return SummaryAccesses::operator==(other) &&
         otherStreams == other.otherStreams;
}

SummaryAccesses &ProgramSummary::onOtherStream(unsigned index) {
  for (auto &[parameter, accesses] : otherStreams)
    if (parameter == index)
      return accesses;
  otherStreams.push_back({index, SummaryAccesses()});
  otherStreams.back().second.arguments.assign(arguments.size(), 0);
  return otherStreams.back().second;
}

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

/// Returns true if `op` may write `value` (one of its operands).
static bool mayWriteOperand(Operation *op, Value value) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()) &&
           (!e.getValue() || e.getValue() == value);
  });
}

/// Returns true if code in `scope` may write the memory of `buffer` (through
/// `buffer` itself or anything made from it in `scope`).
static bool mayWriteIn(Region &scope, Value buffer) {
  llvm::SetVector<Value> reached;
  reached.insert(buffer);
  auto reach = [&](ValueRange values) {
    for (Value value : values)
      if (isBufferType(value.getType()))
        reached.insert(value);
  };
  for (unsigned i = 0; i < reached.size(); ++i) {
    Value value = reached[i];
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (!scope.isAncestor(user->getParentRegion()))
        continue;
      // Written, or its address leaves what is followed here (spilled to a
      // stack slot and reloaded, turned into an integer and back, packed
      // into a struct, passed to a call): it may be written.
      if (mayWriteOperand(user, value) ||
          BufferAliasAnalysis::escapesAt(use) || isa<CallOpInterface>(user))
        return true;
      reach(user->getResults());
      if (auto branch = dyn_cast<BranchOpInterface>(user))
        for (Block *successor : branch->getSuccessors())
          reach(successor->getArguments());
      if (isa<RegionBranchTerminatorOpInterface>(user)) {
        Operation *parent = user->getParentOp();
        reach(parent->getResults());
        for (Region &region : parent->getRegions())
          if (!region.empty())
            reach(region.front().getArguments());
      }
      for (Region &region : user->getRegions())
        if (!region.empty())
          reach(region.front().getArguments());
    }
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

bool HostGpuAccesses::kernelMayWrite(Operation *kernel, unsigned index) {
  auto [it, inserted] = kernelWrites.try_emplace({kernel, index}, true);
  if (!inserted)
    return it->second;
  auto function = dyn_cast<FunctionOpInterface>(kernel);
  if (!function || function.isExternal() ||
      index >= function.getNumArguments())
    return true;
  bool writes = mayWriteIn(function.getFunctionBody(),
                           function.getArgument(index));
  kernelWrites[{kernel, index}] = writes;
  return writes;
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

SmallVector<std::pair<Attribute, bool>>
HostGpuAccesses::deviceGlobalsOf(Region &region) {
  SmallVector<std::pair<Attribute, bool>> globals;
  SmallVector<Region *> worklist{&region};
  DenseSet<Region *> visited{&region};
  while (!worklist.empty()) {
    Region *current = worklist.pop_back_val();
    current->walk([&](Operation *op) {
      SymbolRefAttr symbol;
      if (auto get = dyn_cast<memref::GetGlobalOp>(op))
        symbol = get.getNameAttr();
      else if (auto address = dyn_cast<LLVM::AddressOfOp>(op))
        symbol = address.getGlobalNameAttr();
      if (symbol) {
        Operation *global =
            symbolTables.lookupNearestSymbolFrom(op, symbol);
        auto module = global ? global->getParentOfType<gpu::GPUModuleOp>()
                             : gpu::GPUModuleOp();
        if (!module)
          return;
        Attribute name = SymbolRefAttr::get(
            module.getNameAttr(),
            {FlatSymbolRefAttr::get(cast<SymbolOpInterface>(global)
                                        .getNameAttr())});
        bool write = mayWriteIn(*current, op->getResult(0));
        auto it = llvm::find_if(globals, [&](auto &entry) {
          return entry.first == name;
        });
        if (it == globals.end())
          globals.push_back({name, write});
        else
          it->second |= write;
        return;
      }
      // Device functions the code calls.
      if (auto call = dyn_cast<CallOpInterface>(op))
        if (auto callee = dyn_cast_or_null<FunctionOpInterface>(
                call.resolveCallableInTable(&symbolTables)))
          if (!callee.isExternal() &&
              visited.insert(&callee.getFunctionBody()).second)
            worklist.push_back(&callee.getFunctionBody());
    });
  }
  return globals;
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
    // returns, and so is everything before the call.
    const CalleeExitSyncs &exit = getExitSyncs(callee);
    auto synchronized = [&](Value synced) {
      if (!synced)
        return;
      llvm::erase_if(result.gpu, [&](const StreamAccess &access) {
        return access.stream == synced;
      });
      result.synced.push_back(synced);
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
          gpuAccess(stream, value, mayWriteIn(launch.getBody(), value));
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

ProgramSummary HostGpuAccesses::summarize(FunctionOpInterface function) {
  ProgramSummary summary;
  summary.arguments.assign(function.getNumArguments(), 0);
  if (function.isExternal()) {
    // A declaration reads and writes every buffer it is given (as a buffer
    // or as an integer address), on the host, and through GPU work if it
    // takes the caller's stream. A buffer in a GPU memory space given to a
    // declaration that takes the stream (a body-less target(gpu) program: a
    // kernel library built elsewhere) is GPU memory the host cannot touch:
    // only GPU work on that stream, ordered after the caller's, uses it.
    // Every other `!sdfg.stream` it takes may carry GPU work on every
    // buffer it is given.
    std::optional<unsigned> streamIndex = getExternalStreamArgIndex(function);
    bool onStream = streamIndex.has_value();
    ArrayRef<Type> types = function.getArgumentTypes();
    for (auto [index, type] : llvm::enumerate(types)) {
      if (onStream && isBufferType(type) &&
          getMemoryKind(type) == MemoryKind::Device)
        summary.arguments[index] = GpuRead | GpuWrite;
      else if (isBufferType(type) || type.isIntOrIndex())
        summary.arguments[index] =
            HostRead | HostWrite | (onStream ? GpuRead | GpuWrite : 0);
    }
    for (auto [streamArg, type] : llvm::enumerate(types)) {
      if (!isa<StreamType>(type) || streamArg == streamIndex)
        continue;
      SummaryAccesses &other = summary.onOtherStream(streamArg);
      for (auto [index, argType] : llvm::enumerate(types))
        if (isBufferType(argType) || argType.isIntOrIndex())
          other.arguments[index] = GpuRead | GpuWrite;
    }
    return summary;
  }
  BufferAliasAnalysis &aliases = getAliases(function);
  const BufferAliasAnalysis::RootSet &escaped = aliases.getEscapedRoots();
  // The `!sdfg.stream` parameter a stream is, unless it is the one the
  // function runs on (its external stream, or a slot made from it).
  Block &entry = function.getFunctionBody().front();
  std::optional<unsigned> streamIndex = getExternalStreamArgIndex(function);
  auto otherStreamParameter = [&](Value stream) -> std::optional<unsigned> {
    auto argument = dyn_cast_or_null<BlockArgument>(stream);
    if (!argument || argument.getOwner() != &entry ||
        argument.getArgNumber() == streamIndex)
      return std::nullopt;
    return argument.getArgNumber();
  };
  auto record = [&](const BufferAccess &access, bool gpu,
                    SummaryAccesses &into) {
    uint8_t bit = gpu ? (access.write ? GpuWrite : GpuRead)
                      : (access.write ? HostWrite : HostRead);
    for (unsigned id : access.roots) {
      const BufferAliasAnalysis::Root &root = aliases.getRoot(id);
      switch (root.kind) {
      case BufferAliasAnalysis::RootKind::Argument:
        into.arguments[root.argument] |= bit;
        break;
      case BufferAliasAnalysis::RootKind::Global:
        into.globals[root.global] |= bit;
        break;
      case BufferAliasAnalysis::RootKind::Unknown:
        into.unknown |= bit;
        break;
      case BufferAliasAnalysis::RootKind::Allocation:
        // The function's own memory, unless its address leaves (stored
        // through an out-pointer, packed, as an integer): then GPU work on
        // it may still be running when the caller reaches it.
        if (gpu && llvm::is_contained(escaped, id))
          into.unknown |= bit;
        break;
      }
    }
  };
  walkHostCode(function.getFunctionBody(), [&](Operation *op) {
    // Returning a buffer is no access of the callee's: the caller's use of
    // the result is.
    if (op->hasTrait<OpTrait::ReturnLike>() &&
        op->getParentOp() == function.getOperation())
      return;
    OpAccesses accesses = getAccesses(op, function);
    for (const BufferAccess &access : accesses.host)
      record(access, /*gpu=*/false, summary);
    for (const StreamAccess &access : accesses.gpu) {
      std::optional<unsigned> other = otherStreamParameter(access.stream);
      record(access.access, /*gpu=*/true,
             other ? summary.onOtherStream(*other) : summary);
    }
  });
  return summary;
}

const CalleeExitSyncs &
HostGpuAccesses::getExitSyncs(FunctionOpInterface callee) {
  auto it = exitSyncs.find(callee);
  if (it != exitSyncs.end())
    return it->second;
  exitSyncs[callee] = CalleeExitSyncs(); // Recursion finds none.
  CalleeExitSyncs result;
  SmallVector<Value> idle = getStreamsIdleAtExit(*this, callee);
  if (!callee.isExternal()) {
    // A stream parameter the callee is given besides the one it runs on
    // stands for the caller's operand; every other stream of the callee
    // (its own stream, its slots) is the call's.
    std::optional<unsigned> streamIndex = getExternalStreamArgIndex(callee);
    Block &entry = callee.getFunctionBody().front();
    bool allOwnIdle = true;
    for (Value stream : getProgramStreams(callee)) {
      auto argument = dyn_cast<BlockArgument>(stream);
      bool isIdle = llvm::is_contained(idle, stream);
      if (argument && argument.getOwner() == &entry &&
          argument.getArgNumber() != streamIndex) {
        if (isIdle)
          result.streamParameters.push_back(argument.getArgNumber());
        continue;
      }
      allOwnIdle &= isIdle;
    }
    result.callStream = allOwnIdle && streamIndex.has_value();
  }
  return exitSyncs[callee] = std::move(result);
}

const ProgramSummary &
HostGpuAccesses::getSummary(FunctionOpInterface callee) {
  auto it = summaries.find(callee);
  if (it != summaries.end())
    return it->second;
  // Not seen by the constructor (e.g. nested in another op): computed now,
  // without the fixpoint over recursive calls, which the constructor does.
  summaries[callee] = ProgramSummary();
  ProgramSummary summary = summarize(callee);
  return summaries[callee] = std::move(summary);
}

HostGpuAccesses::HostGpuAccesses(Operation *module) {
  // Every function-like op outside kernel modules, callees before callers
  // (post-order of the call graph), then a worklist until no summary
  // changes: recursion converges to the least fixpoint, which holds every
  // access any call chain makes.
  SmallVector<FunctionOpInterface> functions;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      functions.push_back(function);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  DenseMap<Operation *, SmallVector<Operation *>> callees, callers;
  for (FunctionOpInterface function : functions) {
    summaries[function] = ProgramSummary();
    summaries[function].arguments.assign(function.getNumArguments(), 0);
    if (function.isExternal())
      continue;
    walkHostCode(function.getFunctionBody(), [&](Operation *op) {
      auto call = dyn_cast<CallOpInterface>(op);
      if (!call)
        return;
      if (Operation *callee = call.resolveCallableInTable(&symbolTables)) {
        callees[function].push_back(callee);
        callers[callee].push_back(function);
      }
    });
  }
  llvm::SetVector<Operation *> order;
  DenseSet<Operation *> visited;
  std::function<void(Operation *)> visit = [&](Operation *function) {
    if (!visited.insert(function).second)
      return;
    for (Operation *callee : callees.lookup(function))
      visit(callee);
    order.insert(function);
  };
  for (FunctionOpInterface function : functions)
    visit(function);
  calleesFirst.assign(order.begin(), order.end());

  llvm::SetVector<Operation *> worklist(order.begin(), order.end());
  while (!worklist.empty()) {
    Operation *function = worklist.front();
    worklist.remove(function);
    auto interface = dyn_cast<FunctionOpInterface>(function);
    if (!interface)
      continue;
    ProgramSummary summary = summarize(interface);
    if (summary == summaries[function])
      continue;
    summaries[function] = std::move(summary);
    for (Operation *caller : callers.lookup(function))
      worklist.insert(caller);
  }
}
