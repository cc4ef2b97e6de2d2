//===- RuntimeInternal.h - Vendor-neutral runtime internals -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the shared runtime, the vendor descriptions, the sparse entries and
// the unit tests have in common, without any vendor type: error recording,
// the lazily opened libraries, the per-context handle cache and the hooks
// the tests use. Not installed; the unit tests reach it by linking the
// static runtime (the shared one exports only the C ABI). The runtime's own
// files share more, with the vendor's types, in the Core/ headers.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_RUNTIMEINTERNAL_H
#define SDFGSTREAM_LIB_RUNTIME_RUNTIMEINTERNAL_H

#include <array>
#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace sdfgrt {

/// Error code of failures that the runtime detects itself rather than a
/// vendor call returns (driver library missing, symbol missing, request
/// refused). Vendor codes are never negative.
constexpr int32_t kRuntimeFailure = -1;

/// Idle events kept per context and kind (timing, ordering) for reuse by
/// later timed calls and stream waits; further released events are
/// destroyed.
constexpr size_t kMaxIdleEventsPerContext = 64;

/// Bytes of the calling thread's last error text, its terminator included.
constexpr size_t kErrorTextBytes = 1024;

/// The most stream slots a program has (the SDFG dialect's
/// getMaxStreamSlots): what sdfgrtForkStreams and sdfgrtReserveStreams
/// accept.
constexpr int32_t kMaxStreamSlots = 1024;

