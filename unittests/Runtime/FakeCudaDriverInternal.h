//===- FakeCudaDriverInternal.h - Shared by the fake driver's files -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What FakeCudaDriver.cpp (contexts, streams, events, modules, memory) and
// FakeCudaGraphs.cpp (graphs) share; not for the tests.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVERINTERNAL_H
#define SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVERINTERNAL_H

#include "FakeCudaDriver.h"

#include <mutex>

namespace fakecuda {
namespace internal {

/// Guards the whole driver (recursive: a graph launch runs its nodes).
extern std::recursive_mutex driverMutex;

/// Counts the call and answers an injected failure or a missing cuInit.
CUresult enter(const char *call, bool needsInit = true);

/// Stream work needs a live stream and its context current.
CUresult checkStream(CUstream stream);

/// Launches `f` on `stream` (a Launch record, with the argument bytes of a
/// kernel whose parameter sizes the test gave).
CUresult launch(CUfunction f, const unsigned (&grid)[3],
                const unsigned (&block)[3], const unsigned (&cluster)[3],
                unsigned smem, CUstream stream, void **params);

} // namespace internal
} // namespace fakecuda

#endif // SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVERINTERNAL_H
