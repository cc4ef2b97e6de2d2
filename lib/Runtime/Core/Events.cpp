//===- Events.cpp - The pool of idle events ---------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Events that timers and stream ordering (sdfgrtStreamWaitStream) record,
// kept idle per context and kind for reuse, so that neither creates an
// event in steady state.
//
//===----------------------------------------------------------------------===//

#include "Core/Events.h"

#include <mutex>
#include <vector>

using namespace sdfgrt;

namespace {

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

} // namespace

bool sdfgrt::acquireEvent(const Symbols &symbols, const ContextRef &context,
                          EventKind kind, vendor::Event &event) {
  return eventPool().acquire(symbols, context, kind, event);
}

void sdfgrt::releaseEvent(const Symbols &symbols, const ContextRef &context,
                          EventKind kind, vendor::Event event,
                          bool mayBePending) {
  eventPool().release(symbols, context, kind, event, mayBePending);
}

void sdfgrt::forgetEventsForTesting() { eventPool().forget(); }
