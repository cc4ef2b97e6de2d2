//===- TimerQueries.cpp - Program totals from timed calls -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// How the closed calls of a program's timer (Timers.h) become its
// totals: once a call's end events have completed, its span is measured
// from its events and added in. sdfgrtTimerQuery, which the host calls
// between program calls, resolves and reports the totals, waiting for the
// events if asked (event synchronization only); sdfgrtTimerReset drops
// them. Separate from the recording (TimerRecording.cpp), which never
// waits and reaches the resolution only opportunistically.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Timers/Timers.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

using namespace sdfgrt;

namespace {

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

} // namespace

// Calls complete mostly in order; those behind a running one are resolved
// next time.
void sdfgrt::resolveClosedCalls(ProgramTimer &timer, bool wait) {
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
    releaseTimedCall(std::move(timer.pending.front()),
                     /*mayBePending=*/progress != Completion::Complete);
    timer.pending.pop_front();
  }
}

//===----------------------------------------------------------------------===//
// C ABI: timer queries (host work between program calls)
//===----------------------------------------------------------------------===//

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
    resolveClosedCalls(*timer, wait != 0);
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
      releaseTimedCall(std::move(call), /*mayBePending=*/true);
  }
}
