//===- Vendor.h - CUDA driver API for the runtime ---------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Everything the runtime needs to know about CUDA: the driver API types, the
// library to open, the entry points (CudaSymbols.def), and the few
// operations whose signatures differ from HIP's. The driver API rather than
// the runtime API: it takes the caller's stream as is and lets the runtime
// choose the context a module is loaded in.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CUDA_CUDAVENDOR_H
#define SDFGSTREAM_LIB_RUNTIME_CUDA_CUDAVENDOR_H

#include <cuda.h>

// The per-thread variants would turn stream 0 into the per-thread stream,
// contradicting the ABI (0 is the legacy default stream).
#ifdef __CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "build the runtime without CUDA_API_PER_THREAD_DEFAULT_STREAM"
#endif

namespace sdfgrt {
namespace vendor {

using Result = CUresult;
using Stream = CUstream;
/// Modules and functions belong to a CUDA context.
using Context = CUcontext;
using Module = CUmodule;
using Function = CUfunction;
using Event = CUevent;
using DevicePtr = CUdeviceptr;
using JitOption = CUjit_option;

constexpr const char *kName = "CUDA";
constexpr Result kSuccess = CUDA_SUCCESS;
/// What an event query answers while the recorded work is still running.
constexpr Result kNotReady = CUDA_ERROR_NOT_READY;
constexpr Context kNoContext = nullptr;
constexpr JitOption kJitOptimizationLevel = CU_JIT_OPTIMIZATION_LEVEL;
/// Where the driver writes why a module failed to load (the JIT compiler's
/// or the linker's messages), and that buffer's size.
constexpr JitOption kJitErrorLogBuffer = CU_JIT_ERROR_LOG_BUFFER;
constexpr JitOption kJitErrorLogBufferSize = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
constexpr bool kHasClusterLaunch = true;
constexpr bool kHasTensorMaps = true;
/// A TMA descriptor, as the kernels read it.
using TensorMap = CUtensorMap;
constexpr unsigned kTimingEventFlags = CU_EVENT_DEFAULT;
constexpr unsigned kOrderingEventFlags = CU_EVENT_DISABLE_TIMING;
/// A record of an event whose previous record is still pending replaces it;
/// waits already enqueued keep the state they saw (cuEventRecord).
constexpr bool kEventReusableWhilePending = true;
/// What isCapturing reads: a stream's capture status, the status of a
/// stream that is not being captured, and what the legacy default stream
/// answers while another stream captures in global or thread-local mode.
using CaptureStatus = CUstreamCaptureStatus;
constexpr CaptureStatus kCaptureStatusNone = CU_STREAM_CAPTURE_STATUS_NONE;
constexpr Result kStreamCaptureImplicit = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
/// The streams the runtime keeps for a program's other stream slots
/// (StreamPool.cpp) are non-blocking: the legacy default stream, which any
/// other code of the process may use, does not order them.
constexpr unsigned kPoolStreamFlags = CU_STREAM_NON_BLOCKING;
/// The capture mode they are created in: relaxed, which no capture in
/// global mode forbids creating a stream in.
using CaptureMode = CUstreamCaptureMode;
constexpr CaptureMode kCaptureModeRelaxed = CU_STREAM_CAPTURE_MODE_RELAXED;
/// What pointerDevice asks of a pointer, and the memory type of device
/// memory. cuPointerGetAttributes answers a pointer it does not know with
/// default attributes (host memory) and success, so no error means
/// "unknown pointer" (kUnknownPointer is kSuccess).
using PointerAttribute = CUpointer_attribute;
constexpr PointerAttribute kPointerMemoryType =
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
constexpr PointerAttribute kPointerIsManaged = CU_POINTER_ATTRIBUTE_IS_MANAGED;
constexpr PointerAttribute kPointerDeviceOrdinal =
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL;
constexpr PointerAttribute kPointerBufferId = CU_POINTER_ATTRIBUTE_BUFFER_ID;
constexpr unsigned kMemoryTypeDevice = CU_MEMORYTYPE_DEVICE;
constexpr Result kUnknownPointer = CUDA_SUCCESS;
constexpr const char *kLibraryNames[] = {"libcuda.so.1"};
constexpr const char *kLibraryEnvironmentVariable = "SDFGRT_CUDA_LIBRARY";

} // namespace vendor
} // namespace sdfgrt

