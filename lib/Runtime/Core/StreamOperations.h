//===- StreamOperations.h - Dense operations on a stream --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the copies, memsets and allocations on the caller's stream
// (StreamOperations.cpp) share with the strided operations and graph mode:
// the dense memset of any element size.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CORE_STREAMOPERATIONS_H
#define SDFGSTREAM_LIB_RUNTIME_CORE_STREAMOPERATIONS_H

#include "Core/VendorLibrary.h"

namespace sdfgrt {

/// Sets `count` dense elements of `elementSize` bytes (1, 2, 4 or 8) at
/// `dst` to `value`, on `stream`.
bool fillDense(const Symbols &symbols, char *dst, int64_t elementSize,
               uint64_t value, size_t count, Stream stream);

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CORE_STREAMOPERATIONS_H
