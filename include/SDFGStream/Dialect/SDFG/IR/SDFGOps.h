//===- SDFGOps.h - Operations of the sdfg dialect ---------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGOPS_H
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGOPS_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGEnums.h.inc"

#include "SDFGStream/Dialect/SDFG/IR/SDFGInterfaces.h.inc"

#define GET_OP_CLASSES
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h.inc"

namespace mlir {
namespace sdfg {

/// Returns true if `op` is host-side GPU work: an upstream `gpu` op that is
/// enqueued on a stream (launches, copies, memsets, allocations, waits) or a
/// stream op of this dialect. Ops inside kernels are not host work.
bool isHostGpuWork(Operation *op);

/// Returns the number of stream slots `program` declares: the `streams` field
/// of an `sdfg.sdfg`, the `sdfg.num_streams` attribute of any other function
/// (default 1).
int64_t getNumStreamSlots(FunctionOpInterface program);

/// Returns the stream slot `op` runs on (`sdfg.stream_slot`, default 0).
int64_t getStreamSlot(Operation *op);

/// Returns true if `a` and `b` are known to be the same run-time stream: the
/// same value, or two slots of one `sdfg.init_streams`.
bool isSameStream(Value a, Value b);

/// Returns the canonical value of `stream`: slots of one `sdfg.init_streams`
/// are one run-time stream and all stand for its first slot.
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

/// Calls `fn` on every program (function-like op, outside `gpu.module`s)
/// nested in `root` that takes the caller's stream, with its init op.
void forEachProgramOnStream(
    Operation *root,
    function_ref<void(FunctionOpInterface, InitStreamsOp)> fn);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGOPS_H
