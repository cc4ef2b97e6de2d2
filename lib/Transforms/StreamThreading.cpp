//===- StreamThreading.cpp - Put a program's GPU work on its streams ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Upstream `gpu-to-llvm` passes an op's async dependency to the runtime as
// the stream when that dependency is a stream value. So the whole job here is
// to give every GPU op exactly one async dependency, the token of its slot's
// stream, and to remove what would otherwise create or destroy streams
// (`gpu.wait`).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/StreamThreading.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::sdfg;

FailureOr<InitStreamsOp>
mlir::sdfg::addExternalStreamArgument(FunctionOpInterface program,
                                      StringRef argumentName) {
  MLIRContext *context = program->getContext();
  Builder builder(context);
  StringAttr marker = builder.getStringAttr(argumentName);
  BlockArgument external = getExternalStreamArgument(program);
  InitStreamsOp init = getInitStreamsOp(program);

  if (!external && !init && program.getNumArguments() > 0 &&
      isa<StreamType>(program.getArgumentTypes().back())) {
    // The program already takes a stream last, where callers pass the
    // caller's stream: that one is it.
    program.setArgAttr(program.getNumArguments() - 1,
                       SDFGDialect::getExternalStreamAttrName(), marker);
    if (program.isExternal())
      return InitStreamsOp();
    external = program.getArgument(program.getNumArguments() - 1);
  }
  if (!external && init) {
    // Streams initialized by hand from an argument that is not marked: that
    // argument is the caller's stream, in whatever position (callers pass
    // theirs there; no second stream argument is added).
    auto arg = cast<BlockArgument>(init.getExternal());
    program.setArgAttr(arg.getArgNumber(),
                       SDFGDialect::getExternalStreamAttrName(), marker);
    return init;
  }
  if (!external) {
    unsigned index = program.getNumArguments();
    NamedAttribute attr(SDFGDialect::getExternalStreamAttrName(), marker);
    if (failed(program.insertArgument(index, StreamType::get(context),
                                      builder.getDictionaryAttr(attr),
                                      program.getLoc())))
      return program.emitOpError() << "cannot take the caller's stream as "
                                      "an argument";
    if (program.isExternal())
      return InitStreamsOp(); // A declaration: its signature is all there is.
    external = program.getArgument(index);
  }
  if (init) {
    // A hand-written init op may come after GPU work of the entry block;
    // its only operand is an argument, so it can always go first.
    Block &entry = program.getFunctionBody().front();
    if (init.getOperation() != &entry.front())
      init->moveBefore(&entry.front());
    return init;
  }
  int64_t numResults = std::max<int64_t>(getNumStreamSlots(program), 1);
  OpBuilder atEntry =
      OpBuilder::atBlockBegin(&program.getFunctionBody().front());
  SmallVector<Type> slotTypes(numResults, StreamType::get(context));
  return InitStreamsOp::create(atEntry, program.getLoc(), slotTypes, external);
}

/// Returns true if `op` already runs on a stream: its only async dependency
/// is a stream token and it yields a token.
static bool isOnStream(gpu::AsyncOpInterface op) {
  OperandRange deps = op.getAsyncDependencies();
  return deps.size() == 1 && deps.front().getDefiningOp<StreamTokenOp>() &&
         op.getAsyncToken();
}

/// Sets element `index` of the segment sizes `name` in `properties` to
/// `size`, if the op has such segments.
static void setSegmentSize(NamedAttrList &properties, StringRef name,
                           unsigned index, int32_t size) {
  auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(properties.get(name));
  if (!sizes)
    return;
  SmallVector<int32_t> updated(sizes.asArrayRef());
  updated[index] = size;
  properties.set(name, DenseI32ArrayAttr::get(sizes.getContext(), updated));
}

