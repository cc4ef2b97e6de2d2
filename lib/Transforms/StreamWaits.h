//===- StreamWaits.h - Stream waits beyond the token dependencies -*- C++ -*-//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The parts of moveGpuWorkOntoStreams (StreamThreading.cpp) that order
// streams beyond what an op's own tokens say: GPU ops in sync form among a
// program's token chains (SyncFormBarriers.h), and waits that repeat one
// already made.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_TRANSFORMS_STREAMWAITS_H
#define SDFGSTREAM_LIB_TRANSFORMS_STREAMWAITS_H

#include "SDFGStream/Analysis/TokenChains.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace sdfg {

/// Returns true if `op` already runs on a stream: its only async dependency
/// is a stream token and it yields a token.
bool isOnStream(gpu::AsyncOpInterface op);

/// Adds to `plans` (of the ops `work`, in order, before any is rewritten)
/// the waits that order the GPU ops in sync form of `program` among its
/// token chains: such an op waits for every chain open before it, and each
/// other stream waits for it before its next work.
LogicalResult addSyncFormBarriers(FunctionOpInterface program,
                                  InitStreamsOp init,
                                  ArrayRef<Operation *> work,
                                  MutableArrayRef<OpStreams> plans);

/// Erases each `sdfg.stream_wait` that repeats an earlier one of its block
/// with nothing enqueued on the awaited stream in between, and nothing
/// awaited by the waiting stream (two ops of one stream depending on one
/// token of another): the first already ordered the waiting stream after
/// all that work. Any region op in between ends what is known.
void dropRepeatedWaits(FunctionOpInterface program);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_TRANSFORMS_STREAMWAITS_H
