//===- Views.h - DaCe's array layouts and views as memrefs ------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The layout half of the importer (private to lib/Import/DaCe): the strides
// of a container as DaCe computes them, and views (`ArrayView`, `View`)
// bound to the container they alias by the memlet between their access
// nodes (Views.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_VIEWS_H
#define SDFGSTREAM_LIB_IMPORT_DACE_VIEWS_H

#include "ProgramEmitter.h"

namespace mlir {
namespace sdfg {
namespace dace {

/// The strides of `desc` at the builder's position: its `strides`, or
/// DaCe's default (row-major) ones; empty after reporting an error.
SmallVector<OpFoldResult> emitStrides(ProgramEmitter &e, const DataDesc &desc);

/// The sizes of `desc` at the builder's position (literal ones static);
/// empty after reporting an error.
SmallVector<OpFoldResult> emitSizes(ProgramEmitter &e, const DataDesc &desc);

/// The edge that binds the view at access node `view` to the data it views,
/// by DaCe's rules (dace/sdfg/utils.py::get_view_edge); null when there is
/// none.
const StateEdge *findViewEdge(const State &state, const Node &view);

/// The access node at the other end of a view's edge `edge` (through map
/// scopes, as dace/sdfg/state.py::memlet_path follows it), or null.
const Node *viewedNode(const State &state, const Node &view,
                       const StateEdge &edge);

/// Whether `edge` binds a view of `state` rather than copying data.
bool isViewEdge(const ProgramEmitter &e, const State &state,
                const StateEdge &edge);

/// Binds the view at access node `view` (whose container must be bound)
/// as a memref view of the container it views, with the view's own sizes
/// and strides, starting at the viewed subset's first element
/// (dace/codegen/targets/cpu.py::CPUCodeGen.allocate_view). Returns the
/// view; null after reporting an error.
Value bindView(ProgramEmitter &e, const State &state, const Node &view);

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_VIEWS_H