/// Records a failure detected by the runtime (code kRuntimeFailure); the
/// message gets " at <location>" appended.
void recordFailure(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/// Records a failure with error code `code` (a vendor library's status,
/// never 0); the message gets " at <location>" appended.
void recordError(int32_t code, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// recordError of a vendor call's failure, whose code the vendor names
/// `name` (sdfgrtGetLastErrorName).
void recordVendorError(int32_t code, const char *name, const char *format,
                       ...) __attribute__((format(printf, 3, 4)));

//===----------------------------------------------------------------------===//
// Libraries opened at their first use (the vendor's and its sparse one)
//===----------------------------------------------------------------------===//

/// The path environment variable `variable` names to open instead of a
/// library's default names; null where it is unset or empty (dlopen("")
/// would open the program itself).
const char *libraryOverride(const char *variable);

/// Opens `override` if it is not null, else the first of `names` that
/// loads (dlopen, RTLD_NOW | RTLD_LOCAL); null if none does. `tried` gets
/// the names tried, comma-separated, `error` the first dlerror and `opened`
/// the name that loaded. With `counted`, each attempt counts in
/// Counters::libraryOpens.
void *openLibraryFile(const char *override, const char *const *names,
                      size_t nameCount, bool counted, std::string &tried,
                      std::string &error, const char *&opened);

enum class LibraryState { Unopened, Ready, Failed };

/// A library reached through the symbol table `Table`, opened at its first
/// use, once per process; a failure is kept, not retried, and reported by
/// every later use.
template <typename Table> struct LazyLibrary {
  std::mutex mutex;
  std::atomic<LibraryState> state{LibraryState::Unopened};
  Table symbols;
  // Why the library cannot be used, and the error code it is reported with.
  int32_t failureCode = 0;
  std::string failure;
  std::string failureName; // the vendor's name of failureCode, if it has one

  /// The table, calling `open()` (under the lock) at the first use to open
  /// the library and fill it; null, with the failure recorded, if the
  /// library cannot be used.
  template <typename Open> const Table *get(Open &&open) {
    if (state.load(std::memory_order_acquire) != LibraryState::Ready) {
      std::lock_guard<std::mutex> lock(mutex);
      if (state.load(std::memory_order_relaxed) == LibraryState::Unopened)
        state.store(open() ? LibraryState::Ready : LibraryState::Failed,
                    std::memory_order_release);
      if (state.load(std::memory_order_relaxed) == LibraryState::Failed) {
        recordVendorError(failureCode,
                          failureName.empty() ? nullptr : failureName.c_str(),
                          "%s", failure.c_str());
        return nullptr;
      }
    }
    return &symbols;
  }

  /// Keeps the failure that makes the library unusable; returns false.
  bool fail(int32_t code, const char *format, ...)
      __attribute__((format(printf, 3, 4))) {
    char text[kErrorTextBytes];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    failureCode = code;
    failure = text;
    return false;
  }

  /// Forgets the library: the next use opens it again. The caller holds
  /// `mutex`.
  void forget() {
    state.store(LibraryState::Unopened, std::memory_order_release);
    symbols = Table();
    failureCode = 0;
    failure.clear();
    failureName.clear();
  }
};

//===----------------------------------------------------------------------===//
// Operations implemented outside the runtime's core (the sparse libraries)
//===----------------------------------------------------------------------===//

/// Starts an entry point that does no GPU work: false when an earlier
/// operation of the current program call failed (the entry is skipped, so
/// the first failure is the one reported).
bool startLibraryOperation();

/// Starts an entry point on `stream` like the runtime's own: skipped
/// (false) after a failure of the current program call, or when the
/// vendor driver is unusable or the stream's context cannot be found or
/// made current (recorded). Otherwise calls `body(arg, stream, context)`
/// with the stream's context current and returns true; `context` is the
/// driver's id of that context (the key of per-context state).
using StreamOperation = void (*)(void *arg, void *stream, uint64_t context);
bool runOnStream(void *stream, StreamOperation body, void *arg);

/// runOnStream for a callable `body(stream, context)`.
template <typename Body> bool runOnStream(void *stream, Body &&body) {
  return runOnStream(
      stream,
      [](void *arg, void *s, uint64_t context) {
        (*static_cast<std::remove_reference_t<Body> *>(arg))(s, context);
      },
      &body);
}

/// Forgets the sparse library (SparseLibrary.cpp) and the calling thread's
/// handles of it; part of resetForTesting.
void resetSparseForTesting();

/// The environment variable that overrides the sparse library path
/// (SDFGRT_CUSPARSE_LIBRARY or SDFGRT_HIPSPARSE_LIBRARY).
const char *sparseLibraryEnvironmentVariableForTesting();

/// Handles created once per context (a module loaded in a CUDA context, a
/// function looked up in it) and read on every launch, by a key that names
/// the context (the runtime uses the driver's context id, which a later
/// context never shares even where it gets a destroyed one's handle). The
/// first few contexts are published lock-free, so a launch that hits takes
/// no lock; a miss runs `load` under the lock, so concurrent first launches
/// in one context load once. A failed load is not cached: the next launch
/// retries. Entries of destroyed contexts stay (one per context a module
/// was ever loaded in).
template <typename Context, typename Handle> class PerContextCache {
public:
  template <typename Load>
  bool get(Context context, Handle &handle, Load &&load) {
    if (findPublished(context, handle,
                      published.load(std::memory_order_acquire)))
      return true;
    std::lock_guard<std::mutex> lock(mutex);
    size_t count = published.load(std::memory_order_relaxed);
    if (findPublished(context, handle, count))
      return true;
    for (const Entry &entry : overflow) {
      if (entry.context == context) {
        handle = entry.handle;
        return true;
      }
    }
    Handle loaded{};
    if (!load(loaded))
      return false;
    if (count < entries.size()) {
      entries[count] = {context, loaded};
      published.store(count + 1, std::memory_order_release);
    } else {
      overflow.push_back({context, loaded});
    }
    handle = loaded;
    return true;
  }

  /// Calls `fn(context, handle)` for every cached handle; the caller makes
  /// sure no `get` runs concurrently (used when a module is unloaded).
  template <typename Fn> void forEach(Fn &&fn) {
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t i = 0, e = published.load(std::memory_order_relaxed); i < e;
         ++i)
      fn(entries[i].context, entries[i].handle);
    for (const Entry &entry : overflow)
      fn(entry.context, entry.handle);
  }

  bool empty() const { return published.load(std::memory_order_acquire) == 0; }

private:
  struct Entry {
    Context context;
    Handle handle;
  };

  bool findPublished(Context context, Handle &handle, size_t count) const {
    for (size_t i = 0; i < count; ++i) {
      if (entries[i].context == context) {
        handle = entries[i].handle;
        return true;
      }
    }
    return false;
  }

  // A node rarely has more than 8 GPUs; further contexts go to `overflow`.
  std::array<Entry, 8> entries{};
  std::atomic<size_t> published{0};
  std::mutex mutex;
  std::vector<Entry> overflow;
};

//===----------------------------------------------------------------------===//
// Test hooks
//===----------------------------------------------------------------------===//

/// What the calling thread made the runtime do; lets tests prove that an
/// operation was skipped or did no vendor work.
struct Counters {
  int64_t operations;   // entry points that ran (were not skipped)
  int64_t libraryOpens; // dlopen attempts
  int64_t vendorCalls;  // calls through the vendor symbol table
};
Counters countersForTesting();

/// Forgets the vendor library (it is opened again, honouring the
/// environment, at the next operation), the default context, the loaded
/// module count, the stream pools and the calling thread's state.
/// Registered modules stay.
void resetForTesting();

/// What the stream pool (StreamPool.cpp) holds for the context of driver
/// id `contextId`: the streams it created there, those no thread leases,
/// and those the calling thread leases.
struct StreamPoolCounts {
  int64_t created;
  int64_t idle;
  int64_t leased;
};
StreamPoolCounts streamPoolForTesting(uint64_t contextId);

/// The environment variable that overrides the vendor library path
/// (SDFGRT_CUDA_LIBRARY or SDFGRT_HIP_LIBRARY).
const char *libraryEnvironmentVariableForTesting();

/// The vendor library names tried, in order, when it names none.
std::vector<const char *> libraryNamesForTesting();

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_RUNTIMEINTERNAL_H
