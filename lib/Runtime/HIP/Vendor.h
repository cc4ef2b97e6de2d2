//===- Vendor.h - HIP runtime API for the runtime ---------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Everything the runtime needs to know about HIP: the types, the library to
// open, the entry points (HipSymbols.def), and the few operations whose
// signatures differ from CUDA's. HIP has no usable context API: modules
// belong to a device, so the runtime's "context" of a stream is its device.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_HIP_HIPVENDOR_H
#define SDFGSTREAM_LIB_RUNTIME_HIP_HIPVENDOR_H

#include <hip/hip_runtime_api.h>

// Not in the HIP 5.2 headers; the runtime resolves it when the library has
// it (ROCm 5.6 and later).
extern "C" hipError_t hipStreamGetDevice(hipStream_t stream,
                                         hipDevice_t *device);

namespace sdfgrt {
namespace vendor {

using Result = hipError_t;
using Stream = hipStream_t;
/// The device ordinal: HIP loads modules per device.
using Context = hipDevice_t;
using Module = hipModule_t;
using Function = hipFunction_t;
using Event = hipEvent_t;
using DevicePtr = hipDeviceptr_t;
using JitOption = hipJitOption;

constexpr const char *kName = "HIP";
constexpr Result kSuccess = hipSuccess;
/// What an event query answers while the recorded work is still running.
constexpr Result kNotReady = hipErrorNotReady;
constexpr Context kNoContext = -1;
constexpr JitOption kJitOptimizationLevel = hipJitOptionOptimizationLevel;
/// Where a module load's error log goes, and its size. ROCm's
/// hipModuleLoadDataEx accepts the options; a runtime that ignores them
/// leaves the buffer empty, and the error has the vendor's text only.
constexpr JitOption kJitErrorLogBuffer = hipJitOptionErrorLogBuffer;
constexpr JitOption kJitErrorLogBufferSize =
    hipJitOptionErrorLogBufferSizeBytes;
constexpr bool kHasClusterLaunch = false;
constexpr bool kHasTensorMaps = false;
/// HIP has no TMA descriptors (kHasTensorMaps); a placeholder type.
struct TensorMap {
  char bytes[128];
};
constexpr unsigned kTimingEventFlags = hipEventDefault;
constexpr unsigned kOrderingEventFlags = hipEventDisableTiming;
/// HIP leaves a record of an event that is still being recorded undefined
/// (hipEventRecord), so an event that may be pending is destroyed, which
/// HIP defers until it completes, rather than reused.
constexpr bool kEventReusableWhilePending = false;
/// What isCapturing reads: a stream's capture status, the status of a
/// stream that is not being captured, and what the null stream answers
/// while another stream captures.
using CaptureStatus = hipStreamCaptureStatus;
constexpr CaptureStatus kCaptureStatusNone = hipStreamCaptureStatusNone;
constexpr Result kStreamCaptureImplicit = hipErrorStreamCaptureImplicit;
/// The streams the runtime keeps for a program's other stream slots
/// (StreamPool.cpp) are non-blocking: the null stream, which any other
/// code of the process may use, does not order them.
constexpr unsigned kPoolStreamFlags = hipStreamNonBlocking;
/// The capture mode they are created in: relaxed, which no capture in
/// global mode forbids creating a stream in.
using CaptureMode = hipStreamCaptureMode;
constexpr CaptureMode kCaptureModeRelaxed = hipStreamCaptureModeRelaxed;
/// What pointerDevice asks of a pointer, and the memory type of device
/// memory. hipDrvPointerGetAttributes answers a pointer it does not know
/// with hipErrorInvalidValue: not device memory, not a failure.
using PointerAttribute = hipPointer_attribute;
constexpr PointerAttribute kPointerMemoryType =
    HIP_POINTER_ATTRIBUTE_MEMORY_TYPE;
constexpr PointerAttribute kPointerIsManaged = HIP_POINTER_ATTRIBUTE_IS_MANAGED;
constexpr PointerAttribute kPointerDeviceOrdinal =
    HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL;
constexpr PointerAttribute kPointerBufferId = HIP_POINTER_ATTRIBUTE_BUFFER_ID;
constexpr unsigned kMemoryTypeDevice = hipMemoryTypeDevice;
constexpr Result kUnknownPointer = hipErrorInvalidValue;
constexpr const char *kLibraryNames[] = {"libamdhip64.so", "libamdhip64.so.6",
                                         "libamdhip64.so.5"};
constexpr const char *kLibraryEnvironmentVariable = "SDFGRT_HIP_LIBRARY";

} // namespace vendor
} // namespace sdfgrt

#define SDFGRT_VENDOR_SYMBOLS "HIP/HipSymbols.def"
#include "Core/SymbolTable.h"

