//===- Runtime.cpp - GPU runtime on the caller's stream, CUDA and HIP -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The one implementation of include/SDFGStream/Runtime/SDFGRuntime.h. It is
// compiled once per vendor (-DSDFGRT_VENDOR_CUDA, -DSDFGRT_VENDOR_HIP)
// against that vendor's description, which supplies the types, the symbol
// table and the few operations whose signatures differ.
//
// Nothing happens when the library is loaded or a module is registered: the
// vendor library is opened at the first GPU operation, and a module is
// loaded in a context when a kernel of it is first launched there. The
// vendor library is never linked, so one binary runs on machines with or
// without a GPU and reports a missing driver as an error.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "StridedCopy.h"

#if defined(SDFGRT_VENDOR_CUDA)
#include "CUDA/CudaVendor.h"
#elif defined(SDFGRT_VENDOR_HIP)
#include "HIP/HipVendor.h"
#else
#error "compile with -DSDFGRT_VENDOR_CUDA or -DSDFGRT_VENDOR_HIP"
#endif

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

// Every entry that RuntimeEntries.def lists (and verify-stream-discipline
// accepts) is declared in SDFGRuntime.h with the C ABI; the unit tests
// check that each build exports it.
#define SDFGRT_RUNTIME_ENTRY(name, stream, mayFail)                            \
  static_assert(std::is_function<decltype(::name)>::value,                     \
                #name " is listed in RuntimeEntries.def but not declared");
#include "SDFGStream/Runtime/RuntimeEntries.def"

using namespace sdfgrt;
using vendor::Context;
using vendor::kNoContext;
using vendor::Stream;
using vendor::Symbols;

namespace {

//===----------------------------------------------------------------------===//
// Per-thread call and error state
//===----------------------------------------------------------------------===//

// A POD, so the thread_local needs no constructor or guard on each access.
struct ThreadState {
  int32_t callDepth;
  int32_t callError; // first failure since the outermost sdfgrtBeginCall
  int32_t lastError;
  bool operationFailed; // the running entry point has recorded its failure
  const char *location;
  char lastErrorText[1024];
  Counters counters;
};
thread_local ThreadState state;

/// A stream-ordered (or managed) allocation that the current program call
/// made and has not freed: what a failed call frees before it returns.
struct CallTransient {
  void *pointer;
  void *stream;
};
// Not in ThreadState: only allocations and frees touch it.
thread_local std::vector<CallTransient> callTransients;

/// Remembers `pointer`, allocated on `stream`, until it is freed or the
/// outermost program call ends.
void trackTransient(void *pointer, void *stream) {
  if (state.callDepth > 0)
    callTransients.push_back({pointer, stream});
}

/// Forgets `pointer` (freed); the newest first, as frees usually mirror the
/// allocations.
void untrackTransient(void *pointer) {
  for (auto it = callTransients.rbegin(); it != callTransients.rend(); ++it) {
    if (it->pointer == pointer) {
      callTransients.erase(std::next(it).base());
      return;
    }
  }
}

/// Frees, on its own stream, every allocation the failed call made and did
/// not free (defined with the allocation entries).
void freeCallTransients();

/// Makes `code` the running operation's failure; false if it has one.
bool claimFailure(int32_t code) {
  // An operation's first failure is the cause; later ones in the same
  // operation (restoring the context after a failed launch) are not news.
  if (state.operationFailed)
    return false;
  state.operationFailed = true;
  state.lastError = code;
  if (state.callDepth > 0 && state.callError == 0)
    state.callError = code;
  return true;
}

void recordV(int32_t code, const char *format, va_list args) {
  if (!claimFailure(code))
    return;
  char *text = state.lastErrorText;
  size_t size = sizeof(state.lastErrorText);
  int used = vsnprintf(text, size, format, args);
  if (used >= 0 && static_cast<size_t>(used) < size)
    snprintf(text + used, size - used, " at %s",
             state.location ? state.location : "unknown location");
}

/// Records a failure whose text, location included, was kept from an
/// earlier operation.
void recordKept(int32_t code, const std::string &text) {
  if (claimFailure(code))
    snprintf(state.lastErrorText, sizeof(state.lastErrorText), "%s",
             text.c_str());
}

void record(int32_t code, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
void record(int32_t code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(code, format, args);
  va_end(args);
}

/// Starts an entry point that may do GPU work. False when an earlier
/// operation of the current program call failed: the rest of the call is
/// skipped, so the first failure is the one reported.
bool startOperation() {
  if (state.callDepth > 0 && state.callError != 0)
    return false;
  state.operationFailed = false;
  ++state.counters.operations;
  return true;
}

/// Starts an entry point that the host calls between program calls (stream
/// checks, timer queries): there the location of the last program
/// operation would name the wrong culprit.
bool startHostOperation() {
  if (state.callDepth == 0)
    state.location = nullptr;
  return startOperation();
}

/// What an entry point that returns a status returns: the failure it
/// recorded, 0 if none, or the failure that made it skip.
int32_t operationStatus(bool started) {
  if (!started)
    return state.callError;
  return state.operationFailed ? state.lastError : 0;
}

//===----------------------------------------------------------------------===//
// The vendor library
//===----------------------------------------------------------------------===//

constexpr const char *kVendorFailureFormat = "%s failed: %s (%s)";

enum class LibraryState { Unopened, Ready, Failed };

struct Library {
  std::mutex mutex;
  std::atomic<LibraryState> state{LibraryState::Unopened};
  Symbols symbols;
  Context defaultContext = kNoContext;
  // The device whose context default-stream work uses on a thread without
  // one (mgpuSetDefaultDevice).
  int32_t defaultDevice = 0;
  // Why the library cannot be used; every later operation reports it.
  int32_t failureCode = 0;
  std::string failure;

  bool fail(int32_t code, const char *format, ...)
      __attribute__((format(printf, 3, 4))) {
    char text[sizeof(ThreadState::lastErrorText)];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    failureCode = code;
    failure = text;
    return false;
  }
};

// Never destroyed: generated code unloads its modules from global
// destructors, which may run after this library's own.
Library &library() {
  static Library *instance = new Library;
  return *instance;
}

template <typename Fn>
void resolve(void *handle, Fn &fn, const char *name, bool required,
             const char *&missing) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!fn && required && !missing)
    missing = name;
}

/// Opens the vendor library, fills the symbol table and initializes the
/// API, once per process (under the library's lock). The library stays
/// loaded; a failure is kept and not retried.
bool openLibrary(Library &lib) {
  const char *override = getenv(vendor::kLibraryEnvironmentVariable);
  std::string tried, error;
  void *handle = nullptr;
  const char *opened = nullptr;
  auto tryOpen = [&](const char *name) {
    ++state.counters.libraryOpens;
    tried.append(tried.empty() ? "" : ", ").append(name);
    if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      opened = name;
    else if (error.empty())
      error = dlerror();
    return handle != nullptr;
  };
  if (override) {
    tryOpen(override);
  } else {
    for (const char *name : vendor::kLibraryNames)
      if (tryOpen(name))
        break;
  }
  if (!handle)
    return lib.fail(kRuntimeFailure, "%s could not be loaded: %s%s%s%s",
                    tried.c_str(), error.c_str(),
                    override ? "" : " (to use another path, set ",
                    override ? "" : vendor::kLibraryEnvironmentVariable,
                    override ? "" : ")");

  Symbols &symbols = lib.symbols;
  const char *missing = nullptr;
#define SDFGRT_SYMBOL(role, function)                                          \
  resolve(handle, symbols.role, SDFGRT_STRINGIFY(function), true, missing);
#define SDFGRT_OPTIONAL_SYMBOL(role, function)                                 \
  resolve(handle, symbols.role, SDFGRT_STRINGIFY(function), false, missing);
#define SDFGRT_SYMBOL_TYPED(role, function, type) SDFGRT_SYMBOL(role, function)
#include SDFGRT_VENDOR_SYMBOLS
#undef SDFGRT_SYMBOL_TYPED
#undef SDFGRT_OPTIONAL_SYMBOL
#undef SDFGRT_SYMBOL
  if (missing)
    return lib.fail(kRuntimeFailure, "%s could not be resolved in %s", missing,
                    opened);

  ++state.counters.vendorCalls;
  vendor::Result result = symbols.Init(0);
  if (result != vendor::kSuccess)
    return lib.fail(result, kVendorFailureFormat, Symbols::InitName,
                    vendor::errorName(symbols, result),
                    vendor::errorString(symbols, result));
  return true;
}

/// The vendor symbol table, opening the library at the first operation;
/// null (with the reason recorded) if the library cannot be used.
const Symbols *vendorSymbols() {
  Library &lib = library();
  if (lib.state.load(std::memory_order_acquire) != LibraryState::Ready) {
    std::lock_guard<std::mutex> lock(lib.mutex);
    if (lib.state.load(std::memory_order_relaxed) == LibraryState::Unopened)
      lib.state.store(openLibrary(lib) ? LibraryState::Ready
                                       : LibraryState::Failed,
                      std::memory_order_release);
    if (lib.state.load(std::memory_order_relaxed) == LibraryState::Failed) {
      record(lib.failureCode, "%s", lib.failure.c_str());
      return nullptr;
    }
  }
  return &lib.symbols;
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

/// A context as the per-context caches know it: its handle, to make it
/// current, and the driver's id of it (vendor::contextId), so that a context
/// created with the handle of a destroyed one finds none of its entries.
struct ContextRef {
  Context handle;
  uint64_t id;
};

bool identify(const Symbols &symbols, Context context, ContextRef &ref) {
  ref.handle = context;
  return vendor::contextId(symbols, context, ref.id);
}

/// Chooses (once) the context of default-stream work on a thread that has
/// no current context; see vendor::defaultContext.
bool chooseDefaultContext(const Symbols &symbols, Context &context) {
  Library &lib = library();
  std::lock_guard<std::mutex> lock(lib.mutex);
  if (lib.defaultContext == kNoContext) {
    Context chosen = kNoContext;
    if (!vendor::defaultContext(symbols, lib.defaultDevice, chosen))
      return false;
    lib.defaultContext = chosen;
  }
  context = lib.defaultContext;
  return true;
}

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
  if (reinterpret_cast<uintptr_t>(rawStream) <= 2)
    context = current;
  else if (!vendor::streamContext(symbols, stream, context))
    return false;
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

//===----------------------------------------------------------------------===//
// Modules and functions
//===----------------------------------------------------------------------===//

struct FunctionRecord;

/// A module loaded in a context.
struct LoadedModule {
  Context context;
  vendor::Module module;
};

/// A registered kernel binary (or PTX/ISA for the JIT variant) and the
/// contexts it has been loaded in, by context id.
struct ModuleRecord {
  ModuleRecord(const void *data, int jitOptimizationLevel)
      : data(data), jitOptimizationLevel(jitOptimizationLevel) {}
  const void *data;
  int jitOptimizationLevel; // -1: a binary
  PerContextCache<uint64_t, LoadedModule> loaded;
  std::mutex mutex; // guards functions
  std::unordered_map<std::string_view, std::unique_ptr<FunctionRecord>>
      functions;
};

/// The handle mgpuModuleGetFunction returns: a kernel by name, looked up in
/// each context its module is loaded in (by context id).
struct FunctionRecord {
  FunctionRecord(ModuleRecord &module, const char *name)
      : module(module), name(name) {}
  ModuleRecord &module;
  std::string name;
  PerContextCache<uint64_t, vendor::Function> resolved;
};

std::atomic<int64_t> loadedModuleCount{0};

// Bumped by every unload, so cached function handles of a freed module
// (whose address may be reused) never answer again.
std::atomic<uint64_t> moduleGeneration{1};

// mgpuModuleGetFunction runs before every launch of generated code, always
// with the same constant name string; this per-thread cache, keyed by the
// module and the name's address, answers it without lock or hashing.
struct FunctionCacheEntry {
  const void *module;
  const char *name;
  FunctionRecord *function;
  uint64_t generation;
};
thread_local FunctionCacheEntry functionCache[16];

/// Bytes of a failed load's error log that its error text keeps (the text
/// has room for 1023 bytes, the vendor's words and the location included).
constexpr size_t kModuleLoadLogBytes = 640;

/// The log on one line, without trailing white space.
const char *logLine(char *log) {
  size_t length = strlen(log);
  while (length > 0 && isspace(static_cast<unsigned char>(log[length - 1])))
    log[--length] = '\0';
  std::replace_if(
      log, log + length, [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return log;
}

bool loadModule(const Symbols &symbols, ModuleRecord &module,
                const ContextRef &context, vendor::Module &handle) {
  LoadedModule found{};
  bool ok = module.loaded.get(context.id, found, [&](LoadedModule &loaded) {
    // Why a load failed (the JIT compiler's or the linker's errors, an image
    // for another architecture) is only in the driver's error log.
    char log[kModuleLoadLogBytes] = {};
    vendor::JitOption options[] = {vendor::kJitErrorLogBuffer,
                                   vendor::kJitErrorLogBufferSize,
                                   vendor::kJitOptimizationLevel};
    void *values[] = {log,
                      reinterpret_cast<void *>(
                          static_cast<uintptr_t>(sizeof(log))),
                      reinterpret_cast<void *>(
                          static_cast<intptr_t>(module.jitOptimizationLevel))};
    unsigned count = module.jitOptimizationLevel < 0 ? 2 : 3;
    vendor::Result result = symbols.ModuleLoadDataEx(
        &loaded.module, module.data, count, options, values);
    log[sizeof(log) - 1] = '\0';
    if (!vendor::check(Symbols::ModuleLoadDataExName, result, logLine(log)))
      return false;
    loaded.context = context.handle;
    loadedModuleCount.fetch_add(1, std::memory_order_relaxed);
    return true;
  });
  handle = found.module;
  return ok;
}

/// The vendor function of `function` in `context` (the current one),
/// loading its module there first if needed.
bool resolveFunction(const Symbols &symbols, void *function, Context context,
                     vendor::Function &handle) {
  auto *record = static_cast<FunctionRecord *>(function);
  if (!record) {
    recordFailure("no kernel to launch: mgpuModuleGetFunction was given a "
                  "null module or name");
    return false;
  }
  ContextRef ref;
  if (!identify(symbols, context, ref))
    return false;
  return record->resolved.get(ref.id, handle, [&](vendor::Function &found) {
    vendor::Module module;
    return loadModule(symbols, record->module, ref, module) &&
           SDFGRT_CALL(symbols, ModuleGetFunction, &found, module,
                       record->name.c_str());
  });
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

/// Timing events measure calls; ordering events only order one stream after
/// another, without the cost of a timestamp.
enum class EventKind { Timing, Ordering };

/// Idle events per context and kind, so that timed calls and stream
/// rebinding create no event in steady state. An event is destroyed only
/// when kMaxIdleEventsPerContext of its kind are idle already, or when it
/// may still be pending on a vendor that cannot reuse it then.
class EventPool {
public:
  /// An idle event of `context`, which is current, or a new one.
  bool acquire(const Symbols &symbols, const ContextRef &context,
               EventKind kind, vendor::Event &event) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      std::vector<vendor::Event> &idle = idleEvents(context.id, kind);
      if (!idle.empty()) {
        event = idle.back();
        idle.pop_back();
        return true;
      }
    }
    return SDFGRT_CALL(symbols, EventCreate, &event,
                       kind == EventKind::Timing ? vendor::kTimingEventFlags
                                                 : vendor::kOrderingEventFlags);
  }

  /// Gives `event` of `context` back; `mayBePending`: its last record may
  /// not have completed yet.
  void release(const Symbols &symbols, const ContextRef &context,
               EventKind kind, vendor::Event event, bool mayBePending) {
    if (!mayBePending || vendor::kEventReusableWhilePending) {
      std::lock_guard<std::mutex> lock(mutex);
      std::vector<vendor::Event> &idle = idleEvents(context.id, kind);
      if (idle.size() < kMaxIdleEventsPerContext) {
        idle.push_back(event);
        return;
      }
    }
    // An event of a destroyed context was destroyed with it.
    Context current = kNoContext;
    if (vendor::contextAlive(symbols, context.handle, context.id) &&
        vendor::currentContext(symbols, current))
      inContext(symbols, context.handle, current,
                [&] { SDFGRT_CALL(symbols, EventDestroy, event); });
  }

  /// Forgets the idle events without destroying them (the test's fake
  /// driver forgets them too).
  void forget() {
    std::lock_guard<std::mutex> lock(mutex);
    pools.clear();
  }

private:
  struct Pool {
    uint64_t contextId;
    EventKind kind;
    std::vector<vendor::Event> events;
  };

  std::vector<vendor::Event> &idleEvents(uint64_t contextId, EventKind kind) {
    for (Pool &pool : pools)
      if (pool.contextId == contextId && pool.kind == kind)
        return pool.events;
    pools.push_back({contextId, kind, {}});
    return pools.back().events;
  }

  std::mutex mutex;
  std::vector<Pool> pools;
};

EventPool &eventPool() {
  static EventPool *instance = new EventPool;
  return *instance;
}

//===----------------------------------------------------------------------===//
// Timers
//===----------------------------------------------------------------------===//

struct ProgramTimer;

/// One stream of a timed call.
struct TimedStream {
  Stream stream;
  ContextRef context;
  vendor::Event begin;
  vendor::Event end;
  bool hasEnd;
};

/// What sdfgrtTimerBegin hands out: one call of a program, from its first
/// begin event to its last end event over the streams it ran on.
struct TimedCall {
  /// Null for the handle that records nothing.
  ProgramTimer *program = nullptr;
  /// The program's generation at the begin; a reset since drops the call.
  uint64_t generation = 0;
  /// A stream was captured or failed: the call is not counted.
  bool untimed = false;
  std::vector<TimedStream> streams;

  TimedStream *find(Stream stream) {
    for (TimedStream &timed : streams)
      if (timed.stream == stream)
        return &timed;
    return nullptr;
  }
};

/// The totals of one program and its calls that are closed but not yet
/// resolved. sdfgrtTimerBegin and sdfgrtTimerEnd, which run inside program
/// calls, take only `closedMutex`, held for a few instructions, and resolve
/// only if `resolveMutex` is free: a thread that waits for events in
/// sdfgrtTimerQuery never blocks a program call of another thread.
struct ProgramTimer {
  std::mutex resolveMutex; // guards pending, the totals and the failure
  std::deque<std::unique_ptr<TimedCall>> pending; // oldest first
  double milliseconds = 0;
  int64_t calls = 0;
  // A failure met while sdfgrtTimerBegin resolved, for the next query.
  int32_t failureCode = 0;
  std::string failure;

  std::mutex closedMutex; // guards closed, known and generation
  std::vector<std::unique_ptr<TimedCall>> closed; // since the last resolution
  bool known = false; // a call began since the start or the last reset
  uint64_t generation = 0;
};

/// Every program's timer by name, and recycled call handles.
class TimerRegistry {
public:
  ProgramTimer &get(const char *program) {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<ProgramTimer> &timer = programs[program];
    if (!timer)
      timer = std::make_unique<ProgramTimer>();
    return *timer;
  }

  ProgramTimer *find(const char *program) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = programs.find(program);
    return it == programs.end() ? nullptr : it->second.get();
  }

  /// Every timer; they live as long as the registry.
  std::vector<ProgramTimer *> all() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<ProgramTimer *> result;
    for (auto &entry : programs)
      result.push_back(entry.second.get());
    return result;
  }

  std::unique_ptr<TimedCall> newCall() {
    std::lock_guard<std::mutex> lock(mutex);
    if (idleCalls.empty())
      return std::make_unique<TimedCall>();
    std::unique_ptr<TimedCall> call = std::move(idleCalls.back());
    idleCalls.pop_back();
    return call;
  }

  void recycle(std::unique_ptr<TimedCall> call) {
    call->program = nullptr;
    call->untimed = false;
    call->streams.clear();
    std::lock_guard<std::mutex> lock(mutex);
    if (idleCalls.size() < kMaxIdleCalls)
      idleCalls.push_back(std::move(call));
  }

  /// Forgets every program; no call may be in flight.
  void forget() {
    std::lock_guard<std::mutex> lock(mutex);
    programs.clear();
  }

private:
  // More calls of all programs in flight at once are rare.
  static constexpr size_t kMaxIdleCalls = 64;

  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<ProgramTimer>> programs;
  std::vector<std::unique_ptr<TimedCall>> idleCalls;
};

// Never destroyed, like the library: handles may outlive static destructors.
TimerRegistry &timers() {
  static TimerRegistry *instance = new TimerRegistry;
  return *instance;
}

/// Gives the call's events back to the pool and the call to the registry.
/// Its events exist only if the vendor library was opened.
void releaseCall(std::unique_ptr<TimedCall> call, bool mayBePending) {
  const Symbols &symbols = library().symbols;
  for (TimedStream &timed : call->streams) {
    eventPool().release(symbols, timed.context, EventKind::Timing, timed.begin,
                        mayBePending);
    if (timed.hasEnd)
      eventPool().release(symbols, timed.context, EventKind::Timing, timed.end,
                          mayBePending);
  }
  timers().recycle(std::move(call));
}

enum class Completion { Complete, NotReady, Failed };

/// Whether every end event of `call` has completed.
Completion completion(const Symbols &symbols, Context current,
                      const TimedCall &call) {
  for (const TimedStream &timed : call.streams) {
    vendor::Result result = vendor::kSuccess;
    if (!inContext(symbols, timed.context.handle, current,
                   [&] { result = symbols.EventQuery(timed.end); }))
      return Completion::Failed;
    if (result == vendor::kNotReady)
      return Completion::NotReady;
    if (!vendor::check(Symbols::EventQueryName, result))
      return Completion::Failed;
  }
  return Completion::Complete;
}

/// The span of a completed call: from its earliest begin to its latest end.
/// Only events of one context can be compared, so each context's span is
/// measured from its first stream's begin event (the others' begins may be
/// earlier: negative); a call on several contexts takes the longest.
bool callMilliseconds(const Symbols &symbols, Context current,
                      const TimedCall &call, double &milliseconds) {
  milliseconds = 0;
  const std::vector<TimedStream> &streams = call.streams;
  for (size_t first = 0; first < streams.size(); ++first) {
    const ContextRef &context = streams[first].context;
    bool seen = false;
    for (size_t i = 0; i < first && !seen; ++i)
      seen = streams[i].context.id == context.id;
    if (seen)
      continue;
    bool ok = true;
    double earliest = 0, latest = 0;
    bool entered = inContext(symbols, context.handle, current, [&] {
      vendor::Event reference = streams[first].begin;
      for (size_t i = first; i < streams.size() && ok; ++i) {
        if (streams[i].context.id != context.id)
          continue;
        float begin = 0, end = 0;
        ok = (i == first || vendor::elapsedTime(symbols, reference,
                                                streams[i].begin, begin)) &&
             vendor::elapsedTime(symbols, reference, streams[i].end, end);
        earliest = std::min(earliest, double(begin));
        latest = std::max(latest, double(end));
      }
    });
    if (!entered || !ok)
      return false;
    milliseconds = std::max(milliseconds, latest - earliest);
  }
  return true;
}

/// Resolves the closed calls of `timer`, oldest first, up to the first one
/// still running (calls complete mostly in order; later ones are resolved
/// next time); with `wait`, first waits for their end events. The caller
/// holds `timer.resolveMutex`.
void resolve(ProgramTimer &timer, bool wait) {
  {
    std::lock_guard<std::mutex> lock(timer.closedMutex);
    for (std::unique_ptr<TimedCall> &call : timer.closed)
      timer.pending.push_back(std::move(call));
    timer.closed.clear();
  }
  if (timer.pending.empty())
    return;
  const Symbols *symbols = vendorSymbols();
  Context current = kNoContext;
  if (!symbols || !vendor::currentContext(*symbols, current))
    return;
  if (wait) {
    // Event synchronization: never a stream, context or device sync.
    for (const std::unique_ptr<TimedCall> &call : timer.pending)
      for (const TimedStream &timed : call->streams)
        inContext(*symbols, timed.context.handle, current,
                  [&] { SDFGRT_CALL(*symbols, EventSynchronize, timed.end); });
  }
  while (!timer.pending.empty()) {
    Completion progress = completion(*symbols, current, *timer.pending.front());
    if (progress == Completion::NotReady)
      break;
    double milliseconds = 0;
    if (progress == Completion::Complete &&
        callMilliseconds(*symbols, current, *timer.pending.front(),
                         milliseconds)) {
      timer.milliseconds += milliseconds;
      ++timer.calls;
    }
    releaseCall(std::move(timer.pending.front()),
                /*mayBePending=*/progress != Completion::Complete);
    timer.pending.pop_front();
  }
}

/// Resolves for sdfgrtTimerBegin. A failure there belongs to the timer, not
/// to the program call that is starting: it is kept for the next
/// sdfgrtTimerQuery, and the thread's error state is left as it was.
void resolveInBegin(ProgramTimer &timer) {
  int32_t callError = state.callError, lastError = state.lastError;
  char lastErrorText[sizeof(state.lastErrorText)];
  memcpy(lastErrorText, state.lastErrorText, sizeof(lastErrorText));
  resolve(timer, /*wait=*/false);
  if (!state.operationFailed)
    return;
  if (!timer.failureCode) {
    timer.failureCode = state.lastError;
    timer.failure = state.lastErrorText;
  }
  state.operationFailed = false;
  state.callError = callError;
  state.lastError = lastError;
  memcpy(state.lastErrorText, lastErrorText, sizeof(lastErrorText));
}

} // namespace