/// Puts the GPU op `op` in async form with `token` as its only dependency.
/// An op that is async already and waits on nothing takes it through
/// gpu::AsyncOpInterface::addAsyncDependency, in place. The interface can
/// only add a dependency: it cannot drop the ones a `gpu-async-region` op
/// has, nor give a sync op its token result, so such an op is rebuilt here
/// with its segment sizes set (any op of the `gpu` dialect: its async
/// dependencies are the leading operands and its token the last result).
static LogicalResult rebuildOnToken(gpu::AsyncOpInterface asyncOp,
                                    Value token) {
  Operation *op = asyncOp.getOperation();
  OperandRange deps = asyncOp.getAsyncDependencies();
  if (deps.empty() && asyncOp.getAsyncToken()) {
    asyncOp.addAsyncDependency(token);
    return success();
  }
  if (!deps.empty() && deps.getBeginOperandIndex() != 0)
    return op->emitOpError()
           << "has async dependencies that are not its leading operands; "
              "cannot move it onto a stream";
  bool hadToken = static_cast<bool>(asyncOp.getAsyncToken());
  if (hadToken && asyncOp.getAsyncToken() != op->getResults().back())
    return op->emitOpError() << "has an async token that is not its last "
                                "result; cannot move it onto a stream";

  MLIRContext *context = op->getContext();
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(token);
  state.addOperands(op->getOperands().drop_front(deps.size()));
  state.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
  NamedAttrList properties;
  if (auto dict = dyn_cast_or_null<DictionaryAttr>(
          op->getPropertiesAsAttribute()))
    properties = NamedAttrList(dict);
  using OperandSegments = OpTrait::AttrSizedOperandSegments<void>;
  using ResultSegments = OpTrait::AttrSizedResultSegments<void>;
  setSegmentSize(properties, OperandSegments::getOperandSegmentSizeAttr(), 0,
                 1);
  SmallVector<Type> resultTypes(op->getResultTypes());
  if (!hadToken) {
    resultTypes.push_back(gpu::AsyncTokenType::get(context));
    StringRef resultSizes = ResultSegments::getResultSegmentSizeAttr();
    if (auto sizes =
            dyn_cast_or_null<DenseI32ArrayAttr>(properties.get(resultSizes)))
      setSegmentSize(properties, resultSizes, sizes.size() - 1, 1);
  }
  if (!properties.empty())
    state.propertiesAttr = properties.getDictionary(context);
  state.addTypes(resultTypes);
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    state.addRegion();

  OpBuilder builder(op);
  Operation *rebuilt = builder.create(state);
  for (auto [from, to] : llvm::zip(op->getRegions(), rebuilt->getRegions()))
    to.takeBody(from);
  op->replaceAllUsesWith(rebuilt->getResults().take_front(op->getNumResults()));
  op->erase();
  return success();
}

