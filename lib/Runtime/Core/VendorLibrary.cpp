//===- VendorLibrary.cpp - The vendor library and its contexts --*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The vendor library (libcuda, libamdhip64), opened at the first GPU
// operation and never linked; every call through its symbol table checked
// and reported with its name (vendor::check); the contexts that streams
// belong to and that per-context state is kept by; the queries written
// once over the vendor's primitives (isCapturing, pointerDevice); and the
// opening of libraries by dlopen that the sparse entries share
// (openLibraryFile).
//
//===----------------------------------------------------------------------===//

#include "Core/VendorLibrary.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string>

using namespace sdfgrt;

//===----------------------------------------------------------------------===//
// Opening libraries
//===----------------------------------------------------------------------===//

const char *sdfgrt::libraryOverride(const char *variable) {
  const char *path = getenv(variable);
  return path && *path ? path : nullptr;
}

void *sdfgrt::openLibraryFile(const char *override, const char *const *names,
                              size_t nameCount, bool counted,
                              std::string &tried, std::string &error,
                              const char *&opened) {
  void *handle = nullptr;
  auto tryOpen = [&](const char *name) {
    if (counted)
      ++threadState.counters.libraryOpens;
    tried.append(tried.empty() ? "" : ", ").append(name);
    if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      opened = name;
    else if (error.empty())
      error = dlerror();
    return handle != nullptr;
  };
  if (override) {
    tryOpen(override);
  } else {
    for (size_t i = 0; i < nameCount; ++i)
      if (tryOpen(names[i]))
        break;
  }
  return handle;
}

//===----------------------------------------------------------------------===//
// The vendor library
//===----------------------------------------------------------------------===//

namespace {

constexpr const char *kVendorFailureFormat = "%s failed: %s (%s)";

template <typename Fn>
void resolve(void *handle, Fn &fn, const char *name, bool required,
             const char *&missing) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!fn && required && !missing)
    missing = name;
}

} // namespace

bool sdfgrt::openVendorLibrary(VendorLibrary &lib) {
  const char *override = libraryOverride(vendor::kLibraryEnvironmentVariable);
  std::string tried, error;
  const char *opened = nullptr;
  void *handle = openLibraryFile(override, vendor::kLibraryNames,
                                 std::size(vendor::kLibraryNames),
                                 /*counted=*/true, tried, error, opened);
  if (!handle)
    return lib.fail(kRuntimeFailure, "%s could not be loaded: %s%s%s%s",
                    tried.c_str(), error.c_str(),
                    override ? "" : " (to use another path, set ",
                    override ? "" : vendor::kLibraryEnvironmentVariable,
                    override ? "" : ")");

  Symbols &symbols = lib.symbols;
  const char *missing = nullptr;
#define SDFGRT_SYMBOL(role, function)                                          \
  resolve(handle, symbols.role, SDFGRT_STRINGIFY(function), true, missing);
#define SDFGRT_OPTIONAL_SYMBOL(role, function)                                 \
  resolve(handle, symbols.role, SDFGRT_STRINGIFY(function), false, missing);
#define SDFGRT_SYMBOL_TYPED(role, function, type) SDFGRT_SYMBOL(role, function)
#include SDFGRT_VENDOR_SYMBOLS
#undef SDFGRT_SYMBOL_TYPED
#undef SDFGRT_OPTIONAL_SYMBOL
#undef SDFGRT_SYMBOL
  if (missing)
    return lib.fail(kRuntimeFailure, "%s could not be resolved in %s", missing,
                    opened);

  ++threadState.counters.vendorCalls;
  vendor::Result result = symbols.Init(0);
  if (result != vendor::kSuccess) {
    lib.failureName = vendor::errorName(symbols, result);
    return lib.fail(result, kVendorFailureFormat, Symbols::InitName,
                    vendor::errorName(symbols, result),
                    vendor::errorString(symbols, result));
  }
  return true;
}

bool sdfgrt::vendor::check(const char *function, Result result,
                           const char *detail) {
  ++threadState.counters.vendorCalls;
  if (result == kSuccess)
    return true;
  const Symbols &symbols = vendorLibrary().symbols;
  bool detailed = detail && *detail;
  recordVendorError(static_cast<int32_t>(result), errorName(symbols, result),
                    "%s failed: %s (%s)%s%s", function,
                    errorName(symbols, result), errorString(symbols, result),
                    detailed ? ": " : "", detailed ? detail : "");
  return false;
}

