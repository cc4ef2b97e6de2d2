//===- ProgramSummaries.cpp - What a callee does, as its callers see it ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The summaries of every function of a module (solved to a fixpoint over
// the call graph, callees first) and the streams a callee leaves idle. The
// latter are solved by PendingGpuWork in its ExitState mode, whose transfer
// asks this class for the accesses of calls: the one place where the
// solver and the accesses meet, by design (a call's effect is its callee's
// solved state).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/HostGpuAccesses.h"
#include "SDFGStream/Analysis/PendingGpuWork.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
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