bool sdfgrt::vendor::check(const char *function, Result result,
                           const char *detail) {
  ++state.counters.vendorCalls;
  if (result == kSuccess)
    return true;
  const Symbols &symbols = library().symbols;
  bool detailed = detail && *detail;
  record(static_cast<int32_t>(result), "%s failed: %s (%s)%s%s", function,
         errorName(symbols, result), errorString(symbols, result),
         detailed ? ": " : "", detailed ? detail : "");
  return false;
}

bool sdfgrt::vendor::checkStream(const char *function, Result result,
                                 const void *stream) {
  if (result == kSuccess)
    return check(function, result);
  char detail[160];
  snprintf(detail, sizeof(detail),
           "%p is not a stream the driver knows (never created, destroyed, "
           "or of a destroyed context)",
           stream);
  return check(function, result, detail);
}

void sdfgrt::recordFailure(const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(kRuntimeFailure, format, args);
  va_end(args);
}

void sdfgrt::recordError(int32_t code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(code, format, args);
  va_end(args);
}

bool sdfgrt::startLibraryOperation() { return startOperation(); }

bool sdfgrt::runOnStream(void *stream, StreamOperation body, void *arg) {
  bool identified = false;
  return onStream(stream,
                  [&](const Symbols &symbols, Stream s, Context context) {
                    ContextRef ref;
                    if ((identified = identify(symbols, context, ref)))
                      body(arg, s, ref.id);
                  }) &&
         identified;
}