bool sdfgrt::vendor::checkStream(const char *function, Result result,
                                 const void *stream) {
  if (result == kSuccess)
    return check(function, result);
  char detail[160];
  snprintf(detail, sizeof(detail),
           "%p is not a stream the driver knows (never created, destroyed, "
           "or of a destroyed context)",
           stream);
  return check(function, result, detail);
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

bool sdfgrt::identify(const Symbols &symbols, Context context,
                      ContextRef &ref) {
  ref.handle = context;
  if (threadState.callDepth > 0 && context != kNoContext &&
      context == threadState.callIdContext) {
    ref.id = threadState.callContextId;
    return true;
  }
  if (!vendor::contextId(symbols, context, ref.id))
    return false;
  if (threadState.callDepth > 0) {
    threadState.callIdContext = context;
    threadState.callContextId = ref.id;
  }
  return true;
}

bool sdfgrt::chooseDefaultContext(const Symbols &symbols, Context &context) {
  VendorLibrary &lib = vendorLibrary();
  std::lock_guard<std::mutex> lock(lib.mutex);
  if (lib.defaultContext == kNoContext) {
    Context chosen = kNoContext;
    if (!vendor::defaultContext(symbols, lib.defaultDevice, chosen))
      return false;
    lib.defaultContext = chosen;
  }
  context = lib.defaultContext;
  return true;
}

bool sdfgrt::runOnStream(void *stream, StreamOperation body, void *arg) {
  bool identified = false;
  return onStream(stream,
                  [&](const Symbols &symbols, Stream s, Context context) {
                    ContextRef ref;
                    if ((identified = identify(symbols, context, ref)))
                      body(arg, s, ref.id);
                  }) &&
         identified;
}

//===----------------------------------------------------------------------===//
// Queries written once over the vendor's primitives
//===----------------------------------------------------------------------===//

bool sdfgrt::isCapturing(const Symbols &symbols, Stream stream,
                         bool &capturing) {
  vendor::CaptureStatus status = vendor::kCaptureStatusNone;
  vendor::Result result = symbols.StreamIsCapturing(stream, &status);
  if (result == vendor::kStreamCaptureImplicit) {
    capturing = true;
    return true;
  }
  if (!vendor::check(Symbols::StreamIsCapturingName, result))
    return false;
  capturing = status != vendor::kCaptureStatusNone;
  return true;
}

bool sdfgrt::refusedWhileCapturing(const Symbols &symbols, Stream stream,
                                   const char *format, ...) {
  bool capturing = false;
  if (!isCapturing(symbols, stream, capturing))
    return true;
  if (capturing) {
    va_list args;
    va_start(args, format);
    recordFailureV(format, args);
    va_end(args);
  }
  return capturing;
}

uint64_t sdfgrt::pointerBufferId(const Symbols &symbols, const void *pointer) {
  vendor::PointerAttribute attribute = vendor::kPointerBufferId;
  unsigned long long id = 0;
  void *data[] = {&id};
  if (symbols.PointerGetAttributes(
          1, &attribute, data,
          reinterpret_cast<vendor::DevicePtr>(const_cast<void *>(pointer))) !=
      vendor::kSuccess)
    return 0;
  return id;
}

bool sdfgrt::pointerDevice(const Symbols &symbols, const void *pointer,
                           bool &isDevice, int32_t &device) {
  vendor::PointerAttribute attributes[] = {vendor::kPointerMemoryType,
                                           vendor::kPointerIsManaged,
                                           vendor::kPointerDeviceOrdinal};
  unsigned memoryType = 0, managed = 0;
  int ordinal = -1;
  void *data[] = {&memoryType, &managed, &ordinal};
  vendor::Result result = symbols.PointerGetAttributes(
      3, attributes, data,
      reinterpret_cast<vendor::DevicePtr>(const_cast<void *>(pointer)));
  // A vendor that answers an unknown pointer with success and default
  // attributes (CUDA) has kUnknownPointer == kSuccess.
  if (result != vendor::kSuccess && result == vendor::kUnknownPointer) {
    isDevice = false;
    return true;
  }
  if (!vendor::check(Symbols::PointerGetAttributesName, result))
    return false;
  isDevice = memoryType == vendor::kMemoryTypeDevice && !managed;
  device = ordinal;
  return true;
}