LogicalResult
mlir::sdfg::moveGpuWorkOntoStreams(FunctionOpInterface program,
                                   SymbolTableCollection &symbolTables,
                                   bool joinStreams) {
  InitStreamsOp init = getInitStreamsOp(program);
  assert(init && "program has no sdfg.init_streams");
  ValueRange slots = init.getSlots();

  auto getSlotStream = [&](Operation *op) -> FailureOr<Value> {
    int64_t slot = getStreamSlot(op);
    if (slot < 0 || slot >= static_cast<int64_t>(slots.size()))
      return op->emitOpError()
             << "runs on stream slot " << slot << ", but the program has "
             << getNumStreamSlots(program) << " stream slot(s)";
    return slots[slot];
  };
  auto makeToken = [&](Operation *before, Value stream) -> Value {
    OpBuilder builder(before);
    return StreamTokenOp::create(builder, before->getLoc(), stream);
  };

  // Collect first: the rewrites replace ops. Kernel bodies (gpu.launch) are
  // device code and are not visited; program order is kept so that a wait
  // sees the ops it waits on already moved.
  SmallVector<Operation *> work;
  program.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::AsyncOpInterface, CallOpInterface, LibraryNodeOpInterface>(
            op))
      work.push_back(op);
    return isa<gpu::LaunchOp>(op) ? WalkResult::skip()
                                  : WalkResult::advance();
  });

  for (Operation *op : work) {
    // Calls: pass the stream of the call's slot to callees that take one
    // (call_indirect: of a func.constant of such a callee).
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      auto callee = dyn_cast_or_null<FunctionOpInterface>(
          call.resolveCallableInTable(&symbolTables));
      if (auto indirect = dyn_cast<func::CallIndirectOp>(op))
        if (auto constant =
                indirect.getCallee().getDefiningOp<func::ConstantOp>())
          callee = symbolTables.lookupNearestSymbolFrom<FunctionOpInterface>(
              constant, constant.getValueAttr());
      std::optional<unsigned> streamIndex =
          callee ? getExternalStreamArgIndex(callee) : std::nullopt;
      if (!streamIndex)
        continue;
      // A call that passes the caller's own stream argument where the
      // callee takes its stream (functions whose launches named their
      // stream, adoptAsyncObjectStreams) passes the call's slot instead; a
      // call without the stream gets the slot appended.
      size_t given = call.getArgOperands().size();
      bool passesOwn =
          given == callee.getNumArguments() &&
          call.getArgOperands()[*streamIndex] ==
              getExternalStreamArgument(program);
      if (!passesOwn && given + 1 != callee.getNumArguments())
        continue;
      FailureOr<Value> stream = getSlotStream(op);
      if (failed(stream))
        return failure();
      if (passesOwn) {
        call.getArgOperandsMutable()[*streamIndex].set(*stream);
        continue;
      }
      call.getArgOperandsMutable().append(*stream);
      // Per-argument attributes, if the call has them, cover the stream too.
      if (ArrayAttr attrs = call.getArgAttrsAttr()) {
        SmallVector<Attribute> extended(attrs.begin(), attrs.end());
        extended.push_back(DictionaryAttr::get(op->getContext()));
        call.setArgAttrsAttr(ArrayAttr::get(op->getContext(), extended));
      }
      continue;
    }

    if (auto node = dyn_cast<LibraryNodeOpInterface>(op)) {
      if (node.getNodeStream())
        continue;
      FailureOr<Value> stream = getSlotStream(op);
      if (failed(stream))
        return failure();
      node.setNodeStream(*stream);
      continue;
    }

    auto asyncOp = cast<gpu::AsyncOpInterface>(op);
    // The distinct streams the op's dependencies come from, in order.
    // Tokens are followed through block arguments, region ops (scf.if,
    // scf.for, scf.while results and iter_args) and call results, so that
    // a dependency carried through control flow still orders the op.
    SmallVector<Value> depStreams;
    for (Value dep : asyncOp.getAsyncDependencies())
      collectStreamsOfToken(dep, depStreams);
    // Orders work on `stream` after every dependency on another stream: an
    // event record/wait, never a new stream and never a host wait.
    auto joinOthers = [&](Value stream) {
      if (!joinStreams)
        return;
      OpBuilder builder(op);
      for (Value other : depStreams)
        if (!isSameStream(other, stream) &&
            getCanonicalStream(stream) != other)
          StreamWaitOp::create(builder, op->getLoc(), stream, other);
    };

    if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
      // The streams the awaited work runs on, or the slot's when the
      // dependencies do not tell (or there are none).
      SmallVector<Value> streams = depStreams;
      if (streams.empty()) {
        FailureOr<Value> slotStream = getSlotStream(op);
        if (failed(slotStream))
          return failure();
        streams.push_back(*slotStream);
      }
      if (Value joined = wait.getAsyncToken()) {
        // A join of tokens: the first stream, after all the others.
        joinOthers(streams.front());
        if (!joined.use_empty())
          joined.replaceAllUsesWith(makeToken(op, streams.front()));
      } else {
        // A blocking wait: the host waits for every stream it names.
        OpBuilder builder(op);
        SyncOp::create(builder, op->getLoc(), streams);
      }
      op->erase();
      continue;
    }

    if (isOnStream(asyncOp))
      continue;
    // An explicit stream (a leading stream token) wins over the slot, unless
    // the op names its slot.
    Value stream;
    OperandRange deps = asyncOp.getAsyncDependencies();
    if (!SDFGDialect::StreamSlotAttrHelper(op->getContext()).isAttrPresent(op) &&
        !deps.empty()) {
      if (auto token = deps.front().getDefiningOp<StreamTokenOp>()) {
        stream = token.getStream();
      } else {
        // The first dependency's stream, also through control flow (a
        // token carried by a loop stays on its stream), when it is one.
        SmallVector<Value> firstStreams;
        collectStreamsOfToken(deps.front(), firstStreams);
        if (firstStreams.size() == 1)
          stream = firstStreams.front();
      }
    }
    if (!stream) {
      FailureOr<Value> slotStream = getSlotStream(op);
      if (failed(slotStream))
        return failure();
      stream = *slotStream;
    }
    joinOthers(stream);
    if (failed(rebuildOnToken(asyncOp, makeToken(op, stream))))
      return failure();
  }
  return success();
}