//===----------------------------------------------------------------------===//
// C ABI: program calls and errors
//===----------------------------------------------------------------------===//

void sdfgrtBeginCall(void) {
  if (state.callDepth++ > 0)
    return;
  state.callError = 0;
  state.lastError = 0;
  state.lastErrorText[0] = '\0';
  state.location = nullptr;
  callTransients.clear();
}

int32_t sdfgrtEndCall(void) {
  if (state.callDepth > 0 && --state.callDepth == 0) {
    if (state.callError != 0)
      freeCallTransients();
    callTransients.clear();
  }
  return state.callError;
}

int32_t sdfgrtCallStatus(void) {
  return state.callDepth > 0 ? state.callError : 0;
}

void sdfgrtSetLocation(const char *location) { state.location = location; }

const char *sdfgrtGetLastError(void) { return state.lastErrorText; }

int32_t sdfgrtGetLastErrorCode(void) { return state.lastError; }

void sdfgrtClearError(void) {
  state.lastError = 0;
  state.lastErrorText[0] = '\0';
}

int64_t sdfgrtLoadedModuleCount(void) {
  return loadedModuleCount.load(std::memory_order_relaxed);
}

//===----------------------------------------------------------------------===//
// C ABI: modules
//===----------------------------------------------------------------------===//