namespace sdfgrt {
namespace vendor {

inline const char *errorName(const Symbols &symbols, Result result) {
  return symbols.GetErrorName(result);
}

inline const char *errorString(const Symbols &symbols, Result result) {
  return symbols.GetErrorString(result);
}

/// A thread always has a current device (0 unless set), so kNoContext never
/// comes back and defaultContext is never needed.
inline bool currentContext(const Symbols &symbols, Context &device) {
  return SDFGRT_CALL(symbols, GetDevice, &device);
}

/// Without hipStreamGetDevice (ROCm < 5.6) the stream is taken to belong to
/// the current device, as HIP itself assumed before.
/// A handle hipStreamGetDevice does not know fails here, before any work is
/// enqueued on it. Without it (ROCm < 5.6) the stream is not checked: a
/// garbage handle reaches the operation's own HIP call, which may or may not
/// notice.
inline bool streamContext(const Symbols &symbols, Stream stream,
                          Context &device) {
  if (!symbols.StreamGetDevice)
    return currentContext(symbols, device);
  return checkStream(Symbols::StreamGetDeviceName,
                     symbols.StreamGetDevice(stream, &device), stream);
}

/// HIP's "context" is the device ordinal, which stays: the ordinal is the
/// id. hipDeviceReset, which frees a device's modules and events, cannot be
/// noticed, so a program must not be called across it.
inline bool contextId(const Symbols &, Context device, uint64_t &id) {
  id = static_cast<uint64_t>(device);
  return true;
}

inline bool contextAlive(const Symbols &, Context, uint64_t) { return true; }

inline bool defaultContext(const Symbols &, int32_t ordinal, Context &device) {
  device = ordinal;
  return true;
}

/// A HIP thread's current device is its default device.
inline bool setDefaultDevice(const Symbols &symbols, int32_t ordinal) {
  return SDFGRT_CALL(symbols, SetDevice, ordinal);
}

/// Whether `stream` is being captured into a graph (an invalidated capture
/// counts) and the id of its capture, which every stream that joined it
/// shares.
inline bool captureState(const Symbols &symbols, Stream stream, bool &capturing,
                         uint64_t &id) {
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  unsigned long long found = 0;
  if (!SDFGRT_CALL(symbols, StreamGetCaptureInfo, stream, &status, &found))
    return false;
  capturing = status != hipStreamCaptureStatusNone;
  id = found;
  return true;
}

/// Host-shared memory: managed, attached globally (any stream may use it).
inline bool allocateManaged(const Symbols &symbols, DevicePtr &ptr,
                            size_t sizeBytes) {
  return SDFGRT_CALL(symbols, MemAllocManaged, &ptr, sizeBytes,
                     hipMemAttachGlobal);
}

/// Portable: the registration serves the streams of every device.
inline bool registerHost(const Symbols &symbols, void *ptr, size_t sizeBytes) {
  return SDFGRT_CALL(symbols, MemHostRegister, ptr, sizeBytes,
                     hipHostRegisterPortable);
}

/// The runtime's HIP "context" is the device ordinal itself.
inline bool contextDevice(const Symbols &, Context device, int32_t &found) {
  found = device;
  return true;
}

inline bool enterContext(const Symbols &symbols, Context device) {
  return SDFGRT_CALL(symbols, SetDevice, device);
}

inline bool leaveContext(const Symbols &symbols, Context previous) {
  return SDFGRT_CALL(symbols, SetDevice, previous);
}

inline bool memcpyAsync(const Symbols &symbols, void *dst, void *src,
                        size_t sizeBytes, Stream stream) {
  return SDFGRT_CALL(symbols, MemcpyAsync, dst, src, sizeBytes,
                     hipMemcpyDefault, stream);
}

inline bool memcpy2DAsync(const Symbols &symbols, void *dst, size_t dstPitch,
                          void *src, size_t srcPitch, size_t width,
                          size_t height, Stream stream) {
  return SDFGRT_CALL(symbols, Memcpy2DAsync, dst, dstPitch, src, srcPitch,
                     width, height, hipMemcpyDefault, stream);
}

inline bool elapsedTime(const Symbols &symbols, Event start, Event end,
                        float &milliseconds) {
  return SDFGRT_CALL(symbols, EventElapsedTime, &milliseconds, start, end);
}

/// AMD GPUs give a kernel all of its LDS (64 KiB) without an opt-in.
inline bool allowDynamicSharedMemory(const Symbols &, Function, int32_t) {
  return true;
}

/// HIP has no thread block clusters: mgpuLaunchClusterKernel refuses them
/// (kHasClusterLaunch), so this is declared for the shared code's discarded
/// `if constexpr` branch and never defined.
bool launchClusterKernel(const Symbols &symbols, Function function,
                         const unsigned (&cluster)[3],
                         const unsigned (&grid)[3], const unsigned (&block)[3],
                         unsigned smem, Stream stream, void **params,
                         void **extra);

/// Declared for the shared code's discarded `if constexpr` branch (HIP has
/// no TMA descriptors) and never defined.
bool encodeTensorMap(const Symbols &symbols, TensorMap &map, int64_t rank,
                     void *descriptor, int64_t dataType, int64_t interleave,
                     int64_t swizzle, int64_t l2Promotion, int64_t oobFill,
                     const int64_t *box);
bool copyTensorMapToDevice(const Symbols &symbols, const TensorMap &map,
                           void *&device);

} // namespace vendor
} // namespace sdfgrt

#include "GraphVendor.h"

#endif // SDFGSTREAM_LIB_RUNTIME_HIP_HIPVENDOR_H
