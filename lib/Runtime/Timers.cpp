//===- Timers.cpp - Timers of program calls ---------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The timer ABI (sdfgrtTimer*) that instrument-timers emits calls to: each
// timed program call records an event at its begin and end on every stream
// it runs on; the calls are resolved into per-program totals later, when
// their events have completed, without ever synchronizing a stream,
// context or device in a program call.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "RuntimeShared.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace sdfgrt;

namespace {

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
  const Symbols &symbols = vendorLibrary().symbols;
  for (TimedStream &timed : call->streams) {
    releaseEvent(symbols, timed.context, EventKind::Timing, timed.begin,
                 mayBePending);
    if (timed.hasEnd)
      releaseEvent(symbols, timed.context, EventKind::Timing, timed.end,
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
  int32_t callError = threadState.callError, lastError = threadState.lastError;
  char lastErrorText[sizeof(threadState.lastErrorText)];
  memcpy(lastErrorText, threadState.lastErrorText, sizeof(lastErrorText));
  resolve(timer, /*wait=*/false);
  if (!threadState.operationFailed)
    return;
  if (!timer.failureCode) {
    timer.failureCode = threadState.lastError;
    timer.failure = threadState.lastErrorText;
  }
  threadState.operationFailed = false;
  threadState.callError = callError;
  threadState.lastError = lastError;
  memcpy(threadState.lastErrorText, lastErrorText, sizeof(lastErrorText));
}

} // namespace

void sdfgrt::forgetTimersForTesting() { timers().forget(); }

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
    if (!isCapturing(symbols, s, capturing) || capturing ||
        !identify(symbols, context, ref) ||
        !acquireEvent(symbols, ref, EventKind::Timing, event))
      return;
    if (!SDFGRT_CALL(symbols, EventRecord, event, s)) {
      releaseEvent(symbols, ref, EventKind::Timing, event,
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
    if (!isCapturing(symbols, s, capturing) || capturing)
      return;
    if (!timed->hasEnd) {
      if (!acquireEvent(symbols, timed->context, EventKind::Timing, timed->end))
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