#define SDFGRT_VENDOR_SYMBOLS "CUDA/CudaSymbols.def"
#include "Core/StridedCopy.h"
#include "Core/SymbolTable.h"

namespace sdfgrt {
namespace vendor {

inline const char *errorName(const Symbols &symbols, Result result) {
  const char *name = nullptr;
  symbols.GetErrorName(result, &name);
  return name ? name : "unknown CUDA error";
}

inline const char *errorString(const Symbols &symbols, Result result) {
  const char *text = nullptr;
  symbols.GetErrorString(result, &text);
  return text ? text : "no description";
}

inline bool currentContext(const Symbols &symbols, Context &context) {
  return SDFGRT_CALL(symbols, GetCurrentContext, &context);
}

/// The context of `stream` (not one of the default-stream handles). The
/// driver validates the handle: one it never created, or one of a destroyed
/// context, fails here, before any work is enqueued on it. A dangling
/// handle that a new stream happens to reuse cannot be told apart.
inline bool streamContext(const Symbols &symbols, Stream stream,
                          Context &context) {
  return checkStream(Symbols::StreamGetContextName,
                     symbols.StreamGetContext(stream, &context), stream);
}

/// The driver's identity of `context` (cuCtxGetId, CUDA 12.0 and later): a
/// context created after another was destroyed may get the old handle, but
/// never the old id, so what the runtime caches per context (modules,
/// functions, events) is not found again by the new context. Older drivers
/// have no ids: the handle stands for the context, and a new context with a
/// reused handle does see the old one's cache entries there.
inline bool contextId(const Symbols &symbols, Context context, uint64_t &id) {
  if (!symbols.ContextGetId) {
    id = reinterpret_cast<uintptr_t>(context);
    return true;
  }
  unsigned long long found = 0;
  if (!SDFGRT_CALL(symbols, ContextGetId, context, &found))
    return false;
  id = found;
  return true;
}

/// Whether the context of id `id` still exists under the handle `context`.
/// Not a failure when it does not (it was destroyed, and its modules and
/// events with it): nothing is recorded.
inline bool contextAlive(const Symbols &symbols, Context context, uint64_t id) {
  if (!symbols.ContextGetId)
    return true;
  unsigned long long found = 0;
  return symbols.ContextGetId(context, &found) == CUDA_SUCCESS && found == id;
}

/// The context of a default-stream operation on a thread without a current
/// context: the default device's (0 unless mgpuSetDefaultDevice) primary
/// context, the one the CUDA runtime API (and so PyTorch or CuPy) would
/// have made current there.
inline bool defaultContext(const Symbols &symbols, int32_t ordinal,
                           Context &context) {
  CUdevice device;
  return SDFGRT_CALL(symbols, DeviceGet, &device, ordinal) &&
         SDFGRT_CALL(symbols, RetainPrimaryContext, &context, device);
}

/// CUDA threads have contexts, not devices: the default device only picks
/// the primary context of work on a thread without a current context. An
/// ordinal that names no device fails here rather than at that work.
inline bool setDefaultDevice(const Symbols &symbols, int32_t ordinal) {
  CUdevice device;
  return SDFGRT_CALL(symbols, DeviceGet, &device, ordinal);
}

/// Whether `stream` is being captured into a graph (an invalidated capture
/// counts) and the id of its capture, which every stream that joined it
/// shares. Drivers older than CUDA 12.3 lack cuStreamGetCaptureInfo_v3:
/// there a capture is known by its stream's handle, so no other stream
/// counts as joined to it.
inline bool captureState(const Symbols &symbols, Stream stream, bool &capturing,
                         uint64_t &id) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t found = reinterpret_cast<uintptr_t>(stream);
  bool known = symbols.StreamGetCaptureInfo
                   ? SDFGRT_CALL(symbols, StreamGetCaptureInfo, stream, &status,
                                 &found, nullptr, nullptr, nullptr, nullptr)
                   : SDFGRT_CALL(symbols, StreamIsCapturing, stream, &status);
  capturing = status != CU_STREAM_CAPTURE_STATUS_NONE;
  id = found;
  return known;
}

/// Host-shared memory: managed, attached globally (any stream may use it).
inline bool allocateManaged(const Symbols &symbols, DevicePtr &ptr,
                            size_t sizeBytes) {
  return SDFGRT_CALL(symbols, MemAllocManaged, &ptr, sizeBytes,
                     CU_MEM_ATTACH_GLOBAL);
}

/// Portable: the registration serves the streams of every context.
inline bool registerHost(const Symbols &symbols, void *ptr, size_t sizeBytes) {
  return SDFGRT_CALL(symbols, MemHostRegister, ptr, sizeBytes,
                     CU_MEMHOSTREGISTER_PORTABLE);
}

/// The device of `context`, which is current.
inline bool contextDevice(const Symbols &symbols, Context, int32_t &device) {
  CUdevice found;
  if (!SDFGRT_CALL(symbols, ContextGetDevice, &found))
    return false;
  device = found;
  return true;
}

inline bool enterContext(const Symbols &symbols, Context context) {
  return SDFGRT_CALL(symbols, PushContext, context);
}

inline bool leaveContext(const Symbols &symbols, Context /*previous*/) {
  Context popped;
  return SDFGRT_CALL(symbols, PopContext, &popped);
}

/// With unified addressing the driver infers the direction from the
/// pointers, as cudaMemcpyDefault does.
inline bool memcpyAsync(const Symbols &symbols, void *dst, void *src,
                        size_t sizeBytes, Stream stream) {
  return SDFGRT_CALL(symbols, MemcpyAsync, reinterpret_cast<DevicePtr>(dst),
                     reinterpret_cast<DevicePtr>(src), sizeBytes, stream);
}

/// Rows of `width` bytes at a pitch, either direction (unified addressing).
inline bool memcpy2DAsync(const Symbols &symbols, void *dst, size_t dstPitch,
                          void *src, size_t srcPitch, size_t width,
                          size_t height, Stream stream) {
  CUDA_MEMCPY2D copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.srcDevice = reinterpret_cast<DevicePtr>(src);
  copy.srcPitch = srcPitch;
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstDevice = reinterpret_cast<DevicePtr>(dst);
  copy.dstPitch = dstPitch;
  copy.WidthInBytes = width;
  copy.Height = height;
  return SDFGRT_CALL(symbols, Memcpy2DAsync, &copy, stream);
}

inline bool elapsedTime(const Symbols &symbols, Event start, Event end,
                        float &milliseconds) {
  if (!symbols.EventElapsedTime) {
    recordFailure("timers need %s, which this CUDA driver lacks (it is older "
                  "than the cuda.h the runtime was built with)",
                  SDFGRT_STRINGIFY(cuEventElapsedTime));
    return false;
  }
  return SDFGRT_CALL(symbols, EventElapsedTime, &milliseconds, start, end);
}

/// Kernels get at most 48 KiB of dynamic shared memory unless they opt in.
inline bool allowDynamicSharedMemory(const Symbols &symbols, Function function,
                                     int32_t bytes) {
  return bytes <= 48 * 1024 ||
         SDFGRT_CALL(symbols, FuncSetAttribute, function,
                     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

/// Encodes the TMA descriptor of a tile `box` of the memref view
/// `descriptor` (both in MLIR's dimension order, outermost first; CUDA's is
/// innermost first), from the view's first element.
inline bool encodeTensorMap(const Symbols &symbols, TensorMap &map,
                            int64_t rank, void *descriptor, int64_t dataType,
                            int64_t interleave, int64_t swizzle,
                            int64_t l2Promotion, int64_t oobFill,
                            const int64_t *box) {
  // Bytes per element of each CUtensorMapDataType, in enum order.
  static constexpr int64_t kElementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                              4, 8, 2, 4, 4, 4};
  if (!symbols.TensorMapEncodeTiled) {
    recordFailure("mgpuTensorMapEncodeTiledMemref needs %s (CUDA 12), which "
                  "this driver lacks",
                  SDFGRT_STRINGIFY(cuTensorMapEncodeTiled));
    return false;
  }
  if (rank < 1 || rank > 5 || dataType < 0 || dataType > 12) {
    recordFailure("mgpuTensorMapEncodeTiledMemref: rank %lld or data type "
                  "%lld out of range",
                  static_cast<long long>(rank),
                  static_cast<long long>(dataType));
    return false;
  }
  int64_t elementBytes = kElementBytes[dataType];
  View view = viewOf(descriptor, rank, elementBytes);
  const int64_t *sizes = view.sizes, *strides = view.strides;
  cuuint64_t dims[5], pitches[4];
  cuuint32_t boxDims[5], elementStrides[5];
  for (int64_t i = 0; i < rank; ++i) {
    dims[i] = static_cast<cuuint64_t>(sizes[rank - 1 - i]);
    boxDims[i] = static_cast<cuuint32_t>(box[rank - 1 - i]);
    elementStrides[i] = 1;
  }
  for (int64_t i = 0; i + 1 < rank; ++i)
    pitches[i] = static_cast<cuuint64_t>(strides[rank - 2 - i] * elementBytes);
  return SDFGRT_CALL(symbols, TensorMapEncodeTiled, &map,
                     static_cast<CUtensorMapDataType>(dataType),
                     static_cast<cuuint32_t>(rank), view.first, dims, pitches,
                     boxDims, elementStrides,
                     static_cast<CUtensorMapInterleave>(interleave),
                     static_cast<CUtensorMapSwizzle>(swizzle),
                     static_cast<CUtensorMapL2promotion>(l2Promotion),
                     static_cast<CUtensorMapFloatOOBfill>(oobFill));
}

/// A device copy of `map` for kernels to read (synchronous: the descriptor
/// is a kernel argument that must exist before any launch reads it).
inline bool copyTensorMapToDevice(const Symbols &symbols, const TensorMap &map,
                                  void *&device) {
  DevicePtr ptr{};
  if (!SDFGRT_CALL(symbols, MemAlloc, &ptr, sizeof(map)) ||
      !SDFGRT_CALL(symbols, MemcpyHtoD, ptr, &map, sizeof(map)))
    return false;
  device = reinterpret_cast<void *>(ptr);
  return true;
}

inline bool launchClusterKernel(const Symbols &symbols, Function function,
                                const unsigned (&cluster)[3],
                                const unsigned (&grid)[3],
                                const unsigned (&block)[3], unsigned smem,
                                Stream stream, void **params, void **extra) {
  // Clusters of more than 8 blocks are "non-portable" and need an opt-in.
  if (cluster[0] * cluster[1] * cluster[2] > 8 &&
      !SDFGRT_CALL(symbols, FuncSetAttribute, function,
                   CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1))
    return false;
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = cluster[0];
  attribute.value.clusterDim.y = cluster[1];
  attribute.value.clusterDim.z = cluster[2];
  CUlaunchConfig config = {};
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = block[0];
  config.blockDimY = block[1];
  config.blockDimZ = block[2];
  config.sharedMemBytes = smem;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return SDFGRT_CALL(symbols, LaunchKernelEx, &config, function, params, extra);
}

} // namespace vendor
} // namespace sdfgrt

#include "GraphVendor.h"

#endif // SDFGSTREAM_LIB_RUNTIME_CUDA_CUDAVENDOR_H