void *mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  return new ModuleRecord(data, -1);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return new ModuleRecord(data, optLevel < 0 ? 0 : optLevel);
}

void mgpuModuleUnload(void *module) {
  auto *record = static_cast<ModuleRecord *>(module);
  if (!record)
    return;
  moduleGeneration.fetch_add(1, std::memory_order_release);
  // A module that was never launched was never loaded: no vendor work.
  const Symbols *symbols = nullptr;
  Context current = kNoContext;
  if (!record->loaded.empty() && startOperation() &&
      (symbols = vendorSymbols()) && vendor::currentContext(*symbols, current))
    record->loaded.forEach([&](uint64_t id, const LoadedModule &loaded) {
      // A module of a destroyed context was unloaded with it.
      if (vendor::contextAlive(*symbols, loaded.context, id))
        inContext(*symbols, loaded.context, current, [&] {
          SDFGRT_CALL(*symbols, ModuleUnload, loaded.module);
        });
    });
  delete record;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module || !name)
    return nullptr;
  uint64_t generation = moduleGeneration.load(std::memory_order_acquire);
  FunctionCacheEntry &entry =
      functionCache[(reinterpret_cast<uintptr_t>(name) >> 3) % 16];
  if (entry.module == module && entry.name == name &&
      entry.generation == generation)
    return entry.function;
  auto *record = static_cast<ModuleRecord *>(module);
  std::lock_guard<std::mutex> lock(record->mutex);
  auto it = record->functions.find(name);
  if (it == record->functions.end()) {
    auto function = std::make_unique<FunctionRecord>(*record, name);
    std::string_view key = function->name;
    it = record->functions.emplace(key, std::move(function)).first;
  }
  entry = {module, name, it->second.get(), generation};
  return entry.function;
}

