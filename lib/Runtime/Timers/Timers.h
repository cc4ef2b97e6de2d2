//===- Timers.h - What the timer files share --------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The timer ABI (sdfgrtTimer*) that sdfg-instrument-timers emits calls to: each
// timed program call records an event at its begin and end on every stream
// it runs on; the calls are resolved into per-program totals later, when
// their events have completed, without ever synchronizing a stream,
// context or device in a program call. Three files share the timed calls
// and per-program totals declared here: the registry that owns them
// (TimerRegistry.cpp), the entries that record a call inside a program
// call (TimerRecording.cpp) and the host's queries, which resolve the
// calls into totals (TimerQueries.cpp). Only for those files.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_TIMERS_TIMERS_H
#define SDFGSTREAM_LIB_RUNTIME_TIMERS_TIMERS_H

#include "Core/Events.h"
#include "Core/VendorLibrary.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace sdfgrt {

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

/// Every program's timer by name, and recycled call handles
/// (TimerRegistry.cpp).
class TimerRegistry {
public:
  /// The timer of `program`, created at its first call.
  ProgramTimer &get(const char *program);
  /// The timer of `program`; null if it was never timed.
  ProgramTimer *find(const char *program);
  /// Every timer; they live as long as the registry.
  std::vector<ProgramTimer *> all();

  /// A call handle with no program and no streams.
  std::unique_ptr<TimedCall> newCall();
  void recycle(std::unique_ptr<TimedCall> call);

  /// Forgets every program; no call may be in flight.
  void forget();

private:
  // More calls of all programs in flight at once are rare.
  static constexpr size_t kMaxIdleCalls = 64;

  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<ProgramTimer>> programs;
  std::vector<std::unique_ptr<TimedCall>> idleCalls;
};

/// The process's registry (TimerRegistry.cpp).
TimerRegistry &timers();

/// Gives the call's events back to the pool and the call to the registry
/// (TimerRegistry.cpp).
void releaseTimedCall(std::unique_ptr<TimedCall> call, bool mayBePending);

/// Resolves the closed calls of `timer`, oldest first, up to the first one
/// still running; with `wait`, first waits for their end events. The caller
/// holds `timer.resolveMutex` (TimerQueries.cpp).
void resolveClosedCalls(ProgramTimer &timer, bool wait);

/// Forgets every program's timer; no timed call may be in flight.
void forgetTimersForTesting();

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_TIMERS_TIMERS_H
