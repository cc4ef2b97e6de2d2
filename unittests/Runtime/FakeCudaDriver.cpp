//===- FakeCudaDriver.cpp - A CUDA driver without a GPU, for tests --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriverInternal.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

using namespace fakecuda;
using namespace fakecuda::internal;

std::recursive_mutex fakecuda::internal::driverMutex;

namespace {
thread_local std::vector<CUcontext> contextStack;
thread_local CUstreamCaptureMode threadMode = CU_STREAM_CAPTURE_MODE_GLOBAL;
// Ids as cuCtxGetId answers them: distinct from the test's indices.
constexpr unsigned long long kFirstContextId = 100;
CUctx_st contexts[4] = {{0, 0, kFirstContextId},
                        {1, 0, kFirstContextId + 1},
                        {2, 1, kFirstContextId + 2},
                        {3, 1, kFirstContextId + 3}};
unsigned long long nextContextId = kFirstContextId + 4;
std::deque<CUstream_st> streams;
std::deque<CUfunc_st> functions;
std::deque<CUmod_st> modules;
std::deque<CUevent_st> events;

CUcontext current() {
  return contextStack.empty() ? nullptr : contextStack.back();
}

bool isSpecial(CUstream stream) {
  return reinterpret_cast<uintptr_t>(stream) <= 2;
}

/// Whether any stream is being captured (all captures are in global mode).
bool anyCapturing() {
  for (const CUstream_st &stream : streams)
    if (stream.capturing)
      return true;
  return false;
}

/// The legacy default stream (0, 1) cannot be used, nor queried, while any
/// stream captures in global mode.
bool implicitlyCaptured(CUstream stream) {
  return reinterpret_cast<uintptr_t>(stream) <= 1 && anyCapturing();
}

/// Gives every context its first id again.
void resetContexts() {
  for (unsigned long long i = 0; i < 4; ++i)
    contexts[i].driverId = kFirstContextId + i;
  nextContextId = kFirstContextId + 4;
}

/// Whether `stream` is a live stream: created here, its context not
/// destroyed since (compared by address only, never dereferenced before).
bool isLiveStream(CUstream stream) {
  for (const CUstream_st &known : streams)
    if (&known == stream)
      return known.contextId == known.context->driverId;
  return false;
}

struct Description {
  const char *name, *text;
};

/// The real driver's words for the errors the tests provoke.
Description describe(CUresult error) {
  switch (error) {
  case CUDA_ERROR_INVALID_VALUE:
    return {"CUDA_ERROR_INVALID_VALUE", "invalid argument"};
  case CUDA_ERROR_NO_DEVICE:
    return {"CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"};
  case CUDA_ERROR_INVALID_CONTEXT:
    return {"CUDA_ERROR_INVALID_CONTEXT", "invalid device context"};
  case CUDA_ERROR_INVALID_HANDLE:
    return {"CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"};
  case CUDA_ERROR_NOT_READY:
    return {"CUDA_ERROR_NOT_READY", "device not ready"};
  case CUDA_ERROR_INVALID_PTX:
    return {"CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"};
  case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED:
    return {"CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
            "operation not permitted when stream is capturing"};
  case CUDA_ERROR_STREAM_CAPTURE_ISOLATION:
    return {"CUDA_ERROR_STREAM_CAPTURE_ISOLATION",
            "dependency created on uncaptured work in another stream"};
  default:
    return {nullptr, nullptr};
  }
}

/// Whether `module` was loaded in the current context (not in a destroyed
/// one under the same handle).
bool inCurrentContext(CUmodule module) {
  return module->context == current() &&
         module->contextId == current()->driverId;
}

} // namespace