//===----------------------------------------------------------------------===//
// C ABI: operations on the caller's stream
//===----------------------------------------------------------------------===//

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  onStream(stream, [&](const Symbols &symbols, Stream s, Context context) {
    vendor::Function handle;
    if (resolveFunction(symbols, function, context, handle) &&
        vendor::allowDynamicSharedMemory(symbols, handle, smem))
      SDFGRT_CALL(symbols, LaunchKernel, handle, gridX, gridY, gridZ, blockX,
                  blockY, blockZ, smem, s, params, extra);
  });
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t /*paramsCount*/) {
  const unsigned cluster[3] = {static_cast<unsigned>(clusterX),
                               static_cast<unsigned>(clusterY),
                               static_cast<unsigned>(clusterZ)};
  const unsigned grid[3] = {static_cast<unsigned>(gridX),
                            static_cast<unsigned>(gridY),
                            static_cast<unsigned>(gridZ)};
  const unsigned block[3] = {static_cast<unsigned>(blockX),
                             static_cast<unsigned>(blockY),
                             static_cast<unsigned>(blockZ)};
  if constexpr (!vendor::kHasClusterLaunch) {
    // Refused before any vendor work, like host-shared allocations.
    if (startOperation())
      recordFailure("mgpuLaunchClusterKernel: thread block clusters are not "
                    "supported by %s",
                    vendor::kName);
  } else {
    onStream(stream, [&](const Symbols &symbols, Stream s, Context context) {
      vendor::Function handle;
      if (resolveFunction(symbols, function, context, handle) &&
          vendor::allowDynamicSharedMemory(symbols, handle, smem))
        vendor::launchClusterKernel(symbols, handle, cluster, grid, block, smem,
                                    s, params, extra);
    });
  }
}

void mgpuStreamSynchronize(void *stream) {
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, StreamSynchronize, s);
  });
}

namespace {

/// Host-shared (managed) allocations, which are freed differently: managed
/// memory has no stream-ordered allocator.
struct ManagedAllocations {
  std::mutex mutex;
  std::unordered_set<void *> pointers;
  std::atomic<size_t> count{0};

  void add(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    pointers.insert(ptr);
    count.store(pointers.size(), std::memory_order_release);
  }
  /// Whether `ptr` is one (and forgets it); lock-free while there is none.
  bool remove(void *ptr) {
    if (count.load(std::memory_order_acquire) == 0)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    bool found = pointers.erase(ptr) != 0;
    count.store(pointers.size(), std::memory_order_release);
    return found;
  }
};

ManagedAllocations &managedAllocations() {
  static ManagedAllocations *instance = new ManagedAllocations;
  return *instance;
}

/// Managed allocation and free are not stream operations and a graph
/// capture cannot record them, so they are refused while `stream` is
/// being captured (nothing done, error -1).
bool refusedWhileCapturing(const Symbols &symbols, Stream stream,
                           const char *what) {
  bool capturing = false;
  if (!vendor::isCapturing(symbols, stream, capturing))
    return true;
  if (capturing)
    recordFailure("%s: host-shared (managed) memory is not stream-ordered "
                  "and cannot be allocated or freed while the stream is "
                  "being captured into a graph",
                  what);
  return capturing;
}

/// Frees `ptr`: stream-ordered on `stream`, or, for managed memory, after
/// the host waited for `stream`.
void freeOnStream(const Symbols &symbols, void *ptr, Stream s) {
  if (managedAllocations().remove(ptr)) {
    // Work queued on the stream may still use the memory, and managed
    // memory has no stream-ordered free: the host waits for the stream
    // (never the device) first.
    if (refusedWhileCapturing(symbols, s, "mgpuMemFree")) {
      managedAllocations().add(ptr);
      return;
    }
    if (SDFGRT_CALL(symbols, StreamSynchronize, s))
      SDFGRT_CALL(symbols, MemFree, reinterpret_cast<vendor::DevicePtr>(ptr));
    return;
  }
  SDFGRT_CALL(symbols, MemFreeAsync, reinterpret_cast<vendor::DevicePtr>(ptr),
              s);
}

void freeCallTransients() {
  // The call has failed (its later operations are skipped), but these frees
  // run; a failure of theirs does not replace the call's first one, which
  // stays the reported error.
  if (callTransients.empty())
    return;
  bool failed = state.operationFailed;
  state.operationFailed = true;
  const Symbols *symbols = vendorSymbols();
  for (auto it = callTransients.rbegin();
       symbols && it != callTransients.rend(); ++it) {
    void *ptr = it->pointer;
    inStreamContext(*symbols, it->stream,
                    [&](const Symbols &symbols, Stream s, Context) {
                      freeOnStream(symbols, ptr, s);
                    });
  }
  state.operationFailed = failed;
  callTransients.clear();
}

} // namespace

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  void *result = nullptr;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    if (isHostShared) {
      vendor::DevicePtr ptr{};
      if (!refusedWhileCapturing(symbols, s, "mgpuMemAlloc") &&
          vendor::allocateManaged(symbols, ptr, sizeBytes)) {
        result = reinterpret_cast<void *>(ptr);
        managedAllocations().add(result);
      }
    } else {
      vendor::DevicePtr ptr{};
      if (SDFGRT_CALL(symbols, MemAllocAsync, &ptr, sizeBytes, s))
        result = reinterpret_cast<void *>(ptr);
    }
    if (result)
      trackTransient(result, stream);
  });
  return result;
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    freeOnStream(symbols, ptr, s);
    if (!state.operationFailed)
      untrackTransient(ptr);
  });
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes == 0 || dst == src)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    auto to = reinterpret_cast<uintptr_t>(dst);
    auto from = reinterpret_cast<uintptr_t>(src);
    if (to + sizeBytes <= from || from + sizeBytes <= to) {
      vendor::memcpyAsync(symbols, dst, src, sizeBytes, s);
      return;
    }
    // Overlapping ranges (a shift within one buffer): vendor copies are not
    // memmoves, so copy through a stream-ordered temporary.
    vendor::DevicePtr staging{};
    if (!SDFGRT_CALL(symbols, MemAllocAsync, &staging, sizeBytes, s))
      return;
    void *temporary = reinterpret_cast<void *>(staging);
    if (vendor::memcpyAsync(symbols, temporary, src, sizeBytes, s))
      vendor::memcpyAsync(symbols, dst, temporary, sizeBytes, s);
    SDFGRT_CALL(symbols, MemFreeAsync, staging, s);
  });
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  if (count == 0)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, MemsetD32Async,
                reinterpret_cast<vendor::DevicePtr>(dst), value, count, s);
  });
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  if (count == 0)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, MemsetD16Async,
                reinterpret_cast<vendor::DevicePtr>(dst), value, count, s);
  });
}

