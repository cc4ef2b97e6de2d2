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
// (`gpu.wait`). Which stream that is, and which other streams the op must
// wait for first, is read off the solution of TokenChains.h, solved before
// anything is rewritten: a walk that rewrote ops as it met them could not
// see a producer written after its consumer (a loop's body, blocks out of
// execution order).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/StreamThreading.h"
#include "StreamWaits.h"

#include "SDFGStream/Analysis/StreamQueries.h"
#include "SDFGStream/Analysis/TokenChains.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"

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
    external = arg;
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
  // device code and are not visited.
  SmallVector<Operation *> work;
  bool hasTokens = false;
  program.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::AsyncOpInterface, CallOpInterface, LibraryNodeOpInterface>(
            op)) {
      work.push_back(op);
      hasTokens |= llvm::any_of(op->getOperandTypes(), isTokenLike) ||
                   llvm::any_of(op->getResultTypes(), isTokenLike);
    }
    return isa<gpu::LaunchOp>(op) ? WalkResult::skip()
                                  : WalkResult::advance();
  });

  // Which chains each token stands for (TokenChains.h), solved to a
  // fixpoint before anything changes: a token's producer may come later in
  // the text (a loop's body, blocks out of execution order). Then each op's
  // stream and waits, from the solution. A program without tokens (GPU ops
  // in sync form only) needs no solver: each op runs on its slot. Callees
  // are not entered: a token a program is given stands for its entry
  // stream, since each call waits for the tokens it passes.
  DataFlowSolver solver(DataFlowConfig().setInterprocedural(false));
  if (hasTokens) {
    dataflow::loadBaselineAnalyses(solver);
    solver.load<TokenChainsAnalysis>(symbolTables);
    if (failed(solver.initializeAndRun(program)))
      return program.emitOpError()
             << "the analysis of its GPU tokens did not converge";
  }
  auto chainsOf = [&](Value token) {
    return solver.lookupState<TokenChains>(token);
  };
  SmallVector<OpStreams> plans;
  plans.reserve(work.size());
  for (Operation *op : work) {
    if (auto call = dyn_cast<CallOpInterface>(op))
      plans.push_back(getCallStreams(call, chainsOf, symbolTables));
    else if (auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op))
      plans.push_back(getOpStreams(asyncOp, chainsOf));
    else
      plans.push_back({});
  }

  // In a program whose slots are its token chains, a GPU op in sync form
  // is blocking: it waits for every open chain and what follows it waits
  // for it (SyncFormBarriers.h).
  if (hasTokens && joinStreams &&
      SDFGDialect::TokenChainsAttrHelper(program->getContext())
          .isAttrPresent(program) &&
      failed(addSyncFormBarriers(program, init, work, plans)))
    return failure();

  // Orders work on `plan.stream` after every dependency on another stream:
  // an event record/wait, never a new stream and never a host wait.
  auto joinOthers = [&](Operation *op, const OpStreams &plan) {
    if (!joinStreams)
      return;
    OpBuilder builder(op);
    for (Value other : plan.getWaitedOn())
      StreamWaitOp::create(builder, op->getLoc(), plan.stream, other);
  };

  for (auto [op, plan] : llvm::zip(work, plans)) {
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
      // The callee's work waits for the tokens it is given: the call's
      // stream waits for their chains.
      joinOthers(op, plan);
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
    if (!plan.stream && failed(getSlotStream(op)))
      return failure();
    if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
      if (Value joined = wait.getAsyncToken()) {
        // A join of tokens: the first stream, after all the others.
        joinOthers(op, plan);
        if (!joined.use_empty())
          joined.replaceAllUsesWith(makeToken(op, plan.stream));
      } else {
        // A blocking wait: the host waits for every stream it names, or
        // the slot's when the dependencies name none.
        SmallVector<Value> streams = plan.depChains;
        if (streams.empty())
          streams.push_back(plan.stream);
        OpBuilder builder(op);
        SyncOp::create(builder, op->getLoc(), streams);
      }
      op->erase();
      continue;
    }

    if (isOnStream(asyncOp))
      continue;
    joinOthers(op, plan);
    if (failed(rebuildOnToken(asyncOp, makeToken(op, plan.stream))))
      return failure();
  }
  if (hasTokens && joinStreams)
    dropRepeatedWaits(program);
  return success();
}
