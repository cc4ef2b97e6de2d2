//===- TokenChains.cpp - Which streams a GPU token stands for -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See TokenChains.h for the lattice and the transfer functions. The stream
// choice of an op (getOpStreams) is shared by the transfer function and
// the rewrite, so that what the solution says a token stands for is where
// the rewrite puts its op.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/TokenChains.h"
#include "SDFGStream/Analysis/HostGpuAccesses.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::sdfg;

bool mlir::sdfg::isTokenLike(Type type) {
  if (auto value = dyn_cast<async::ValueType>(type))
    type = value.getValueType();
  return isa<gpu::AsyncTokenType>(type);
}

ChangeResult TokenChains::addChains(ArrayRef<Value> more) {
  ChangeResult changed = known ? ChangeResult::NoChange : ChangeResult::Change;
  known = true;
  for (Value chain : more)
    if (!llvm::is_contained(chains, chain)) {
      chains.push_back(chain);
      changed = ChangeResult::Change;
    }
  return changed;
}

ChangeResult TokenChains::join(const AbstractSparseLattice &rhs) {
  const auto &other = static_cast<const TokenChains &>(rhs);
  if (!other.known)
    return ChangeResult::NoChange;
  return addChains(other.chains);
}

void TokenChains::print(raw_ostream &os) const {
  if (!known) {
    os << "<unknown>";
    return;
  }
  os << "{";
  llvm::interleaveComma(chains, os, [&](Value chain) {
    os << chain.getAsOpaquePointer();
  });
  os << "}";
}

/// The program (function-like op) whose host code holds `op`.
static FunctionOpInterface getProgram(Operation *op) {
  return op->getParentOfType<FunctionOpInterface>();
}

/// The stream of the slot `op` names (default 0) in its program, or null.
static Value getSlotStream(Operation *op) {
  FunctionOpInterface program = getProgram(op);
  InitStreamsOp init = program ? getInitStreamsOp(program) : InitStreamsOp();
  if (!init)
    return {};
  int64_t slot = getStreamSlot(op);
  if (slot < 0 || slot >= static_cast<int64_t>(init.getSlots().size()))
    return {};
  return init.getSlots()[slot];
}

Value mlir::sdfg::localizeChain(Value chain, Operation *user) {
  FunctionOpInterface program = getProgram(user);
  if (!program)
    return chain;
  Operation *owner = chain.getParentRegion()->getParentOp();
  if (program->isAncestor(owner))
    return chain;
  InitStreamsOp init = getInitStreamsOp(program);
  return init ? getCanonicalStream(init.getSlots().front()) : Value();
}

/// Appends the chains `chainsOf` gives `token`, localized to `user`'s
/// program, to `chains` (each once); false if they are not known yet.
static bool appendChains(Value token, Operation *user, ChainLookup chainsOf,
                         SmallVectorImpl<Value> &chains) {
  const TokenChains *lattice = chainsOf(token);
  if (!lattice || !lattice->isKnown())
    return false;
  for (Value chain : lattice->getChains())
    if (Value local = localizeChain(chain, user))
      if (!llvm::is_contained(chains, local))
        chains.push_back(local);
  return true;
}

SmallVector<Value> OpStreams::getWaitedOn() const {
  SmallVector<Value> waitedOn;
  for (Value chain : depChains)
    if (!isSameStream(chain, stream) && getCanonicalStream(stream) != chain)
      waitedOn.push_back(chain);
  return waitedOn;
}

OpStreams mlir::sdfg::getOpStreams(gpu::AsyncOpInterface asyncOp,
                                   ChainLookup chainsOf) {
  Operation *op = asyncOp.getOperation();
  OpStreams result;
  OperandRange deps = asyncOp.getAsyncDependencies();
  SmallVector<Value> firstChains;
  for (auto [index, dep] : llvm::enumerate(deps)) {
    result.known &= appendChains(dep, op, chainsOf, result.depChains);
    if (index == 0)
      firstChains = result.depChains;
  }

  if (isa<gpu::WaitOp>(op)) {
    // A join runs on the first of the streams it waits for.
    result.stream = result.depChains.empty() ? getSlotStream(op)
                                             : result.depChains.front();
    return result;
  }
  bool namesSlot =
      SDFGDialect::StreamSlotAttrHelper(op->getContext()).isAttrPresent(op);
  if (!namesSlot && !deps.empty()) {
    if (auto token = deps.front().getDefiningOp<StreamTokenOp>())
      result.stream = token.getStream();
    else if (firstChains.size() == 1)
      // A chain keeps its stream, also through control flow.
      result.stream = firstChains.front();
  }
  if (!result.stream)
    result.stream = getSlotStream(op);
  return result;
}

/// The callee of `call`, also through a func.constant for call_indirect.
static FunctionOpInterface getCallee(CallOpInterface call,
                                     SymbolTableCollection &symbolTables) {
  if (auto indirect = dyn_cast<func::CallIndirectOp>(call.getOperation()))
    if (auto constant = indirect.getCallee().getDefiningOp<func::ConstantOp>())
      return symbolTables.lookupNearestSymbolFrom<FunctionOpInterface>(
          constant, constant.getValueAttr());
  return dyn_cast_or_null<FunctionOpInterface>(
      call.resolveCallableInTable(&symbolTables));
}

