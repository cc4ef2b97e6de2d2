//===- StreamQueries.h - Which stream, which program, which slot -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The queries every pass asks about a program's streams: which stream an op
// enqueues its work on, which argument is the caller's stream, where the
// program's slots come from. Passes and analyses share them; the dialect's
// verifiers need none of them (they use isSameStream and getNumStreamSlots
// of SDFGOps.h), so they live here rather than in the IR library.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_STREAMQUERIES_H
#define SDFGSTREAM_ANALYSIS_STREAMQUERIES_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

namespace mlir {
class SymbolTableCollection;

namespace sdfg {

/// Returns the stream slot `op` runs on (`sdfg.stream_slot`, default 0).
int64_t getStreamSlot(Operation *op);

/// Returns the canonical value of `stream`: slots of one `sdfg.init_streams`
/// that is not `concurrent` are one run-time stream and all stand for its
/// first slot; a concurrent slot is its own.
Value getCanonicalStream(Value stream);

/// Returns the stream a token stands for (canonical) when it was made by
/// `sdfg.stream_token`, directly or through the first dependency of an op
/// already on a stream; null otherwise.
Value getStreamOfToken(Value token);

/// Returns the stream (canonical) that `op` enqueues its GPU work on, or
/// null: an async `gpu` op whose first dependency is a stream's token, a
/// library node with a stream, a call that passes the stream to a callee
/// taking one. This is the one "which stream does this op run on" query.
Value getStreamOf(Operation *op, SymbolTableCollection &symbolTables);

/// Returns the index of the argument of `program` that carries the caller's
/// stream (the one marked `sdfg.external_stream`); works on declarations.
std::optional<unsigned> getExternalStreamArgIndex(FunctionOpInterface program);

/// Returns the argument of `program` that carries the caller's stream, or
/// null (also for declarations, which have no arguments to return).
BlockArgument getExternalStreamArgument(FunctionOpInterface program);

/// Returns the `sdfg.init_streams` op of `program`, or null.
InitStreamsOp getInitStreamsOp(FunctionOpInterface program);

/// Returns the slots of `init` that are distinct run-time streams, in slot
/// order: one value per stream.
SmallVector<Value> getDistinctStreams(InitStreamsOp init);

/// Returns the distinct streams (canonical) of `program`: its stream
/// arguments and the slots of its init op.
SmallVector<Value> getProgramStreams(FunctionOpInterface program);

/// Calls `fn` on every program (function-like op, outside `gpu.module`s)
/// nested in `root` that takes the caller's stream, with its init op.
void forEachProgramOnStream(
    Operation *root,
    function_ref<void(FunctionOpInterface, InitStreamsOp)> fn);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_STREAMQUERIES_H
