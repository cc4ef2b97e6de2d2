//===- RuntimeShared.h - What the runtime's files share ---------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The one implementation of include/SDFGStream/Runtime/SDFGRuntime.h is
// compiled once per vendor (-DSDFGRT_VENDOR_CUDA, -DSDFGRT_VENDOR_HIP)
// against that vendor's description (CUDA/CudaVendor.h, HIP/HipVendor.h),
// which supplies the types, the symbol table and the few operations whose
// signatures differ. Its files, one per concern, share what this header
// declares: the per-thread call and error state (CallState.cpp), the vendor
// library, contexts and the queries written once over the vendor's
// primitives (VendorLibrary.cpp), the templates that run an entry point on
// the caller's stream, the event pool (Events.cpp), stream ordering
// (Devices.cpp), the forks of a program call (StreamPool.cpp), the dense
// memset (StreamOperations.cpp) and the parts of the test hooks that each
// concern owns. Not installed, and only for the runtime's own files: the
// unit tests include the vendor-neutral RuntimeInternal.h.
//
// Nothing happens when the library is loaded or a module is registered: the
// vendor library is opened at the first GPU operation, and a module is
// loaded in a context when a kernel of it is first launched there. The
// vendor library is never linked, so one binary runs on machines with or
// without a GPU and reports a missing driver as an error.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_RUNTIMESHARED_H
#define SDFGSTREAM_LIB_RUNTIME_RUNTIMESHARED_H

#include "RuntimeInternal.h"

#if defined(SDFGRT_VENDOR_CUDA)
#include "CUDA/CudaVendor.h"
#elif defined(SDFGRT_VENDOR_HIP)
#include "HIP/HipVendor.h"
#else
#error "compile with -DSDFGRT_VENDOR_CUDA or -DSDFGRT_VENDOR_HIP"
#endif

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

//===----------------------------------------------------------------------===//
// Per-thread call and error state (CallState.cpp)
//===----------------------------------------------------------------------===//

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

/// The stream that `stream` was forked from by the current program call,
/// transitively; `stream` itself if it is no slot of a fork (StreamPool.cpp).
void *forkRoot(void *stream);

/// Whether `stream` is a stream the current program call forked
/// (sdfgrtForkStreams) from another one.
bool isCallForkSlot(void *stream);

//===----------------------------------------------------------------------===//
// The vendor library and contexts (VendorLibrary.cpp)
//===----------------------------------------------------------------------===//

struct VendorLibrary : LazyLibrary<Symbols> {
  // Guarded by `mutex`, like the rest of the library.
  Context defaultContext = kNoContext;
  // The device whose context default-stream work uses on a thread without
  // one (mgpuSetDefaultDevice).
  int32_t defaultDevice = 0;
};

/// The process's vendor library; never destroyed: generated code unloads
/// its modules from global destructors, which may run after this library's
/// own.
inline VendorLibrary &vendorLibrary() {
  static VendorLibrary *instance = new VendorLibrary;
  return *instance;
}

/// Opens the vendor library, fills the symbol table and initializes the
/// API, once per process (under the library's lock). The library stays
/// loaded.
bool openVendorLibrary(VendorLibrary &lib);

/// The vendor symbol table, opening the library at the first operation;
/// null (with the reason recorded) if the library cannot be used.
inline const Symbols *vendorSymbols() {
  VendorLibrary &lib = vendorLibrary();
  return lib.get([&] { return openVendorLibrary(lib); });
}

/// A context as the per-context caches know it: its handle, to make it
/// current, and the driver's id of it (vendor::contextId), so that a context
/// created with the handle of a destroyed one finds none of its entries.
struct ContextRef {
  Context handle;
  uint64_t id;
};

bool identify(const Symbols &symbols, Context context, ContextRef &ref);

/// Chooses (once) the context of default-stream work on a thread that has
/// no current context; see vendor::defaultContext.
bool chooseDefaultContext(const Symbols &symbols, Context &context);

/// Runs `body` with `context` current; false if it could not be made
/// current (body not run). The caller's thread normally has the stream's
/// context current already; only otherwise is it switched, and restored
/// afterwards.
template <typename Body>
bool inContext(const Symbols &symbols, Context context, Context current,
               Body &&body) {
  if (context == current) {
    body();
    return true;
  }
  if (!vendor::enterContext(symbols, context))
    return false;
  body();
  vendor::leaveContext(symbols, current);
  return true;
}

