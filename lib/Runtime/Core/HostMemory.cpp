//===- HostMemory.cpp - Registration of host memory -------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// mgpuMemHostRegister* and mgpuMemHostUnregister*: host memory page-locked
// (or released) for every context, by pointer and size or by the bytes a
// memref view covers; refused while a graph capture forbids it.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/StridedCopy.h"
#include "Core/VendorLibrary.h"

using namespace sdfgrt;

namespace {

/// Page-locks (or releases) host memory for every context. Registration is
/// not stream-ordered and is a call that a graph capture in global or
/// thread-local mode forbids (it would invalidate the capture), so it is
/// refused while one is in progress: the legacy default stream reports
/// such a capture (isCapturing).
void registerHostMemory(const char *entry, void *ptr, size_t sizeBytes,
                        bool registering) {
  onStream(nullptr, [&](const Symbols &symbols, Stream s, Context) {
    if (refusedWhileCapturing(
            symbols, s,
            "%s: host memory cannot be registered or unregistered while a "
            "stream is being captured into a graph; do it before the "
            "capture begins",
            entry))
      return;
    if (registering)
      vendor::registerHost(symbols, ptr, sizeBytes);
    else
      SDFGRT_CALL(symbols, MemHostUnregister, ptr);
  });
}

/// Registers (or releases) the bytes of a memref: from its first element
/// to one past its last; nothing for an empty one.
void registerMemRef(const char *entry, int64_t rank, void *descriptor,
                    int64_t elementSize, bool registering) {
  View view = viewOf(descriptor, rank, elementSize);
  size_t bytes = viewExtent(rank, view.sizes, view.strides, elementSize);
  if (view.first && bytes)
    registerHostMemory(entry, view.first, registering ? bytes : 0, registering);
}

} // namespace

//===----------------------------------------------------------------------===//
// C ABI: host memory
//===----------------------------------------------------------------------===//

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
  registerMemRef("mgpuMemHostRegisterMemRef", rank, descriptor,
                 elementSizeBytes, true);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  registerMemRef("mgpuMemHostUnregisterMemRef", rank, descriptor,
                 elementSizeBytes, false);
}
