//===- CallState.h - The per-thread call and error state --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The bottom of the runtime (CallState.cpp): the per-thread state of the
// program call and of its first failure, how an entry point starts (and is
// skipped once the call failed), and the three ways concerns above reach in
// without being called from here: hooks that the outermost call runs when
// it begins and ends (CallPhase), the one dispatch that eager entry points
// offer their GPU work through (offerWork, which graph mode intercepts), and
// the flush of work held back (graph mode's recorded segment).
//
// The runtime is compiled once per vendor; CMake puts that vendor's folder
// (CUDA/ or HIP/) on the include path, so "Vendor.h" is its description:
// types, symbol table and the few operations whose signatures differ.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CORE_CALLSTATE_H
#define SDFGSTREAM_LIB_RUNTIME_CORE_CALLSTATE_H

#include "Core/RuntimeInternal.h"

#include "Vendor.h"

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <string>

// Asks the compiler to prove that a thread_local is constant-initialized,
// so that other files reach it without a call to its TLS wrapper.
#if defined(__clang__)
#define SDFGRT_CONSTINIT [[clang::require_constant_initialization]]
#elif defined(__GNUC__) && __GNUC__ >= 10
#define SDFGRT_CONSTINIT __constinit
#else
#define SDFGRT_CONSTINIT
#endif

namespace sdfgrt {

using vendor::Context;
using vendor::kNoContext;
using vendor::Stream;
using vendor::Symbols;

/// Whether this runtime is built as the negative control of the GPU tests
/// of issue 22's classes 8c and 9 (test/GPU/CMakeLists.txt; never
/// installed): graph mode then records a launch the device refuses instead
/// of failing the call there, and a failed call frees its transients on
/// their own streams before joining its forks.
#ifdef SDFGRT_NEGATIVE_CONTROL
inline constexpr bool kNegativeControl = true;
#else
inline constexpr bool kNegativeControl = false;
#endif

// A POD, so the thread_local needs no constructor or guard on each access.
struct ThreadState {
  int32_t callDepth;
  int32_t callError; // first failure since the outermost sdfgrtBeginCall
  int32_t lastError;
  bool operationFailed; // the running entry point has recorded its failure
  bool graphCall;       // the outermost call records for graph mode
  bool graphPending;    // and has recorded operations not yet launched
  bool graphHeld;       // it holds its program's graphs and buffers
  const char *location;
  // The vendor's name of the last error's code ("CUDA_ERROR_..."), or
  // "SDFGRT_FAILURE" for the runtime's own, and the location of the failed
  // operation: static strings or generated code's constants; null if none.
  const char *lastErrorName;
  const char *lastErrorLocation;
  // Within a program call (callDepth > 0), what the driver said of the
  // call's stream and context, so that an operation does not ask again: the
  // last stream an operation ran on and its context (the first operation
  // on a stream validates the handle), and the last context identified and
  // its id. Forgotten when the outermost call begins and ends: a handle may
  // name another stream or context in the next call, never within one.
  void *callStream;
  Context callStreamContext;
  Context callIdContext;
  uint64_t callContextId;
  char lastErrorText[kErrorTextBytes];
  Counters counters;
};
SDFGRT_CONSTINIT extern thread_local ThreadState threadState;

// The call state is the bottom of the runtime: it calls no concern above
// it. Those that keep per-call state (graph mode, the forks of the stream
// pool, the transient allocations) register hooks that the outermost
// program call runs when it begins and ends, at their first use.

/// When the outermost program call runs the hooks of each phase, in this
/// order (each phase's hooks in the order they were registered).
enum class CallPhase : unsigned {
  /// sdfgrtBeginCall: forget what the last call left.
  Begin,
  /// sdfgrtEndCall, before any clean-up (graph mode launches what is left
  /// and stops recording).
  Closing,
  /// The call failed: before the forks join (the transients move to the
  /// streams their slots were forked from).
  FailedBeforeJoin,
  /// The call failed: the forks join their callers.
  FailedJoin,
  /// The call failed: after the joins (the transients are freed).
  FailedAfterJoin,
  /// After the clean-up (graph mode gives the program's graphs back).
  Closed,
  /// Last: forget the call's state.
  End,
};
inline constexpr unsigned kNumCallPhases = 7;

using CallHook = void (*)();

/// Registers `hook` for `phase` of every outermost call from now on, once
/// however often it is registered. Thread-safe; a concern registers before
/// it keeps any state for the calling thread, so its own next call end
/// runs it.
void registerCallHook(CallPhase phase, CallHook hook);

/// What runs a concern's held-back work before an operation it does not
/// hold back (graph mode: the segment recorded so far), registered before
/// the concern sets threadState.graphPending; false on a failure
/// (recorded).
void registerPendingWorkFlush(bool (*flush)());

/// Runs the registered flush (startOperation, when graphPending is set).
bool flushPendingWork();

/// GPU work that an eager entry point is about to enqueue and that a
/// concern above the core may take instead: graph mode records it into the
/// program's graph. The entry points describe their work and offer it
/// through one dispatch (offerWork) before running it eagerly; they know
/// nothing of graph mode.
struct StreamWork {
  enum class Kind { Launch, Copy, Set, Alloc, Free };
  Kind kind;
  void *stream = nullptr;
  // Launch: the kernel, its shape and its parameters.
  void *function = nullptr;
  unsigned grid[3] = {0, 0, 0};
  unsigned block[3] = {0, 0, 0};
  unsigned smem = 0;
  void **params = nullptr;
  size_t paramCount = 0;
  // Copy and Set: the destination; Free: the pointer freed.
  void *dst = nullptr;
  // Copy: `bytes` from `src`; Alloc: `bytes`.
  const void *src = nullptr;
  size_t bytes = 0;
  // Set: `count` elements of `elementSize` bytes (1, 2 or 4) to `value`.
  uint32_t value = 0;
  unsigned elementSize = 0;
  size_t count = 0;
  // Alloc, when taken: the allocation.
  void *allocated = nullptr;

