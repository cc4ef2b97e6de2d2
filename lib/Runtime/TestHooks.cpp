//===- TestHooks.cpp - What the unit tests ask and reset --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The hooks of RuntimeInternal.h that the unit tests use: the calling
// thread's counters, and a reset of the runtime's process state (each
// concern forgets its own) so that a test starts from a runtime that has
// done nothing. Not part of the C ABI: the shared library hides them.
//
//===----------------------------------------------------------------------===//

#include "Core/Events.h"
#include "Core/Modules.h"
#include "Core/StreamPool.h"
#include "GraphMode/GraphMode.h"
#include "Timers/Timers.h"

#include <iterator>
#include <mutex>
#include <vector>

using namespace sdfgrt;

Counters sdfgrt::countersForTesting() { return threadState.counters; }

void sdfgrt::resetForTesting() {
  VendorLibrary &lib = vendorLibrary();
  {
    std::lock_guard<std::mutex> lock(lib.mutex);
    lib.forget();
    lib.defaultContext = kNoContext;
    lib.defaultDevice = 0;
  }
  forgetModulesForTesting();
  forgetTimersForTesting();
  forgetEventsForTesting();
  forgetStreamPoolsForTesting();
  forgetGraphsForTesting();
  resetSparseForTesting();
  threadState = ThreadState();
}

const char *sdfgrt::libraryEnvironmentVariableForTesting() {
  return vendor::kLibraryEnvironmentVariable;
}

std::vector<const char *> sdfgrt::libraryNamesForTesting() {
  return {std::begin(vendor::kLibraryNames), std::end(vendor::kLibraryNames)};
}