/// Counts the call and answers an injected failure or a missing cuInit.
CUresult fakecuda::internal::enter(const char *call, bool needsInit) {
  Driver &d = driver();
  ++d.calls[call];
  if (d.failingCall == call)
    return d.failure;
  if (needsInit && !d.initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  return CUDA_SUCCESS;
}

/// Stream work needs a live stream and its context current.
CUresult fakecuda::internal::checkStream(CUstream stream) {
  if (!isSpecial(stream) && !isLiveStream(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  CUcontext context = isSpecial(stream) ? current() : stream->context;
  return context && context == current() ? CUDA_SUCCESS
                                         : CUDA_ERROR_INVALID_CONTEXT;
}

/// Event work needs the event's context current.
CUresult checkEvent(CUevent event) {
  if (event->destroyed || event->contextId != event->context->driverId)
    return CUDA_ERROR_INVALID_HANDLE;
  return event->context == current() ? CUDA_SUCCESS
                                     : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult fakecuda::internal::launch(CUfunction f, const unsigned (&grid)[3],
                                   const unsigned (&block)[3],
                                   const unsigned (&cluster)[3], unsigned smem,
                                   CUstream stream, void **params) {
  if (CUresult result = checkStream(stream))
    return result;
  if (!inCurrentContext(f->module))
    return CUDA_ERROR_INVALID_HANDLE;
  if (smem > 48 * 1024 && static_cast<int>(smem) > f->maxDynamicSharedBytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (cluster[0] * cluster[1] * cluster[2] > 8 && !f->nonPortableClusterSize)
    return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  Launch l{f->name, stream, current(), {}, {}, {}, smem};
  std::memcpy(l.grid, grid, sizeof(grid));
  std::memcpy(l.block, block, sizeof(block));
  std::memcpy(l.cluster, cluster, sizeof(cluster));
  auto layout = driver().kernelParams.find(f->name);
  if (params && layout != driver().kernelParams.end())
    for (size_t i = 0; i < layout->second.size(); ++i) {
      const char *bytes = static_cast<const char *>(params[i]);
      l.arguments.insert(l.arguments.end(), bytes, bytes + layout->second[i]);
    }
  driver().launches.push_back(l);
  return CUDA_SUCCESS;
}

namespace {

template <typename T>
CUresult fill(const char *call, CUdeviceptr dst, T value, size_t count,
              CUstream stream) {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  if (CUresult result = enter(call))
    return result;
  if (CUresult result = checkStream(stream))
    return result;
  T *data = reinterpret_cast<T *>(dst);
  for (size_t i = 0; i < count; ++i)
    data[i] = value;
  driver().lastMemoryStream = stream;
  return CUDA_SUCCESS;
}

} // namespace

#define ENTER(call, ...)                                                       \
  std::lock_guard<std::recursive_mutex> lock(driverMutex);                     \
  if (CUresult result = enter(call, ##__VA_ARGS__))                            \
  return result

//===----------------------------------------------------------------------===//
// Test interface
//===----------------------------------------------------------------------===//

int Driver::totalCalls() const {
  int total = 0;
  for (const auto &entry : calls)
    total += entry.second;
  return total;
}

Driver &fakecuda::driver() {
  static Driver instance;
  return instance;
}

void fakecuda::reset() {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  driver() = Driver();
  resetContexts();
  contextStack.clear();
  threadMode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  streams.clear();
  functions.clear();
  modules.clear();
  events.clear();
}

CUcontext fakecuda::context(int id) { return &contexts[id]; }

CUstream fakecuda::createStream(CUcontext context) {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  streams.push_back({context, context->driverId, false});
  return &streams.back();
}

void fakecuda::endCapture(unsigned long long id) {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  for (CUstream_st &stream : streams)
    if (stream.capturing && stream.captureId == id)
      stream.capturing = false;
}

CUstreamCaptureMode fakecuda::threadCaptureMode() { return threadMode; }

CUcontext fakecuda::recreateContext(int id) {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  contexts[id].driverId = nextContextId++;
  return &contexts[id];
}

CUcontext fakecuda::currentContext() { return current(); }

void fakecuda::completeEvents() {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  for (CUevent event : driver().events)
    event->complete = true;
}

int fakecuda::liveEvents() {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  int live = 0;
  for (CUevent event : driver().events)
    live += !event->destroyed;
  return live;
}

//===----------------------------------------------------------------------===//
// Driver API
//===----------------------------------------------------------------------===//

CUresult cuInit(unsigned int) {
  ENTER("cuInit", false);
  driver().initialized = driver().initResult == CUDA_SUCCESS;
  return driver().initResult;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  ENTER("cuGetErrorName", false);
  *name = describe(error).name;
  return *name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  ENTER("cuGetErrorString", false);
  *text = describe(error).text;
  return *text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  ENTER("cuDeviceGet");
  *device = ordinal;
  return ordinal == 0 || ordinal == 1 ? CUDA_SUCCESS
                                      : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  ENTER("cuDevicePrimaryCtxRetain");
  if (device != 0 && device != 1)
    return CUDA_ERROR_INVALID_DEVICE;
  *context = fakecuda::context(device == 0 ? 0 : 2);
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *context) {
  ENTER("cuCtxGetCurrent");
  *context = current();
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext context) {
  ENTER("cuCtxPushCurrent");
  contextStack.push_back(context);
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *context) {
  ENTER("cuCtxPopCurrent");
  if (contextStack.empty())
    return CUDA_ERROR_INVALID_CONTEXT;
  *context = contextStack.back();
  contextStack.pop_back();
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device) {
  ENTER("cuCtxGetDevice");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  *device = current()->device;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetId(CUcontext context, unsigned long long *id) {
  ENTER("cuCtxGetId");
  if (!context)
    context = current();
  if (!context)
    return CUDA_ERROR_INVALID_CONTEXT;
  *id = context->driverId;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() {
  ENTER("cuCtxSynchronize");
  return current() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuStreamGetCtx(CUstream stream, CUcontext *context) {
  ENTER("cuStreamGetCtx");
  // The real driver, too, answers an error for a handle it does not know
  // where it can tell.
  if (!isSpecial(stream) && !isLiveStream(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  *context = isSpecial(stream) ? current() : stream->context;
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  ENTER("cuStreamSynchronize");
  return checkStream(stream);
}

CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status) {
  ENTER("cuStreamIsCapturing");
  if (CUresult result = checkStream(stream))
    return result;
  if (implicitlyCaptured(stream))
    return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
  *status = !isSpecial(stream) && stream->capturing
                ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  ENTER("cuStreamWaitEvent");
  if (CUresult result = checkStream(stream))
    return result;
  // The event may belong to another context.
  if (event->destroyed || !event->recorded)
    return CUDA_ERROR_INVALID_HANDLE;
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  // Waiting on captured work joins its capture; a stream of another
  // capture must not depend on it.
  if (event->captured && !isSpecial(stream)) {
    if (stream->capturing && stream->captureId != event->captureId)
      return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
    stream->capturing = true;
    stream->captureId = event->captureId;
  }
  driver().waits.push_back(
      {stream, event, event->stream, driver().nextOrder++});
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *stream, unsigned int flags) {
  ENTER("cuStreamCreate");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (flags & ~unsigned(CU_STREAM_NON_BLOCKING))
    return CUDA_ERROR_INVALID_VALUE;
  // A potentially unsafe call while a capture in global mode is ongoing.
  if (threadMode != CU_STREAM_CAPTURE_MODE_RELAXED && anyCapturing())
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  streams.push_back({current(), current()->driverId, false});
  streams.back().flags = flags;
  *stream = &streams.back();
  driver().createdStreams.push_back(*stream);
  return CUDA_SUCCESS;
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode) {
  ENTER("cuThreadExchangeStreamCaptureMode");
  std::swap(*mode, threadMode);
  return CUDA_SUCCESS;
}

// cuda.h names cuStreamGetCaptureInfo_v3 (CUDA 12.3 and later).
CUresult cuStreamGetCaptureInfo(CUstream stream, CUstreamCaptureStatus *status,
                                cuuint64_t *id, CUgraph *graph,
                                const CUgraphNode **dependencies,
                                const CUgraphEdgeData **edgeData,
                                size_t *dependencyCount) {
  ENTER("cuStreamGetCaptureInfo");
  if (CUresult result = checkStream(stream))
    return result;
  if (implicitlyCaptured(stream))
    return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
  // The graph and its dependencies are not faked: the runtime asks for none.
  if (graph || dependencies || edgeData || dependencyCount)
    return CUDA_ERROR_INVALID_VALUE;
  bool capturing = !isSpecial(stream) && stream->capturing;
  *status = capturing ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                      : CU_STREAM_CAPTURE_STATUS_NONE;
  if (capturing && id)
    *id = stream->captureId;
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned int flags) {
  ENTER("cuEventCreate");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  events.push_back({current(), current()->driverId, flags, false, nullptr, 0,
                    0, false, false});
  *event = &events.back();
  driver().events.push_back(*event);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  ENTER("cuEventRecord");
  if (CUresult result = checkEvent(event))
    return result;
  if (CUresult result = checkStream(stream))
    return result;
  event->recorded = true;
  event->stream = stream;
  event->time = driver().now;
  event->sequence = static_cast<long>(driver().records.size());
  event->complete = driver().eventsCompleteWhenRecorded;
  event->captured = !isSpecial(stream) && stream->capturing;
  event->captureId = event->captured ? stream->captureId : 0;
  driver().records.push_back({event, stream, driver().nextOrder++});
  return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent event) {
  ENTER("cuEventQuery");
  if (CUresult result = checkEvent(event))
    return result;
  return !event->recorded || event->complete ? CUDA_SUCCESS
                                             : CUDA_ERROR_NOT_READY;
}

CUresult cuEventSynchronize(CUevent event) {
  ENTER("cuEventSynchronize");
  if (CUresult result = checkEvent(event))
    return result;
  if (!event->recorded)
    return CUDA_SUCCESS;
  for (CUevent earlier : driver().events)
    if (earlier->recorded && earlier->stream == event->stream &&
        earlier->sequence <= event->sequence)
      earlier->complete = true;
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *milliseconds, CUevent start, CUevent end) {
  ENTER("cuEventElapsedTime");
  if (CUresult result = checkEvent(start))
    return result;
  if (CUresult result = checkEvent(end))
    return result;
  if (!start->recorded || !end->recorded ||
      ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING))
    return CUDA_ERROR_INVALID_HANDLE;
  if (!start->complete || !end->complete)
    return CUDA_ERROR_NOT_READY;
  *milliseconds = static_cast<float>(end->time - start->time);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  ENTER("cuEventDestroy");
  if (event->destroyed || event->contextId != event->context->driverId)
    return CUDA_ERROR_INVALID_HANDLE;
  event->destroyed = true;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int numOptions, CUjit_option *options,
                            void **values) {
  std::lock_guard<std::recursive_mutex> lock(driverMutex);
  CUresult result = enter("cuModuleLoadDataEx");
  int level = -1;
  char *log = nullptr;
  void **logSize = nullptr;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_OPTIMIZATION_LEVEL)
      level = static_cast<int>(reinterpret_cast<intptr_t>(values[i]));
    else if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      log = static_cast<char *>(values[i]);
    else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      logSize = &values[i];
    else
      return CUDA_ERROR_INVALID_VALUE;
  }
  if (!log != !logSize)
    return CUDA_ERROR_INVALID_VALUE;
  if (result != CUDA_SUCCESS) {
    // Like the driver: at most size - 1 bytes and a NUL; the size option
    // answers the bytes written.
    if (log) {
      size_t size = reinterpret_cast<uintptr_t>(*logSize);
      size_t length = 0;
      if (size > 0) {
        length = std::min(size - 1, driver().moduleLoadErrorLog.size());
        std::memcpy(log, driver().moduleLoadErrorLog.data(), length);
        log[length] = '\0';
      }
      *logSize = reinterpret_cast<void *>(static_cast<uintptr_t>(
          size > 0 ? length + 1 : 0));
    }
    return result;
  }
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  modules.push_back({current(), current()->driverId, image, level});
  *module = &modules.back();
  driver().loaded.push_back(*module);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  ENTER("cuModuleGetFunction");
  if (module->context != current())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!inCurrentContext(module))
    return CUDA_ERROR_INVALID_HANDLE;
  functions.push_back({module, name, 48 * 1024, false});
  *function = &functions.back();
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
  ENTER("cuModuleUnload");
  if (module->context != current())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!inCurrentContext(module))
    return CUDA_ERROR_INVALID_HANDLE;
  driver().unloaded.push_back(module);
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute,
                            int value) {
  ENTER("cuFuncSetAttribute");
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    function->maxDynamicSharedBytes = value;
  else if (attribute == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)
    function->nonPortableClusterSize = value != 0;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridX, unsigned int gridY,
                        unsigned int gridZ, unsigned int blockX,
                        unsigned int blockY, unsigned int blockZ,
                        unsigned int smem, CUstream stream, void **params,
                        void **) {
  ENTER("cuLaunchKernel");
  return launch(f, {gridX, gridY, gridZ}, {blockX, blockY, blockZ}, {1, 1, 1},
                smem, stream, params);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **,
                          void **) {
  ENTER("cuLaunchKernelEx");
  unsigned cluster[3] = {1, 1, 1};
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    if (config->attrs[i].id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      return CUDA_ERROR_INVALID_VALUE;
    cluster[0] = config->attrs[i].value.clusterDim.x;
    cluster[1] = config->attrs[i].value.clusterDim.y;
    cluster[2] = config->attrs[i].value.clusterDim.z;
  }
  return launch(f, {config->gridDimX, config->gridDimY, config->gridDimZ},
                {config->blockDimX, config->blockDimY, config->blockDimZ},
                cluster, config->sharedMemBytes, config->hStream, nullptr);
}

CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t size, CUstream stream) {
  ENTER("cuMemAllocAsync");
  if (CUresult result = checkStream(stream))
    return result;
  *ptr = reinterpret_cast<CUdeviceptr>(std::malloc(size));
  driver().lastMemoryStream = stream;
  CUcontext context = isSpecial(stream) ? current() : stream->context;
  driver().allocations[*ptr] = {size, context->device, false};
  return CUDA_SUCCESS;
}

CUresult cuMemFreeAsync(CUdeviceptr ptr, CUstream stream) {
  ENTER("cuMemFreeAsync");
  if (CUresult result = checkStream(stream))
    return result;
  std::free(reinterpret_cast<void *>(ptr));
  driver().lastMemoryStream = stream;
  driver().allocations.erase(ptr);
  return CUDA_SUCCESS;
}

CUresult cuPointerGetAttributes(unsigned numAttributes,
                                CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr) {
  ENTER("cuPointerGetAttributes");
  // Like the driver: a pointer it does not know gets default values.
  const fakecuda::Allocation *found = nullptr;
  auto &allocations = driver().allocations;
  auto it = allocations.upper_bound(ptr);
  if (it != allocations.begin() && ptr < std::prev(it)->first +
                                             std::prev(it)->second.size)
    found = &std::prev(it)->second;
  for (unsigned i = 0; i < numAttributes; ++i) {
    switch (attributes[i]) {
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *static_cast<unsigned *>(data[i]) = found ? CU_MEMORYTYPE_DEVICE : 0;
      break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      *static_cast<unsigned *>(data[i]) = found && found->managed;
      break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *static_cast<int *>(data[i]) = found ? found->device : -2;
      break;
    default:
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return CUDA_SUCCESS;
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t size,
                       CUstream stream) {
  ENTER("cuMemcpyAsync");
  if (CUresult result = checkStream(stream))
    return result;
  // The real driver does not promise memmove semantics.
  if (dst < src + size && src < dst + size)
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
              size);
  driver().lastMemoryStream = stream;
  return CUDA_SUCCESS;
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *copy, CUstream stream) {
  ENTER("cuMemcpy2DAsync");
  if (CUresult result = checkStream(stream))
    return result;
  // Only what the runtime uses: unified addresses, no array or X/Y origin.
  if (copy->srcMemoryType != CU_MEMORYTYPE_UNIFIED ||
      copy->dstMemoryType != CU_MEMORYTYPE_UNIFIED || copy->srcXInBytes ||
      copy->srcY || copy->dstXInBytes || copy->dstY ||
      copy->srcPitch < copy->WidthInBytes ||
      copy->dstPitch < copy->WidthInBytes)
    return CUDA_ERROR_INVALID_VALUE;
  size_t rows = copy->Height;
  CUdeviceptr src = copy->srcDevice, dst = copy->dstDevice;
  // Like cuMemcpyAsync here: overlapping spans are the caller's bug.
  if (rows && dst < src + (rows - 1) * copy->srcPitch + copy->WidthInBytes &&
      src < dst + (rows - 1) * copy->dstPitch + copy->WidthInBytes)
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t row = 0; row < rows; ++row)
    std::memcpy(reinterpret_cast<void *>(dst + row * copy->dstPitch),
                reinterpret_cast<void *>(src + row * copy->srcPitch),
                copy->WidthInBytes);
  driver().lastMemoryStream = stream;
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count,
                          CUstream stream) {
  return fill("cuMemsetD32Async", dst, value, count, stream);
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream stream) {
  return fill("cuMemsetD16Async", dst, value, count, stream);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count,
                         CUstream stream) {
  return fill("cuMemsetD8Async", dst, value, count, stream);
}

CUresult cuMemHostRegister(void *ptr, size_t size, unsigned int flags) {
  ENTER("cuMemHostRegister");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  auto &registered = driver().registeredHostMemory;
  if (registered.count(reinterpret_cast<uintptr_t>(ptr)))
    return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  registered[reinterpret_cast<uintptr_t>(ptr)] = {size, flags};
  return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *ptr) {
  ENTER("cuMemHostUnregister");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!driver().registeredHostMemory.erase(reinterpret_cast<uintptr_t>(ptr)))
    return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  return CUDA_SUCCESS;
}

CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t size, unsigned int flags) {
  ENTER("cuMemAllocManaged");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
    return CUDA_ERROR_INVALID_VALUE;
  *ptr = reinterpret_cast<CUdeviceptr>(std::malloc(size));
  driver().allocations[*ptr] = {size, current()->device, true};
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr ptr) {
  ENTER("cuMemFree");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  auto it = driver().allocations.find(ptr);
  if (it == driver().allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  driver().allocations.erase(it);
  std::free(reinterpret_cast<void *>(ptr));
  return CUDA_SUCCESS;
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType dataType,
                                cuuint32_t rank, void *address,
                                const cuuint64_t *dims,
                                const cuuint64_t *strides,
                                const cuuint32_t *box,
                                const cuuint32_t *elementStrides,
                                CUtensorMapInterleave, CUtensorMapSwizzle,
                                CUtensorMapL2promotion,
                                CUtensorMapFloatOOBfill) {
  ENTER("cuTensorMapEncodeTiled");
  // What the real encoder checks first: a 16-byte aligned address and
  // pitches, a box of at most 256 elements per dimension.
  if (rank < 1 || rank > 5 || reinterpret_cast<uintptr_t>(address) % 16)
    return CUDA_ERROR_INVALID_VALUE;
  fakecuda::TensorMapRequest request{dataType, rank, address, {}, {}, {}};
  for (cuuint32_t i = 0; i < rank; ++i) {
    if (box[i] > 256 || elementStrides[i] != 1)
      return CUDA_ERROR_INVALID_VALUE;
    request.dims.push_back(dims[i]);
    request.box.push_back(box[i]);
    if (i + 1 < rank) {
      if (strides[i] % 16)
        return CUDA_ERROR_INVALID_VALUE;
      request.strides.push_back(strides[i]);
    }
  }
  driver().tensorMaps.push_back(request);
  // The "encoding", deterministic like the real one: the address, the
  // dimensions and the box.
  std::memset(map, 0, sizeof(*map));
  char *bytes = reinterpret_cast<char *>(map);
  std::memcpy(bytes, &address, sizeof(address));
  std::memcpy(bytes + 8, dims, rank * sizeof(cuuint64_t));
  std::memcpy(bytes + 48, box, rank * sizeof(cuuint32_t));
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *ptr, size_t size) {
  ENTER("cuMemAlloc");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  *ptr = reinterpret_cast<CUdeviceptr>(std::malloc(size));
  driver().allocations[*ptr] = {size, current()->device, false};
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t size) {
  ENTER("cuMemcpyHtoD");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  std::memcpy(reinterpret_cast<void *>(dst), src, size);
  return CUDA_SUCCESS;
}
