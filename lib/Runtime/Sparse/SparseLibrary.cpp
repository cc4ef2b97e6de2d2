//===- SparseLibrary.cpp - The sparse library and its handles ---*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// cuSPARSE or hipSPARSE, as the sparse entries (Sparse.h) reach it.
// The library is opened at the first sparse operation (by the runtime's
// LazyLibrary and openLibraryFile), never linked, so the runtime loads
// without it; a missing library fails each sparse operation with the
// reason. A library handle is created once per context and thread (in
// that context; a handle is not thread-safe and belongs to the device it
// was created on) and kept. Separate from the entries, which only ask for
// the table and a handle, because this is the state the sparse entries
// keep between calls, and what resetForTesting forgets of them.
//
//===----------------------------------------------------------------------===//

#include "Sparse/Sparse.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

using namespace sdfgrt;
using namespace sdfgrt::sparse;

namespace {

//===----------------------------------------------------------------------===//
// The library
//===----------------------------------------------------------------------===//

struct Library : LazyLibrary<Symbols> {
  // Bumped by resetSparseForTesting: handles of an older one are stale.
  std::atomic<uint64_t> generation{0};
};

// Never destroyed, like the runtime's driver library.
Library &library() {
  static Library *instance = new Library;
  return *instance;
}

/// Opens the library and fills the table, once per process (under the
/// lock).
bool openLibrary(Library &lib) {
  const char *override = libraryOverride(kLibraryEnvironmentVariable);
  std::string tried, error;
  const char *opened = nullptr;
  void *handle =
      openLibraryFile(override, kLibraryNames, std::size(kLibraryNames),
                      /*counted=*/false, tried, error, opened);
  if (!handle)
    return lib.fail(kRuntimeFailure,
                    "%s (for the gpu dialect's sparse operations) could not "
                    "be loaded: %s: %s%s%s%s",
                    kName, tried.c_str(), error.c_str(),
                    override ? "" : " (to use another path, set ",
                    override ? "" : kLibraryEnvironmentVariable,
                    override ? "" : ")");
  const char *missing = nullptr;
  Symbols &symbols = lib.symbols;
#define SDFGRT_SPARSE_SYMBOL(role, function)                                   \
  symbols.role = reinterpret_cast<decltype(symbols.role)>(                     \
      dlsym(handle, Symbols::role##Name));                                     \
  if (!symbols.role && !missing)                                               \
    missing = Symbols::role##Name;
#include SDFGRT_SPARSE_SYMBOLS
#undef SDFGRT_SPARSE_SYMBOL
  if (missing)
    return lib.fail(kRuntimeFailure, "%s could not be resolved in %s", missing,
                    opened);
  return true;
}

//===----------------------------------------------------------------------===//
// Handles, one per context and thread
//===----------------------------------------------------------------------===//

struct ThreadHandle {
  uint64_t context; // the driver's id of the context (HIP: the device)
  Handle handle;
};

// A handle serves one thread at a time, so each thread has its own; created
// in the context it is used in. Kept for the thread's life: destroying one
// at thread exit could find its context already destroyed.
thread_local std::vector<ThreadHandle> threadHandles;
thread_local uint64_t threadHandlesGeneration = 0;

} // namespace

const Symbols *sdfgrt::sparse::sparseSymbols() {
  Library &lib = library();
  return lib.get([&] { return openLibrary(lib); });
}

bool sdfgrt::sparse::handleFor(const Symbols &symbols, uint64_t context,
                               Handle &handle) {
  uint64_t generation = library().generation.load(std::memory_order_acquire);
  if (threadHandlesGeneration != generation) {
    threadHandles.clear();
    threadHandlesGeneration = generation;
  }
  for (const ThreadHandle &entry : threadHandles) {
    if (entry.context == context) {
      handle = entry.handle;
      return true;
    }
  }
  Handle created{};
  if (!SDFGRT_SPARSE_CALL(symbols, Create, &created))
    return false;
  threadHandles.push_back({context, created});
  handle = created;
  return true;
}

bool sdfgrt::sparse::check(const Symbols &symbols, const char *function,
                           Status status) {
  if (status == kSuccess)
    return true;
  recordError(static_cast<int32_t>(status), "%s failed: %s (%s)", function,
              errorName(symbols, status), errorString(symbols, status));
  return false;
}

//===----------------------------------------------------------------------===//
// Test hooks
//===----------------------------------------------------------------------===//

void sdfgrt::resetSparseForTesting() {
  Library &lib = library();
  std::lock_guard<std::mutex> lock(lib.mutex);
  lib.forget();
  lib.generation.fetch_add(1, std::memory_order_release);
}

const char *sdfgrt::sparseLibraryEnvironmentVariableForTesting() {
  return kLibraryEnvironmentVariable;
}
