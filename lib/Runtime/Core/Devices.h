//===- Devices.h - Stream ordering across contexts --------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Ordering one stream after another, each in its own context, through an
// ordering event (Devices.cpp, with the device and pointer checks of the
// host API).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CORE_DEVICES_H
#define SDFGSTREAM_LIB_RUNTIME_CORE_DEVICES_H

#include "Core/VendorLibrary.h"

namespace sdfgrt {

/// Orders each of the `count` streams `waiting` after the work enqueued on
/// `waitedOn` so far: one ordering event recorded on `waitedOn` in its
/// context, waited for by each in its own. False (recorded) at the first
/// failure, after which no further stream waits.
bool orderAfter(const Symbols &symbols, void *waitedOn, void *const *waiting,
                size_t count);

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CORE_DEVICES_H