/// Runs `body(symbols, stream, context)` in the context of `rawStream`;
/// false (the failure recorded) if its context could not be found or made
/// current.
template <typename Body>
bool inStreamContext(const Symbols &symbols, void *rawStream, Body &&body) {
  Stream stream = static_cast<Stream>(rawStream);
  Context current = kNoContext, context = kNoContext;
  if (!vendor::currentContext(symbols, current))
    return false;
  // 0 (legacy default stream), 1 (CU_STREAM_LEGACY) and 2
  // (CU_STREAM_PER_THREAD, hipStreamPerThread) are handles of the current
  // context's default streams; they are passed on unchanged.
  if (reinterpret_cast<uintptr_t>(rawStream) <= 2) {
    context = current;
  } else if (threadState.callDepth > 0 &&
             rawStream == threadState.callStream) {
    context = threadState.callStreamContext;
  } else {
    if (!vendor::streamContext(symbols, stream, context))
      return false;
    if (threadState.callDepth > 0) {
      threadState.callStream = rawStream;
      threadState.callStreamContext = context;
    }
  }
  if (context == kNoContext && !chooseDefaultContext(symbols, context))
    return false;
  return inContext(symbols, context, current,
                   [&] { body(symbols, stream, context); });
}

/// Runs `body(symbols, stream, context)` for an operation on `rawStream`, in
/// the stream's context, unless the operation is skipped or the vendor
/// library is unusable; true if it ran.
template <typename Body> bool onStream(void *rawStream, Body &&body) {
  const Symbols *symbols = startOperation() ? vendorSymbols() : nullptr;
  return symbols && inStreamContext(*symbols, rawStream, body);
}

/// Whether `stream` is being captured into a graph. The legacy default
/// stream cannot be used while another stream captures in global or
/// thread-local mode (vendor::kStreamCaptureImplicit): that counts as
/// capturing, not as a failure; any other failure of the query is recorded
/// (false).
bool isCapturing(const Symbols &symbols, Stream stream, bool &capturing);

/// Whether an operation that a graph capture cannot record must be refused
/// on `stream`: it is being captured (the refusal `format`, printf-style,
/// is recorded as the failure) or its capture state cannot be read (that
/// failure is recorded).
bool refusedWhileCapturing(const Symbols &symbols, Stream stream,
                           const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// recordFailure with a va_list.
void recordFailureV(const char *format, va_list args);

/// The driver's process-wide id of the allocation `pointer` is in (memory
/// it allocated or registered); 0 for memory it does not know, or when it
/// cannot tell. Records no failure.
uint64_t pointerBufferId(const Symbols &symbols, const void *pointer);

/// Whether `pointer` is device memory (not managed, not host memory) and of
/// which device. A pointer the driver does not know is not device memory
/// and not a failure (CUDA answers it with default attributes, HIP with
/// vendor::kUnknownPointer); any other failure of the query is recorded
/// (false).
bool pointerDevice(const Symbols &symbols, const void *pointer, bool &isDevice,
                   int32_t &device);

//===----------------------------------------------------------------------===//
// Events (Events.cpp)
//===----------------------------------------------------------------------===//

/// Timing events measure calls; ordering events only order one stream after
/// another, without the cost of a timestamp.
enum class EventKind { Timing, Ordering };

/// An idle event of `context`, which is current, or a new one. Idle events
/// are kept per context and kind, so that timed calls and stream rebinding
/// create no event in steady state.
bool acquireEvent(const Symbols &symbols, const ContextRef &context,
                  EventKind kind, vendor::Event &event);

/// Gives `event` of `context` back; `mayBePending`: its last record may not
/// have completed yet. It is destroyed only when kMaxIdleEventsPerContext
/// of its kind are idle already, or when it may still be pending on a
/// vendor that cannot reuse it then.
void releaseEvent(const Symbols &symbols, const ContextRef &context,
                  EventKind kind, vendor::Event event, bool mayBePending);

//===----------------------------------------------------------------------===//
// Stream ordering (Devices.cpp)
//===----------------------------------------------------------------------===//

/// Orders each of the `count` streams `waiting` after the work enqueued on
/// `waitedOn` so far: one ordering event recorded on `waitedOn` in its
/// context, waited for by each in its own. False (recorded) at the first
/// failure, after which no further stream waits.
bool orderAfter(const Symbols &symbols, void *waitedOn, void *const *waiting,
                size_t count);

//===----------------------------------------------------------------------===//
// Dense memsets (StreamOperations.cpp)
//===----------------------------------------------------------------------===//

/// Sets `count` dense elements of `elementSize` bytes (1, 2, 4 or 8) at
/// `dst` to `value`, on `stream`.
bool fillDense(const Symbols &symbols, char *dst, int64_t elementSize,
               uint64_t value, size_t count, Stream stream);

//===----------------------------------------------------------------------===//
// The parts of resetForTesting that each concern owns (TestHooks.cpp)
//===----------------------------------------------------------------------===//

/// Forgets the loaded module count and every cached function handle.
void forgetModulesForTesting();

/// Forgets every program's timer; no timed call may be in flight.
void forgetTimersForTesting();

/// Forgets the idle events without destroying them (the test's fake driver
/// forgets them too).
void forgetEventsForTesting();

/// Forgets every program's graphs without destroying them (the test's fake
/// driver forgets them too).
void forgetGraphsForTesting();

/// Forgets the stream pools, and so every thread's lease, without
/// destroying the streams (the test's fake driver forgets them too).
void forgetStreamPoolsForTesting();

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_RUNTIMESHARED_H