OpStreams mlir::sdfg::getCallStreams(CallOpInterface call,
                                     ChainLookup chainsOf,
                                     SymbolTableCollection &symbolTables) {
  Operation *op = call.getOperation();
  OpStreams result;
  for (Value operand : call.getArgOperands())
    if (isTokenLike(operand.getType()))
      result.known &= appendChains(operand, op, chainsOf, result.depChains);
  FunctionOpInterface callee = getCallee(call, symbolTables);
  std::optional<unsigned> index =
      callee ? getExternalStreamArgIndex(callee) : std::nullopt;
  if (!index)
    return result;
  // The stream it passes already (a second run, or a callee written to
  // take the caller's stream), else the one it will pass: its slot's.
  if (*index < call.getArgOperands().size() &&
      isa<StreamType>(call.getArgOperands()[*index].getType()) &&
      getProgram(op) &&
      call.getArgOperands()[*index] !=
          getExternalStreamArgument(getProgram(op)))
    result.stream = call.getArgOperands()[*index];
  else
    result.stream = getSlotStream(op);
  return result;
}

TokenChainsAnalysis::TokenChainsAnalysis(DataFlowSolver &solver,
                                         SymbolTableCollection &symbolTables)
    : SparseForwardDataFlowAnalysis(solver), symbolTables(symbolTables) {}

LogicalResult
TokenChainsAnalysis::visitOperation(Operation *op,
                                    ArrayRef<const TokenChains *> operands,
                                    ArrayRef<TokenChains *> results) {
  if (llvm::none_of(op->getResultTypes(), isTokenLike) || isDeviceCode(op))
    return success();
  auto chainsOf = [&](Value value) -> const TokenChains * {
    for (auto [operand, lattice] : llvm::zip(op->getOperands(), operands))
      if (operand == value)
        return lattice;
    return nullptr;
  };
  auto setTokens = [&](ArrayRef<Value> chains) {
    for (auto [result, lattice] : llvm::zip(op->getResults(), results))
      if (isTokenLike(result.getType()))
        propagateIfChanged(lattice, lattice->addChains(chains));
  };

  if (auto token = dyn_cast<StreamTokenOp>(op)) {
    setTokens(getCanonicalStream(token.getStream()));
    return success();
  }
  if (auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op)) {
    OpStreams streams = getOpStreams(asyncOp, chainsOf);
    // Wait for the dependencies: a chain not known yet may still change
    // which stream the op runs on.
    if (!streams.known)
      return success();
    SmallVector<Value> own;
    if (streams.stream)
      own.push_back(getCanonicalStream(streams.stream));
    setTokens(own);
    return success();
  }
  // async.await, casts, selects, anything else: what its token operands
  // stand for (none: an origin nobody describes).
  SmallVector<Value> chains;
  for (Value operand : op->getOperands())
    if (isTokenLike(operand.getType()) &&
        !appendChains(operand, op, chainsOf, chains))
      return success();
  setTokens(chains);
  return success();
}

LogicalResult TokenChainsAnalysis::visitCallOperation(
    CallOpInterface call,
    ArrayRef<const dataflow::AbstractSparseLattice *> operands,
    ArrayRef<dataflow::AbstractSparseLattice *> results) {
  // A token a call returns stands for the work on the stream the call runs
  // on, or for any token it is given (the callee may return one of them):
  // the callee's own chains are its streams, which it joins into the
  // stream it is given before it returns.
  Operation *op = call.getOperation();
  if (llvm::none_of(op->getResultTypes(), isTokenLike))
    return success();
  auto chainsOf = [&](Value value) -> const TokenChains * {
    for (auto [operand, lattice] : llvm::zip(op->getOperands(), operands))
      if (operand == value)
        return static_cast<const TokenChains *>(lattice);
    return nullptr;
  };
  OpStreams streams = getCallStreams(call, chainsOf, symbolTables);
  if (!streams.known)
    return success();
  SmallVector<Value> chains = streams.depChains;
  for (Value operand : call.getArgOperands())
    if (isa<StreamType>(operand.getType()) &&
        !llvm::is_contained(chains, getCanonicalStream(operand)))
      chains.push_back(getCanonicalStream(operand));
  if (streams.stream &&
      !llvm::is_contained(chains, getCanonicalStream(streams.stream)))
    chains.push_back(getCanonicalStream(streams.stream));
  for (auto [result, lattice] : llvm::zip(op->getResults(), results))
    if (isTokenLike(result.getType())) {
      auto *tokens = static_cast<TokenChains *>(lattice);
      propagateIfChanged(tokens, tokens->addChains(chains));
    }
  return success();
}

void TokenChainsAnalysis::setToEntryState(TokenChains *lattice) {
  // An origin the solver cannot see: complete on the entry stream.
  propagateIfChanged(lattice, lattice->addChains({}));
}
