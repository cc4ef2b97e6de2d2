//===- FakeCudaDriverInternal.h - Shared by the fake driver's files -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What FakeCudaDriver.cpp (contexts, streams, events, modules, launches),
// FakeCudaMemory.cpp (memory) and FakeCudaGraphs.cpp (graphs) share; not for
// the tests.
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

/// The calling thread's current context (null: none).
CUcontext current();

/// Whether `stream` is one of the default-stream handles (0, 1, 2).
bool isSpecial(CUstream stream);

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

/// Starts an entry point: the driver's lock, the call counted, an injected
/// failure (or a missing cuInit, unless the second argument says false)
/// returned.
#define ENTER(call, ...)                                                       \
  std::lock_guard<std::recursive_mutex> lock(                                 \
      ::fakecuda::internal::driverMutex);                                      \
  if (CUresult result = ::fakecuda::internal::enter(call, ##__VA_ARGS__))      \
  return result

#endif // SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVERINTERNAL_H
