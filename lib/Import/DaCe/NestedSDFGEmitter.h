//===- NestedSDFGEmitter.h - A NestedSDFG node's emitter --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the files that emit a NestedSDFG node share (private to
// lib/Import/DaCe): NestedSDFGEmitter.cpp (the outer values its connectors
// and symbols take, and the call of a program of its own on the host) and
// NestedSDFGInline.cpp (its body inlined into a kernel).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_NESTEDSDFGEMITTER_H
#define SDFGSTREAM_LIB_IMPORT_DACE_NESTEDSDFGEMITTER_H

#include "ProgramEmitter.h"

namespace mlir {
namespace sdfg {
namespace dace {

class NestedSDFGEmitter {
public:
  NestedSDFGEmitter(ProgramEmitter &e, const State &state, const Node &node)
      : e(e), b(e.builder), state(state), node(node), info(*node.nested),
        model(*info.sdfg) {}

  LogicalResult emit();

private:
  /// The value of each inner symbol the inner SDFG reads or its connectors'
  /// shapes name, as the inner symbol's declared type.
  LogicalResult bindSymbols();
  /// The view (or, for a scalar passed by value, the value) each connector
  /// is bound to.
  LogicalResult bindConnectors();
  /// A view of `outer` from the first element of `memlet`'s subset with the
  /// inner descriptor's shape and strides (DaCe passes a pointer there),
  /// which `scratch` (an emitter of the inner SDFG at the builder's
  /// position, its symbols bound) evaluates.
  Value connectorView(ProgramEmitter &scratch, const DataDesc &inner,
                      const Container &outer, const Memlet &memlet);
  /// On the host: a private program of its own and an sdfg.call.
  LogicalResult emitCall();
  /// Inside a kernel: the body inlined in an scf.execute_region.
  LogicalResult emitInline();
  /// Binds `inner`'s symbols to `values` (declared types) as `index` and
  /// its other types (ControlFlowEmitter.h's symbolValueType).
  void bindInnerSymbols(ProgramEmitter &inner,
                        const llvm::StringMap<CValue> &values,
                        Location location);

  ProgramEmitter &e;
  OpBuilder &b;
  const State &state;
  const Node &node;
  const NestedSDFGInfo &info;
  const SDFGModel &model;
  /// Inner symbol -> its value as the declared type.
  llvm::StringMap<CValue> symbolValues;
  /// Connector -> its view (rank 0 for a scalar) and, for a scalar passed
  /// by value, its value.
  llvm::StringMap<Container> bound;
  /// Inner containers some access node of the inner SDFG writes.
  llvm::StringSet<> writtenInside;
};

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_NESTEDSDFGEMITTER_H
