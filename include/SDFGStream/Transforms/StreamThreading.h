//===- StreamThreading.h - Put a program's GPU work on its streams -*- C++ -*-//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The building blocks of sdfg-add-external-gpu-stream, shared with the library
// node expansion so that a nested program built late gets the caller's
// stream exactly like one written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TRANSFORMS_STREAMTHREADING_H
#define SDFGSTREAM_TRANSFORMS_STREAMTHREADING_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

namespace mlir {
class SymbolTableCollection;

namespace sdfg {
class HostGpuAccesses;

/// Gives `program` the caller's stream: appends a `!sdfg.stream` argument
/// marked `sdfg.external_stream = argumentName` and an `sdfg.init_streams` of
/// it at entry, unless it has them. A hand-written init op of an unmarked
/// last argument gets that argument marked instead. Returns the init op, or
/// emits an error. Changes only the signature and entry of `program`, so
/// that calls to it can be rewritten afterwards.
FailureOr<InitStreamsOp> addExternalStreamArgument(FunctionOpInterface program,
                                                   StringRef argumentName);

/// Adopts the stream form of MLIR after release 22 (what flang's CUF
/// lowering and Enzyme-JAX emit): in each of `programs`,
/// `gpu.launch_func <%s : !llvm.ptr> ...` whose async object `%s` is an
/// argument makes that argument the caller's stream (retyped to
/// `!sdfg.stream` and marked `sdfg.external_stream = argumentName`), and
/// the launches lose their async object so that they go onto the program's
/// stream like any other. Such a function may call another one, passing its
/// own stream there (a CUF module's subroutines calling each other). Any
/// other async object, an argument also used as a value, or a call inside
/// the module that passes something else there is an error.
LogicalResult adoptAsyncObjectStreams(ArrayRef<FunctionOpInterface> programs,
                                      StringRef argumentName,
                                      Operation *symbolTableOp);

/// Moves all GPU work of `program` (which must have an `sdfg.init_streams`)
/// onto the streams of its slots: every async `gpu` op gets the stream of
/// its slot as its only async dependency, `gpu.wait` becomes the slot's
/// token or an `sdfg.sync`, calls to callees that take the stream pass it,
/// and library nodes get it. Ops that already run on a stream are kept.
/// Where an op's tokens come from is solved first, as a data-flow fixpoint
/// (TokenChains.h), and an op (or a call given tokens) waits for the
/// streams of its dependencies other than its own; in a program whose
/// slots are its token chains, GPU ops in sync form are blocking
/// (SyncFormBarriers.h). With `joinStreams` false (a test-only mode), ops
/// are not ordered after their dependencies on other streams.
LogicalResult moveGpuWorkOntoStreams(FunctionOpInterface program,
                                     SymbolTableCollection &symbolTables,
                                     bool joinStreams = true);

/// Orders the concurrent stream slots of `program` (its
/// `sdfg.init_streams` is `concurrent`; run after moveGpuWorkOntoStreams):
/// an `sdfg.stream_wait` before each op whose GPU work conflicts with work
/// pending on another slot (unless `joinsOnly`: slots whose order the
/// program's tokens state), and before each return one on slot 0 for every
/// slot that slot 0 is not ordered after (see SlotOrdering.h). Running it
/// again adds nothing.
LogicalResult orderConcurrentSlots(FunctionOpInterface program,
                                   HostGpuAccesses &accesses,
                                   bool joinsOnly = false);

/// Runs the `async.execute` regions of `program` in place, in program
/// order (AsyncExecuteInlining.cpp): their host code on the caller's
/// thread, their GPU work as the tokens say (a chain a region starts
/// becomes a slot of its own), `async.await` of a region's token or value
/// resolved to what the region yielded, groups of such regions dropped.
/// Anything else in the async form is an error at the op.
LogicalResult runAsyncRegionsInPlace(FunctionOpInterface program);

/// Gives each token chain of `program` (a GPU op with a token and no async
/// dependencies starts one) a concurrent stream slot of its own, reusing
/// the slot of a chain that a blocking `gpu.wait` finished earlier in the
/// same block (AsyncChainSlots.cpp): sets `sdfg.stream_slot` on the roots
/// and the program's slot count and `sdfg.concurrent_streams`. Returns the
/// number of slots, or 0 where nothing changed: a declaration, a program
/// with streams or slots of its own, or one chain at a time.
int64_t deriveSlotsFromTokenChains(FunctionOpInterface program);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_TRANSFORMS_STREAMTHREADING_H
