//===- TimerRegistry.cpp - Program timers and call handles ------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Who owns the timer state (Timers.h): every program's timer by
// name, and the handles of timed calls, recycled from one call to the
// next. Separate from the entries because both the recording
// (TimerRecording.cpp) and the queries (TimerQueries.cpp) find timers in
// it and give calls back to it, with their events.
//
//===----------------------------------------------------------------------===//

#include "Timers/Timers.h"

using namespace sdfgrt;

ProgramTimer &TimerRegistry::get(const char *program) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<ProgramTimer> &timer = programs[program];
  if (!timer)
    timer = std::make_unique<ProgramTimer>();
  return *timer;
}

ProgramTimer *TimerRegistry::find(const char *program) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = programs.find(program);
  return it == programs.end() ? nullptr : it->second.get();
}

std::vector<ProgramTimer *> TimerRegistry::all() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<ProgramTimer *> result;
  for (auto &entry : programs)
    result.push_back(entry.second.get());
  return result;
}

std::unique_ptr<TimedCall> TimerRegistry::newCall() {
  std::lock_guard<std::mutex> lock(mutex);
  if (idleCalls.empty())
    return std::make_unique<TimedCall>();
  std::unique_ptr<TimedCall> call = std::move(idleCalls.back());
  idleCalls.pop_back();
  return call;
}

void TimerRegistry::recycle(std::unique_ptr<TimedCall> call) {
  call->program = nullptr;
  call->untimed = false;
  call->streams.clear();
  std::lock_guard<std::mutex> lock(mutex);
  if (idleCalls.size() < kMaxIdleCalls)
    idleCalls.push_back(std::move(call));
}

void TimerRegistry::forget() {
  std::lock_guard<std::mutex> lock(mutex);
  programs.clear();
}

// Never destroyed, like the library: handles may outlive static destructors.
TimerRegistry &sdfgrt::timers() {
  static TimerRegistry *instance = new TimerRegistry;
  return *instance;
}

// The call's events exist only if the vendor library was opened.
void sdfgrt::releaseTimedCall(std::unique_ptr<TimedCall> call,
                              bool mayBePending) {
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

void sdfgrt::forgetTimersForTesting() { timers().forget(); }
