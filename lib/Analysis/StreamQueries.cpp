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
