//===- StateEmitter.h - The emitter of one state's dataflow -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the files that emit a state's dataflow share (private to
// lib/Import/DaCe): DataflowEmitter.cpp (the state's scopes in order,
// copies between access nodes) and MapEmitter.cpp (maps as kernels or
// loops).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_STATEEMITTER_H
#define SDFGSTREAM_LIB_IMPORT_DACE_STATEEMITTER_H

#include "ProgramEmitter.h"
#include "StateScopes.h"

namespace mlir {
namespace sdfg {
namespace dace {

/// Emits the dataflow of one state.
class StateEmitter {
public:
  StateEmitter(ProgramEmitter &e, const ControlFlowBlock &block)
      : e(e), b(e.builder), block(block), state(block.state) {}

  LogicalResult emit();

private:
  const Node &node(size_t index) { return state.nodes[index]; }
  size_t indexOf(int64_t id) { return state.byId.at(id); }
  /// Emits the nodes whose scope is `entry` (-1: the state's top level).
  LogicalResult emitScope(int64_t entry);
  LogicalResult emitMap(size_t entry);
  LogicalResult emitHostMap(const Node &map, size_t entry);
  LogicalResult emitKernel(const Node &map, size_t entry);
  /// A copy along `edge` from an access node to `destination` (the edge's
  /// own destination if null; the access node at the end of its memlet path
  /// when the edge leaves a map through its MapExit).
  LogicalResult emitCopy(const StateEdge &edge,
                         const Node *destination = nullptr);
  /// Binds the views whose access nodes are in scope `entry` (Views.cpp).
  LogicalResult bindViews(int64_t entry);
  /// The schedule a map runs with (DaCe's Default resolved).
  FailureOr<Schedule> resolveSchedule(const Node &map, size_t entry);

  ProgramEmitter &e;
  OpBuilder &b;
  const ControlFlowBlock &block;
  const State &state;
  StateScopes scopes;
};

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_STATEEMITTER_H
