//===- Events.h - The per-context event pool --------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Idle events kept per context and kind (Events.cpp), so that timed calls,
// stream ordering and graph mode create no event in steady state.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CORE_EVENTS_H
#define SDFGSTREAM_LIB_RUNTIME_CORE_EVENTS_H

#include "Core/VendorLibrary.h"

namespace sdfgrt {

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

/// Forgets the idle events without destroying them (the test's fake driver
/// forgets them too).
void forgetEventsForTesting();

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CORE_EVENTS_H