void sdfgrtMemset8(void *dst, uint8_t value, size_t count, void *stream) {
  if (count == 0)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, MemsetD8Async,
                reinterpret_cast<vendor::DevicePtr>(dst), value, count, s);
  });
}

//===----------------------------------------------------------------------===//
// C ABI: copies and memsets of strided views
//===----------------------------------------------------------------------===//

namespace {

/// Enqueues the planned rectangles between two views' first elements.
bool copyRectangles(const Symbols &symbols, char *dst, const char *src,
                    const std::vector<Rectangle> &rectangles, Stream stream) {
  for (const Rectangle &r : rectangles) {
    char *to = dst + r.dstOffset;
    char *from = const_cast<char *>(src) + r.srcOffset;
    bool ok = r.height == 1
                  ? vendor::memcpyAsync(symbols, to, from, r.widthBytes, stream)
                  : vendor::memcpy2DAsync(symbols, to, r.dstPitch, from,
                                          r.srcPitch, r.widthBytes, r.height,
                                          stream);
    if (!ok)
      return false;
  }
  return true;
}

/// Copies through a dense stream-ordered temporary, for views that
/// overlap (vendor copies are not memmoves) or a memset of a view that
/// is not dense.
template <typename Fill>
void throughTemporary(const Symbols &symbols, size_t bytes, Stream stream,
                      Fill &&fill) {
  vendor::DevicePtr staging{};
  if (!SDFGRT_CALL(symbols, MemAllocAsync, &staging, bytes, stream))
    return;
  fill(reinterpret_cast<char *>(staging));
  // Freed even after a failure: the error model frees what a call took.
  SDFGRT_CALL(symbols, MemFreeAsync, staging, stream);
}

/// Sets `count` dense elements of `elementSize` bytes to `value`. No
/// vendor sets 64-bit elements: one element is set as two 32-bit words,
/// then copied onto the next ones, doubling the set part each time
/// (log2(count) copies, all stream-ordered and capturable).
bool fillDense(const Symbols &symbols, char *dst, int64_t elementSize,
               uint64_t value, size_t count, Stream stream) {
  auto ptr = [](char *p) { return reinterpret_cast<vendor::DevicePtr>(p); };
  switch (elementSize) {
  case 1:
    return SDFGRT_CALL(symbols, MemsetD8Async, ptr(dst),
                       static_cast<uint8_t>(value), count, stream);
  case 2:
    return SDFGRT_CALL(symbols, MemsetD16Async, ptr(dst),
                       static_cast<uint16_t>(value), count, stream);
  case 4:
    return SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst),
                       static_cast<uint32_t>(value), count, stream);
  default:
    break;
  }
  auto low = static_cast<uint32_t>(value), high = static_cast<uint32_t>(value >> 32);
  if (low == high)
    return SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst), low, 2 * count,
                       stream);
  if (!SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst), low, 1, stream) ||
      !SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst + 4), high, 1, stream))
    return false;
  for (size_t done = 1; done < count;) {
    size_t step = std::min(done, count - done);
    if (!vendor::memcpyAsync(symbols, dst + done * 8, dst, step * 8, stream))
      return false;
    done += step;
  }
  return true;
}

} // namespace

void sdfgrtMemcpyStrided(int64_t rank, void *dstDescriptor,
                         void *srcDescriptor, int64_t elementSize,
                         void *stream) {
  View dst = viewOf(dstDescriptor, rank, elementSize);
  View src = viewOf(srcDescriptor, rank, elementSize);
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    std::vector<Rectangle> rectangles;
    if (const char *error = planStridedCopy(rank, dst.sizes, dst.strides,
                                            src.strides, elementSize,
                                            rectangles)) {
      recordFailure("sdfgrtMemcpyStrided: %s", error);
      return;
    }
    if (rectangles.empty() ||
        (dst.first == src.first &&
         std::equal(dst.strides, dst.strides + rank, src.strides)))
      return;
    size_t dstExtent = viewExtent(rank, dst.sizes, dst.strides, elementSize);
    size_t srcExtent = viewExtent(rank, dst.sizes, src.strides, elementSize);
    if (dst.first + dstExtent <= src.first ||
        src.first + srcExtent <= dst.first) {
      copyRectangles(symbols, dst.first, src.first, rectangles, s);
      return;
    }
    size_t bytes = elementCount(rank, dst.sizes) * elementSize;
    throughTemporary(symbols, bytes, s, [&](char *staging) {
      std::vector<Rectangle> in, out;
      planStridedCopy(rank, dst.sizes, nullptr, src.strides, elementSize, in);
      planStridedCopy(rank, dst.sizes, dst.strides, nullptr, elementSize, out);
      copyRectangles(symbols, staging, src.first, in, s) &&
          copyRectangles(symbols, dst.first, staging, out, s);
    });
  });
}

void sdfgrtMemsetStrided(int64_t rank, void *dstDescriptor,
                         int64_t elementSize, uint64_t value, void *stream) {
  View dst = viewOf(dstDescriptor, rank, elementSize);
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    if (elementSize != 1 && elementSize != 2 && elementSize != 4 &&
        elementSize != 8) {
      recordFailure("sdfgrtMemsetStrided: elements of %lld bytes cannot be "
                    "set (1, 2, 4 or 8)",
                    static_cast<long long>(elementSize));
      return;
    }
    std::vector<Rectangle> rectangles;
    if (const char *error = planStridedCopy(rank, dst.sizes, dst.strides,
                                            nullptr, elementSize,
                                            rectangles)) {
      recordFailure("sdfgrtMemsetStrided: %s", error);
      return;
    }
    size_t count = elementCount(rank, dst.sizes);
    if (rectangles.empty())
      return;
    if (rectangles.size() == 1 && rectangles[0].height == 1) {
      fillDense(symbols, dst.first, elementSize, value, count, s);
      return;
    }
    throughTemporary(symbols, count * elementSize, s, [&](char *staging) {
      fillDense(symbols, staging, elementSize, value, count, s) &&
          copyRectangles(symbols, dst.first, staging, rectangles, s);
    });
  });
}

