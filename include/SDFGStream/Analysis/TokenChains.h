//===- TokenChains.h - Which streams a GPU token stands for -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The data-flow problem behind stream threading (moveGpuWorkOntoStreams):
// which chains of GPU work a `!gpu.async.token` stands for, solved with
// MLIR's sparse forward data-flow framework, so that the answer does not
// depend on the order in which ops are written. A token carried around a
// loop (scf.for / scf.while iter_args, a cf loop), through blocks written
// out of execution order, through scf.if results, `async.execute` regions
// (`!async.value` of a token, `async.await`) or into a callee gets the
// chains of every producer that may reach it, wherever that producer is.
//
// A chain is the stream (canonical, StreamQueries.h) that a piece of GPU
// work is or will be enqueued on: a program's stream slot or stream
// argument. Lattice of a token-carrying value: not known yet (bottom), or
// the set of chains it may stand for; join is union. Transfer:
//
//   sdfg.stream_token %s        -> {%s}
//   GPU op with a token         -> {the stream it runs on} (getOpStreams:
//                                  the stream its first dependency stands
//                                  for when that is one, else its slot's;
//                                  it waits for its other dependencies'
//                                  chains, so its token stands for its own
//                                  stream only)
//   call                        -> {the stream it runs on} + its token
//                                  arguments' chains
//   async.await                 -> its operand's chains
//   anything else               -> the union of its token operands' chains
//
// Block arguments, region results and entry arguments (iter_args,
// scf.while, async.execute), cf edges and, interprocedurally, a callee's
// token arguments (its callers' chains) are the framework's. A token whose
// origin the solver cannot see (an argument of a program with unknown
// callers, a value of an op nobody describes) stands for no chain: the
// caller orders the call's stream after every chain of the tokens it passes
// (stream threading waits for them before the call), so inside the program
// such a token is already complete on its entry stream. For the same
// reason, a chain of another function (a caller's, seen interprocedurally)
// stands for the program's entry stream (localizeChain).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_TOKENCHAINS_H
#define SDFGSTREAM_ANALYSIS_TOKENCHAINS_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir {
class SymbolTableCollection;

namespace sdfg {

/// Returns true for the types that carry a GPU token: `!gpu.async.token`
/// and `!async.value<!gpu.async.token>`.
bool isTokenLike(Type type);

/// The chains a token-carrying value may stand for.
class TokenChains : public dataflow::AbstractSparseLattice {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TokenChains)
  using AbstractSparseLattice::AbstractSparseLattice;

  /// False until some transfer or entry state set the value (bottom).
  bool isKnown() const { return known; }
  /// The chains, each once, in the order they were first added.
  ArrayRef<Value> getChains() const { return chains; }

  /// Makes the value known and adds `more` to its chains.
  ChangeResult addChains(ArrayRef<Value> more);
  ChangeResult join(const AbstractSparseLattice &rhs) override;
  void print(raw_ostream &os) const override;

private:
  bool known = false;
  SmallVector<Value, 2> chains;
};

/// The analysis over the host code of the programs under the solver's top
/// op (interprocedural where the solver is and the callee is visible).
class TokenChainsAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<TokenChains> {
public:
  TokenChainsAnalysis(DataFlowSolver &solver,
                      SymbolTableCollection &symbolTables);

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const TokenChains *> operands,
                               ArrayRef<TokenChains *> results) override;
  LogicalResult visitCallOperation(
      CallOpInterface call,
      ArrayRef<const dataflow::AbstractSparseLattice *> operands,
      ArrayRef<dataflow::AbstractSparseLattice *> results) override;
  void setToEntryState(TokenChains *lattice) override;

private:
  SymbolTableCollection &symbolTables;
};

/// The chains of a token-carrying value as the solution (or a transfer
/// function in progress) sees them; null where it knows nothing yet.
using ChainLookup = function_ref<const TokenChains *(Value)>;

/// Where a GPU op or a call runs and what it waits for.
struct OpStreams {
  /// The stream its work goes on (as written: a slot, not canonical), or
  /// null when the program has no streams.
  Value stream;
  /// The chains (canonical, local to the program, each once, in dependency
  /// order) of its token dependencies (or token arguments).
  SmallVector<Value> depChains;
  /// False if some dependency's chains are not known yet.
  bool known = true;

  /// The chains it must wait for: depChains except its own stream.
  SmallVector<Value> getWaitedOn() const;
};

/// The stream `op` runs on and its dependencies' chains, from `chainsOf`:
/// an explicit stream (its first dependency is an `sdfg.stream_token`)
/// unless it names a slot; else the one chain its first dependency stands
/// for; else its slot's stream. A join (`gpu.wait async` with
/// dependencies) runs on the first chain of its dependencies.
OpStreams getOpStreams(gpu::AsyncOpInterface op, ChainLookup chainsOf);

/// The stream a call to a callee that takes the caller's stream runs on
/// (the stream it passes, or its slot's) and its token arguments' chains;
/// a null stream if the callee takes no stream.
OpStreams getCallStreams(CallOpInterface call, ChainLookup chainsOf,
                         SymbolTableCollection &symbolTables);

/// `chain` as seen from the function holding `user`: itself if it is that
/// function's value, else that function's entry stream (a caller's chain,
/// which the call waited for).
Value localizeChain(Value chain, Operation *user);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_TOKENCHAINS_H
