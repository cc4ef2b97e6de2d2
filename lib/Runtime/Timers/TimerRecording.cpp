//===- TimerRecording.cpp - Events of a timed program call ------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The timer entries that run inside a program call (sdfgrtTimerBegin,
// sdfgrtTimerRecordBegin, sdfgrtTimerRecordEnd, sdfgrtTimerEnd): they
// record a begin and an end event on each stream the call runs on and
// hand the closed call to its program's timer, to be resolved later by a
// query (TimerQueries.cpp). Separate from the queries because these run
// inside program calls and never wait: they hold a timer's lock for a few
// instructions, resolve only what has already completed and only if no
// query is resolving, and keep a failure of that resolution for the next
// query instead of failing the program call.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Timers/Timers.h"

#include <cstring>
#include <memory>
#include <mutex>

using namespace sdfgrt;

namespace {

/// Resolves for sdfgrtTimerBegin. A failure there belongs to the timer, not
/// to the program call that is starting: it is kept for the next
/// sdfgrtTimerQuery, and the thread's error state is left as it was.
void resolveInBegin(ProgramTimer &timer) {
  int32_t callError = threadState.callError, lastError = threadState.lastError;
  char lastErrorText[sizeof(threadState.lastErrorText)];
  memcpy(lastErrorText, threadState.lastErrorText, sizeof(lastErrorText));
  resolveClosedCalls(timer, /*wait=*/false);
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

//===----------------------------------------------------------------------===//
// C ABI: recording a timed call
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
  releaseTimedCall(std::move(call), /*mayBePending=*/true);
}