//===----------------------------------------------------------------------===//
// C ABI: host memory and the default device
//===----------------------------------------------------------------------===//

namespace {

/// Page-locks (or releases) host memory for every context. Registration is
/// not stream-ordered and is a call that a graph capture in global or
/// thread-local mode forbids (it would invalidate the capture), so it is
/// refused while one is in progress: the legacy default stream reports
/// such a capture (vendor::isCapturing).
void registerHostMemory(const char *entry, void *ptr, size_t sizeBytes,
                        bool registering) {
  onStream(nullptr, [&](const Symbols &symbols, Stream s, Context) {
    bool capturing = false;
    if (!vendor::isCapturing(symbols, s, capturing))
      return;
    if (capturing) {
      recordFailure("%s: host memory cannot be registered or unregistered "
                    "while a stream is being captured into a graph; do it "
                    "before the capture begins",
                    entry);
      return;
    }
    if (registering)
      vendor::registerHost(symbols, ptr, sizeBytes);
    else
      SDFGRT_CALL(symbols, MemHostUnregister, ptr);
  });
}

/// The bytes of a memref that host registration covers: from its first
/// element to one past its last.
void memRefRange(int64_t rank, void *descriptor, int64_t elementSize,
                 void *&first, size_t &bytes) {
  View view = viewOf(descriptor, rank, elementSize);
  first = view.first;
  bytes = viewExtent(rank, view.sizes, view.strides, elementSize);
}

} // namespace

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (ptr && sizeBytes)
    registerHostMemory("mgpuMemHostRegister", ptr, sizeBytes, true);
}

void mgpuMemHostUnregister(void *ptr) {
  if (ptr)
    registerHostMemory("mgpuMemHostUnregister", ptr, 0, false);
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  void *first;
  size_t bytes;
  memRefRange(rank, descriptor, elementSizeBytes, first, bytes);
  if (first && bytes)
    registerHostMemory("mgpuMemHostRegisterMemRef", first, bytes, true);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  void *first;
  size_t bytes;
  memRefRange(rank, descriptor, elementSizeBytes, first, bytes);
  if (first && bytes)
    registerHostMemory("mgpuMemHostUnregisterMemRef", first, 0, false);
}

namespace {

/// Device copies of TMA descriptors, one per context and descriptor
/// contents: programs create their descriptors at every call, and the same
/// descriptor must neither allocate nor leak again. Never freed (as many
/// as distinct views a process describes).
struct TensorMapCache {
  std::mutex mutex;
  std::map<std::pair<uint64_t, std::string>, void *> copies;
};

TensorMapCache &tensorMaps() {
  static TensorMapCache *instance = new TensorMapCache;
  return *instance;
}

} // namespace

void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *box) {
  void *result = nullptr;
  if constexpr (!vendor::kHasTensorMaps) {
    if (startOperation())
      recordFailure("mgpuTensorMapEncodeTiledMemref: TMA descriptors "
                    "(nvgpu.tma.create.descriptor) are not supported by %s",
                    vendor::kName);
  } else {
    onStream(nullptr, [&](const Symbols &symbols, Stream s, Context context) {
      // The device copy is a synchronous allocation and copy, which a graph
      // capture forbids.
      bool capturing = false;
      if (!vendor::isCapturing(symbols, s, capturing))
        return;
      if (capturing) {
        recordFailure("mgpuTensorMapEncodeTiledMemref: a TMA descriptor "
                      "cannot be created while a stream is being captured "
                      "into a graph; create it before the capture begins");
        return;
      }
      vendor::TensorMap map;
      std::memset(&map, 0, sizeof(map));
      ContextRef ref;
      if (!identify(symbols, context, ref) ||
          !vendor::encodeTensorMap(symbols, map, rank, descriptor, dataType,
                                   interleave, swizzle, l2Promotion, oobFill,
                                   box))
        return;
      TensorMapCache &cache = tensorMaps();
      std::lock_guard<std::mutex> lock(cache.mutex);
      auto key = std::make_pair(
          ref.id, std::string(reinterpret_cast<const char *>(&map),
                              sizeof(map)));
      auto it = cache.copies.find(key);
      if (it != cache.copies.end()) {
        result = it->second;
        return;
      }
      if (vendor::copyTensorMapToDevice(symbols, map, result))
        cache.copies.emplace(std::move(key), result);
    });
  }
  return result;
}

void mgpuSetDefaultDevice(int32_t device) {
  const Symbols *symbols = startOperation() ? vendorSymbols() : nullptr;
  if (!symbols)
    return;
  if (!vendor::setDefaultDevice(*symbols, device))
    return;
  Library &lib = library();
  std::lock_guard<std::mutex> lock(lib.mutex);
  if (lib.defaultDevice != device) {
    lib.defaultDevice = device;
    lib.defaultContext = kNoContext;
  }
}

//===----------------------------------------------------------------------===//
// C ABI: stream ordering and devices (host API)
//===----------------------------------------------------------------------===//

int32_t sdfgrtStreamWaitStream(void *waiting, void *waitedOn) {
  if (waiting == waitedOn)
    return 0;
  bool started = startHostOperation();
  const Symbols *symbols = started ? vendorSymbols() : nullptr;
  if (!symbols)
    return operationStatus(started);
  vendor::Event event{};
  ContextRef eventContext{};
  bool acquired = false, recorded = false;
  inStreamContext(*symbols, waitedOn,
                  [&](const Symbols &symbols, Stream s, Context context) {
                    acquired = identify(symbols, context, eventContext) &&
                               eventPool().acquire(symbols, eventContext,
                                                   EventKind::Ordering, event);
                    recorded =
                        acquired && SDFGRT_CALL(symbols, EventRecord, event, s);
                  });
  // The wait takes the event's state now: the event can be reused at once.
  if (recorded)
    inStreamContext(*symbols, waiting,
                    [&](const Symbols &symbols, Stream s, Context) {
                      SDFGRT_CALL(symbols, StreamWaitEvent, s, event, 0);
                    });
  if (acquired)
    eventPool().release(*symbols, eventContext, EventKind::Ordering, event,
                        /*mayBePending=*/true);
  return operationStatus(started);
}

int32_t sdfgrtStreamDevice(void *stream, int32_t *device) {
  bool started = startHostOperation();
  const Symbols *symbols = started ? vendorSymbols() : nullptr;
  int32_t found = -1;
  if (symbols)
    inStreamContext(*symbols, stream,
                    [&](const Symbols &symbols, Stream, Context context) {
                      vendor::contextDevice(symbols, context, found);
                    });
  int32_t status = operationStatus(started);
  if (device)
    *device = status == 0 ? found : -1;
  return status;
}

void sdfgrtCheckDevicePointer(const void *pointer, void *stream,
                              int32_t argument) {
  if (!pointer)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream, Context context) {
    int32_t streamDevice = -1, dataDevice = -1;
    bool isDevice = false;
    if (!vendor::contextDevice(symbols, context, streamDevice) ||
        !vendor::pointerDevice(symbols, pointer, isDevice, dataDevice))
      return;
    if (isDevice && dataDevice != streamDevice)
      recordFailure("argument %d is memory of device %d, but the stream "
                    "belongs to device %d",
                    argument, dataDevice, streamDevice);
  });
}

