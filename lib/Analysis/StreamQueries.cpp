//===- StreamQueries.cpp - Which stream, which program, which slot --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See StreamQueries.h.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::sdfg;

int64_t mlir::sdfg::getStreamSlot(Operation *op) {
  if (IntegerAttr slot =
          SDFGDialect::StreamSlotAttrHelper(op->getContext()).getAttr(op))
    return slot.getInt();
  return 0;
}

Value mlir::sdfg::getCanonicalStream(Value stream) {
  if (auto init = stream.getDefiningOp<InitStreamsOp>())
    if (!init.getConcurrent())
      return init.getSlots().front();
  return stream;
}

Value mlir::sdfg::getStreamOfToken(Value token) {
  while (token) {
    if (auto streamToken = token.getDefiningOp<StreamTokenOp>())
      return getCanonicalStream(streamToken.getStream());
    auto producer = token.getDefiningOp<gpu::AsyncOpInterface>();
    if (!producer || producer.getAsyncDependencies().empty())
      return {};
    token = producer.getAsyncDependencies().front();
  }
  return {};
}

void mlir::sdfg::collectStreamsOfToken(Value token,
                                       SmallVectorImpl<Value> &streams) {
  SmallVector<Value> worklist{token};
  DenseSet<Value> seen;
  auto pushTokens = [&](ValueRange values) {
    for (Value value : values)
      if (isa<gpu::AsyncTokenType>(value.getType()))
        worklist.push_back(value);
  };
  // What flows into a region op's results and entry arguments: its token
  // operands and what its regions' terminators pass on (a superset of the
  // exact region-branch successors, which is sound for ordering).
  auto pushRegionOpSources = [&](Operation *op) {
    pushTokens(op->getOperands());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(
                block.getTerminator()))
          pushTokens(terminator->getOperands());
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto streamToken = value.getDefiningOp<StreamTokenOp>()) {
      Value stream = getCanonicalStream(streamToken.getStream());
      if (!llvm::is_contained(streams, stream))
        streams.push_back(stream);
      continue;
    }
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      Block *block = argument.getOwner();
      if (!block->isEntryBlock()) {
        for (auto it = block->pred_begin(), e = block->pred_end(); it != e;
             ++it) {
          auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
          if (!branch)
            continue;
          SuccessorOperands operands =
              branch.getSuccessorOperands(it.getSuccessorIndex());
          if (!operands.isOperandProduced(argument.getArgNumber()))
            if (Value forwarded = operands[argument.getArgNumber()])
              worklist.push_back(forwarded);
        }
      } else if (Operation *parent = block->getParentOp();
                 parent && isa<RegionBranchOpInterface>(parent)) {
        pushRegionOpSources(parent);
      }
      continue;
    }
    Operation *producer = value.getDefiningOp();
    if (isa<RegionBranchOpInterface>(producer)) {
      pushRegionOpSources(producer);
    } else if (auto call = dyn_cast<CallOpInterface>(producer)) {
      // A token a call returns may come from any token it is given (a
      // superset, sound for ordering), or from work on a stream it is given.
      pushTokens(call.getArgOperands());
      for (Value operand : call.getArgOperands())
        if (isa<StreamType>(operand.getType())) {
          Value stream = getCanonicalStream(operand);
          if (!llvm::is_contained(streams, stream))
            streams.push_back(stream);
        }
    } else if (auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(producer)) {
      OperandRange deps = asyncOp.getAsyncDependencies();
      if (!deps.empty())
        worklist.push_back(deps.front());
    }
  }
}

Value mlir::sdfg::getStreamOf(Operation *op,
                              SymbolTableCollection &symbolTables) {
  if (auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op)) {
    OperandRange deps = asyncOp.getAsyncDependencies();
    return deps.empty() ? Value() : getStreamOfToken(deps.front());
  }
  if (auto node = dyn_cast<LibraryNodeOpInterface>(op))
    return node.getNodeStream() ? getCanonicalStream(node.getNodeStream())
                                : Value();
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        call.resolveCallableInTable(&symbolTables));
    if (!callee)
      return {};
    std::optional<unsigned> index = getExternalStreamArgIndex(callee);
    if (!index || *index >= call.getArgOperands().size())
      return {};
    return getCanonicalStream(call.getArgOperands()[*index]);
  }
  return {};
}

std::optional<unsigned>
mlir::sdfg::getExternalStreamArgIndex(FunctionOpInterface program) {
  for (unsigned i = 0, e = program.getNumArguments(); i < e; ++i)
    if (program.getArgAttr(i, SDFGDialect::getExternalStreamAttrName()))
      return i;
  return std::nullopt;
}

BlockArgument
mlir::sdfg::getExternalStreamArgument(FunctionOpInterface program) {
  std::optional<unsigned> index = getExternalStreamArgIndex(program);
  if (!index || program.isExternal())
    return {};
  return program.getArgument(*index);
}

InitStreamsOp mlir::sdfg::getInitStreamsOp(FunctionOpInterface program) {
  if (program.isExternal())
    return {};
  for (Operation &op : program.getFunctionBody().front())
    if (auto init = dyn_cast<InitStreamsOp>(op))
      return init;
  return {};
}

SmallVector<Value> mlir::sdfg::getDistinctStreams(InitStreamsOp init) {
  SmallVector<Value> streams;
  for (Value slot : init.getSlots())
    if (llvm::none_of(streams,
                      [&](Value seen) { return isSameStream(seen, slot); }))
      streams.push_back(slot);
  return streams;
}

void mlir::sdfg::forEachProgramOnStream(
    Operation *root,
    function_ref<void(FunctionOpInterface, InitStreamsOp)> fn) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto program = dyn_cast<FunctionOpInterface>(op);
    if (!program)
      return WalkResult::advance();
    if (InitStreamsOp init = getInitStreamsOp(program))
      fn(program, init);
    return WalkResult::skip();
  });
}

SmallVector<Value> mlir::sdfg::getProgramStreams(FunctionOpInterface program) {
  SmallVector<Value> streams;
  auto add = [&](Value stream) {
    stream = getCanonicalStream(stream);
    if (!llvm::is_contained(streams, stream))
      streams.push_back(stream);
  };
  if (program.isExternal())
    return streams;
  for (BlockArgument argument : program.getArguments())
    if (isa<StreamType>(argument.getType()))
      if (!llvm::any_of(argument.getUsers(), [](Operation *user) {
            return isa<InitStreamsOp>(user);
          }))
        add(argument);
  if (InitStreamsOp init = getInitStreamsOp(program))
    for (Value slot : init.getSlots())
      add(slot);
  return streams;
}
