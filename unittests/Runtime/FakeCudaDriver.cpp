//===- FakeCudaDriver.cpp - A CUDA driver without a GPU, for tests --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriverInternal.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

using namespace fakecuda;
using namespace fakecuda::internal;

std::recursive_mutex fakecuda::internal::driverMutex;

// The driver's state outlives every user, as the real driver's does: a
// program library that the runtime made load modules unloads them from its
// destructors at exit, which may run after this library's (the runtime
// opens it at its first use, after the program library was loaded). So
// nothing here has a destructor that runs: the state is allocated once and
// never freed (and stays reachable), and each thread's context stack is a
// fixed array.
namespace {
/// The calling thread's stack of current contexts (cuCtxPushCurrent).
struct ContextStack {
  static constexpr int kCapacity = 64;
  CUcontext entries[kCapacity];
  int depth;
  bool empty() const { return depth == 0; }
  CUcontext back() const { return entries[depth - 1]; }
  void clear() { depth = 0; }
  void pop_back() { --depth; }
  void push_back(CUcontext context) {
    if (depth == kCapacity) {
      fprintf(stderr, "fake CUDA driver: more than %d contexts pushed\n",
              kCapacity);
      abort();
    }
    entries[depth++] = context;
  }
};
thread_local ContextStack contextStack{};
thread_local CUstreamCaptureMode threadMode = CU_STREAM_CAPTURE_MODE_GLOBAL;
// Ids as cuCtxGetId answers them: distinct from the test's indices.
constexpr unsigned long long kFirstContextId = 100;
CUctx_st contexts[4] = {{0, 0, kFirstContextId},
                        {1, 0, kFirstContextId + 1},
                        {2, 1, kFirstContextId + 2},
                        {3, 1, kFirstContextId + 3}};
unsigned long long nextContextId = kFirstContextId + 4;
std::deque<CUstream_st> &streams = *new std::deque<CUstream_st>();
std::deque<CUfunc_st> &functions = *new std::deque<CUfunc_st>();
std::deque<CUmod_st> &modules = *new std::deque<CUmod_st>();
std::deque<CUevent_st> &events = *new std::deque<CUevent_st>();
} // namespace

CUcontext fakecuda::internal::current() {
  return contextStack.empty() ? nullptr : contextStack.back();
}

bool fakecuda::internal::isSpecial(CUstream stream) {
  return reinterpret_cast<uintptr_t>(stream) <= 2;
}

namespace {

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
  auto limit = driver().maxThreadsPerBlock.find(f->name);
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  if (!grid[0] || !grid[1] || !grid[2] || !threads || block[0] > 1024 ||
      block[1] > 1024 || block[2] > 64 || grid[0] > 0x7fffffffu ||
      grid[1] > 65535 || grid[2] > 65535 ||
      threads > uint64_t(limit == driver().maxThreadsPerBlock.end()
                             ? 1024
                             : limit->second))
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
  static Driver &instance = *new Driver();
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

CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute,
                            CUfunction function) {
  ENTER("cuFuncGetAttribute");
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
    return CUDA_ERROR_INVALID_VALUE;
  auto limit = driver().maxThreadsPerBlock.find(function->name);
  *value = limit == driver().maxThreadsPerBlock.end() ? 1024 : limit->second;
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