//===----------------------------------------------------------------------===//
// C ABI: timers
//===----------------------------------------------------------------------===//

void *sdfgrtTimerBegin(const char *program) {
  // Shared by every call that cannot be timed; never written.
  static TimedCall *inert = new TimedCall;
  if (!startOperation())
    return inert;
  if (!program) {
    recordFailure("sdfgrtTimerBegin: no program name");
    return inert;
  }
  ProgramTimer &timer = timers().get(program);
  std::unique_ptr<TimedCall> call = timers().newCall();
  call->program = &timer;
  {
    std::lock_guard<std::mutex> lock(timer.closedMutex);
    timer.known = true;
    call->generation = timer.generation;
  }
  std::unique_lock<std::mutex> lock(timer.resolveMutex, std::try_to_lock);
  if (lock.owns_lock())
    resolveInBegin(timer);
  return call.release();
}

void sdfgrtTimerRecordBegin(void *handle, void *stream) {
  auto *call = static_cast<TimedCall *>(handle);
  if (!call || !call->program || call->untimed ||
      call->find(static_cast<Stream>(stream)))
    return;
  bool recorded = false;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context context) {
    bool capturing = false;
    vendor::Event event{};
    ContextRef ref;
    if (!vendor::isCapturing(symbols, s, capturing) || capturing ||
        !identify(symbols, context, ref) ||
        !eventPool().acquire(symbols, ref, EventKind::Timing, event))
      return;
    if (!SDFGRT_CALL(symbols, EventRecord, event, s)) {
      eventPool().release(symbols, ref, EventKind::Timing, event,
                          /*mayBePending=*/false);
      return;
    }
    call->streams.push_back({s, ref, event, {}, false});
    recorded = true;
  });
  // Captured, skipped after an earlier failure, or failed: not timed.
  if (!recorded)
    call->untimed = true;
}

void sdfgrtTimerRecordEnd(void *handle, void *stream) {
  auto *call = static_cast<TimedCall *>(handle);
  if (!call || !call->program || call->untimed)
    return;
  TimedStream *timed = call->find(static_cast<Stream>(stream));
  if (!timed) {
    call->untimed = true;
    if (startOperation())
      recordFailure("sdfgrtTimerRecordEnd: stream %p got no begin event in "
                    "this call",
                    stream);
    return;
  }
  bool recorded = false;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    bool capturing = false;
    if (!vendor::isCapturing(symbols, s, capturing) || capturing)
      return;
    if (!timed->hasEnd) {
      if (!eventPool().acquire(symbols, timed->context, EventKind::Timing,
                               timed->end))
        return;
      timed->hasEnd = true;
    }
    recorded = SDFGRT_CALL(symbols, EventRecord, timed->end, s);
  });
  if (!recorded)
    call->untimed = true;
}

void sdfgrtTimerEnd(void *handle) {
  auto *raw = static_cast<TimedCall *>(handle);
  if (!raw || !raw->program)
    return;
  std::unique_ptr<TimedCall> call(raw);
  bool timed = !call->untimed && !call->streams.empty();
  for (const TimedStream &stream : call->streams)
    timed = timed && stream.hasEnd;
  if (timed) {
    ProgramTimer &timer = *call->program;
    std::lock_guard<std::mutex> lock(timer.closedMutex);
    if (call->generation == timer.generation) {
      timer.closed.push_back(std::move(call));
      return;
    }
  }
  releaseCall(std::move(call), /*mayBePending=*/true);
}

int32_t sdfgrtTimerQuery(const char *program, int32_t wait,
                         double *milliseconds, int64_t *calls,
                         int64_t *pending) {
  double totalMilliseconds = 0;
  int64_t resolved = 0, unresolved = 0;
  bool started = startHostOperation();
  ProgramTimer *timer = started && program ? timers().find(program) : nullptr;
  bool known = false;
  if (timer) {
    std::lock_guard<std::mutex> lock(timer->closedMutex);
    known = timer->known;
  }
  if (known) {
    std::lock_guard<std::mutex> resolveLock(timer->resolveMutex);
    if (timer->failureCode) {
      recordKept(timer->failureCode, timer->failure);
      timer->failureCode = 0;
    }
    resolve(*timer, wait != 0);
    totalMilliseconds = timer->milliseconds;
    resolved = timer->calls;
    std::lock_guard<std::mutex> closedLock(timer->closedMutex);
    unresolved = int64_t(timer->pending.size() + timer->closed.size());
  } else if (started && !program) {
    recordFailure("sdfgrtTimerQuery: no program name");
  } else if (started) {
    recordFailure("sdfgrtTimerQuery: no timed call of program \"%s\" began "
                  "since the start or the last sdfgrtTimerReset",
                  program);
  }
  if (milliseconds)
    *milliseconds = totalMilliseconds;
  if (calls)
    *calls = resolved;
  if (pending)
    *pending = unresolved;
  return operationStatus(started);
}

void sdfgrtTimerReset(const char *program) {
  std::vector<ProgramTimer *> reset;
  if (!program)
    reset = timers().all();
  else if (ProgramTimer *timer = timers().find(program))
    reset.push_back(timer);
  for (ProgramTimer *timer : reset) {
    std::deque<std::unique_ptr<TimedCall>> dropped;
    {
      std::lock_guard<std::mutex> resolveLock(timer->resolveMutex);
      std::lock_guard<std::mutex> closedLock(timer->closedMutex);
      dropped.swap(timer->pending);
      for (std::unique_ptr<TimedCall> &call : timer->closed)
        dropped.push_back(std::move(call));
      timer->closed.clear();
      timer->milliseconds = 0;
      timer->calls = 0;
      timer->failureCode = 0;
      timer->known = false;
      ++timer->generation;
    }
    for (std::unique_ptr<TimedCall> &call : dropped)
      releaseCall(std::move(call), /*mayBePending=*/true);
  }
}

//===----------------------------------------------------------------------===//
// Test hooks
//===----------------------------------------------------------------------===//

Counters sdfgrt::countersForTesting() { return state.counters; }

void sdfgrt::resetForTesting() {
  Library &lib = library();
  {
    std::lock_guard<std::mutex> lock(lib.mutex);
    lib.state.store(LibraryState::Unopened, std::memory_order_release);
    lib.symbols = Symbols();
    lib.defaultContext = kNoContext;
    lib.defaultDevice = 0;
    lib.failureCode = 0;
    lib.failure.clear();
  }
  loadedModuleCount.store(0);
  moduleGeneration.fetch_add(1);
  timers().forget();
  eventPool().forget();
  resetSparseForTesting();
  state = ThreadState();
}

const char *sdfgrt::libraryEnvironmentVariableForTesting() {
  return vendor::kLibraryEnvironmentVariable;
}

std::vector<const char *> sdfgrt::libraryNamesForTesting() {
  return {std::begin(vendor::kLibraryNames), std::end(vendor::kLibraryNames)};
}