  explicit StreamWork(Kind kind, void *stream = nullptr)
      : kind(kind), stream(stream) {}
};

/// What takes offered work: true if it took `work` (recorded it, or skipped
/// it in a failed call), so the entry point does nothing more; false if it
/// runs eagerly.
using WorkInterceptor = bool (*)(StreamWork &work);

/// Registers the interceptor (graph mode, before it first sets
/// threadState.graphCall); one per process.
void registerWorkInterceptor(WorkInterceptor interceptor);

/// Calls the registered interceptor.
bool interceptWork(StreamWork &work);

/// The one dispatch of eager entry points: whether a concern above took
/// the work of `kind` on `stream` that `fill(work)` describes (an
/// allocation's result in `*allocated`). Only while a graph-mode call
/// records (a free: while one holds its program's buffers) is the work
/// described and the interceptor asked; otherwise this is one test of a
/// thread-local flag.
template <typename Fill>
inline bool offerWork(StreamWork::Kind kind, void *stream, Fill &&fill,
                      void **allocated = nullptr) {
  bool recording = kind == StreamWork::Kind::Free ? threadState.graphHeld
                                                  : threadState.graphCall;
  if (!recording)
    return false;
  StreamWork work(kind, stream);
  fill(work);
  if (!interceptWork(work))
    return false;
  if (allocated)
    *allocated = work.allocated;
  return true;
}

/// Records a failure whose text, location included, was kept from an
/// earlier operation.
void recordKept(int32_t code, const std::string &text);

/// startOperation for the operations a graph-mode call records (the graph
/// hooks), which must not launch the recording first.
inline bool startRecordedOperation() {
  if (threadState.callDepth > 0 && threadState.callError != 0)
    return false;
  threadState.operationFailed = false;
  ++threadState.counters.operations;
  return true;
}

/// Starts an entry point that may do GPU work. False when an earlier
/// operation of the current program call failed: the rest of the call is
/// skipped, so the first failure is the one reported. Inline, with
/// vendorSymbols, because every launch takes this path.
inline bool startOperation() {
  // What a graph-mode call recorded runs before any operation it does not
  // record (a host sync included), in the order the program enqueued them.
  return startRecordedOperation() &&
         (!threadState.graphPending || flushPendingWork());
}

/// Starts an entry point that the host calls between program calls (stream
/// checks, timer queries): there the location of the last program
/// operation would name the wrong culprit.
bool startHostOperation();

/// What an entry point that returns a status returns: the failure it
/// recorded, 0 if none, or the failure that made it skip.
int32_t operationStatus(bool started);

/// Runs `body`, clean-up after a program call failed, without recording its
/// failures: the call's first failure stays the one reported.
template <typename Body> void withoutRecordingFailures(Body &&body) {
  bool failed = threadState.operationFailed;
  threadState.operationFailed = true;
  body();
  threadState.operationFailed = failed;
}

/// recordFailure with a va_list.
void recordFailureV(const char *format, va_list args);

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CORE_CALLSTATE_H
