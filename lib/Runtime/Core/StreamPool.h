//===- StreamPool.h - The forks of a program call ---------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The streams that sdfgrtForkStreams leases to a program call's concurrent
// slots (StreamPool.cpp): which stream a slot was forked from. A failed
// call's joins run from the pool's own end-of-call hook.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CORE_STREAMPOOL_H
#define SDFGSTREAM_LIB_RUNTIME_CORE_STREAMPOOL_H

#include "Core/CallState.h"

namespace sdfgrt {

/// The stream that `stream` was forked from by the current program call,
/// transitively; `stream` itself if it is no slot of a fork (StreamPool.cpp).
void *forkRoot(void *stream);

/// Whether `stream` is a stream the current program call forked
/// (sdfgrtForkStreams) from another one.
bool isCallForkSlot(void *stream);

/// Forgets the stream pools, and so every thread's lease, without
/// destroying the streams (the test's fake driver forgets them too).
void forgetStreamPoolsForTesting();

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CORE_STREAMPOOL_H
