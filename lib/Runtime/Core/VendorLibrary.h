//===- VendorLibrary.h - The vendor library and contexts --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The vendor library, opened at the first GPU operation and never linked
// (VendorLibrary.cpp): its symbol table, the contexts that per-context
// caches key by, the templates that run an entry point in the context of
// the caller's stream (onStream), and the queries written once over the
// vendor's primitives (capture state, pointer attributes).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CORE_VENDORLIBRARY_H
#define SDFGSTREAM_LIB_RUNTIME_CORE_VENDORLIBRARY_H

#include "Core/CallState.h"

namespace sdfgrt {

struct VendorLibrary : LazyLibrary<Symbols> {
  // Guarded by `mutex`, like the rest of the library.
  Context defaultContext = kNoContext;
  // The device whose context default-stream work uses on a thread without
  // one (mgpuSetDefaultDevice).
  int32_t defaultDevice = 0;
};

/// The process's vendor library; never destroyed: generated code unloads
/// its modules from global destructors, which may run after this library's
/// own.
inline VendorLibrary &vendorLibrary() {
  static VendorLibrary *instance = new VendorLibrary;
  return *instance;
}

/// Opens the vendor library, fills the symbol table and initializes the
/// API, once per process (under the library's lock). The library stays
/// loaded.
bool openVendorLibrary(VendorLibrary &lib);

/// The vendor symbol table, opening the library at the first operation;
/// null (with the reason recorded) if the library cannot be used.
inline const Symbols *vendorSymbols() {
  VendorLibrary &lib = vendorLibrary();
  return lib.get([&] { return openVendorLibrary(lib); });
}

/// A context as the per-context caches know it: its handle, to make it
/// current, and the driver's id of it (vendor::contextId), so that a context
/// created with the handle of a destroyed one finds none of its entries.
struct ContextRef {
  Context handle;
  uint64_t id;
};

bool identify(const Symbols &symbols, Context context, ContextRef &ref);

/// Chooses (once) the context of default-stream work on a thread that has
/// no current context; see vendor::defaultContext.
bool chooseDefaultContext(const Symbols &symbols, Context &context);

/// Runs `body` with `context` current; false if it could not be made
/// current (body not run). The caller's thread normally has the stream's
/// context current already; only otherwise is it switched, and restored
/// afterwards.
template <typename Body>
bool inContext(const Symbols &symbols, Context context, Context current,
               Body &&body) {
  if (context == current) {
    body();
    return true;
  }
  if (!vendor::enterContext(symbols, context))
    return false;
  body();
  vendor::leaveContext(symbols, current);
  return true;
}

/// Runs `body(symbols, stream, context)` in the context of `rawStream`;
/// false (the failure recorded) if its context could not be found or made
/// current.
template <typename Body>
bool inStreamContext(const Symbols &symbols, void *rawStream, Body &&body) {
  Stream stream = static_cast<Stream>(rawStream);
  Context current = kNoContext, context = kNoContext;
  if (!vendor::currentContext(symbols, current))
    return false;
  // 0 (legacy default stream), 1 (CU_STREAM_LEGACY) and 2
  // (CU_STREAM_PER_THREAD, hipStreamPerThread) are handles of the current
  // context's default streams; they are passed on unchanged.
  if (reinterpret_cast<uintptr_t>(rawStream) <= 2) {
    context = current;
  } else if (threadState.callDepth > 0 &&
             rawStream == threadState.callStream) {
    context = threadState.callStreamContext;
  } else {
    if (!vendor::streamContext(symbols, stream, context))
      return false;
    if (threadState.callDepth > 0) {
      threadState.callStream = rawStream;
      threadState.callStreamContext = context;
    }
  }
  if (context == kNoContext && !chooseDefaultContext(symbols, context))
    return false;
  return inContext(symbols, context, current,
                   [&] { body(symbols, stream, context); });
}

/// Runs `body(symbols, stream, context)` for an operation on `rawStream`, in
/// the stream's context, unless the operation is skipped or the vendor
/// library is unusable; true if it ran.
template <typename Body> bool onStream(void *rawStream, Body &&body) {
  const Symbols *symbols = startOperation() ? vendorSymbols() : nullptr;
  return symbols && inStreamContext(*symbols, rawStream, body);
}

/// Whether `stream` is being captured into a graph. The legacy default
/// stream cannot be used while another stream captures in global or
/// thread-local mode (vendor::kStreamCaptureImplicit): that counts as
/// capturing, not as a failure; any other failure of the query is recorded
/// (false).
bool isCapturing(const Symbols &symbols, Stream stream, bool &capturing);

/// Whether an operation that a graph capture cannot record must be refused
/// on `stream`: it is being captured (the refusal `format`, printf-style,
/// is recorded as the failure) or its capture state cannot be read (that
/// failure is recorded).
bool refusedWhileCapturing(const Symbols &symbols, Stream stream,
                           const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// The driver's process-wide id of the allocation `pointer` is in (memory
/// it allocated or registered); 0 for memory it does not know, or when it
/// cannot tell. Records no failure.
uint64_t pointerBufferId(const Symbols &symbols, const void *pointer);

/// Whether `pointer` is device memory (not managed, not host memory) and of
/// which device. A pointer the driver does not know is not device memory
/// and not a failure (CUDA answers it with default attributes, HIP with
/// vendor::kUnknownPointer); any other failure of the query is recorded
/// (false).
bool pointerDevice(const Symbols &symbols, const void *pointer, bool &isDevice,
                   int32_t &device);

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CORE_VENDORLIBRARY_H
