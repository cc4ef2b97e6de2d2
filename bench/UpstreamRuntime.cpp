//===- UpstreamRuntime.cpp - Upstream MLIR's mgpu* ABI, for comparison ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What code lowered by upstream MLIR 22 alone (gpu-to-llvm, gpu-async-region)
// calls at run time, implemented the way upstream's CudaRuntimeWrappers.cpp
// does it (mlir/lib/ExecutionEngine), which Debian's MLIR 22 does not ship:
//
//  - every entry point that needs a context pushes device 0's primary
//    context and pops it again (upstream's ScopedContext);
//  - mgpuStreamCreate is cuStreamCreate(CU_STREAM_NON_BLOCKING);
//  - mgpuModuleGetFunction calls cuModuleGetFunction, and generated code
//    calls it before every launch;
//  - mgpuMemAlloc/mgpuMemFree are cuMemAlloc/cuMemFree: synchronous, the
//    stream is ignored; mgpuMemcpy/Memset are the *Async driver calls;
//  - failures are printed to stderr and otherwise ignored.
//
// The benchmark links this runtime and SDFGStream's into one executable, so
// every name carries the prefix `upstream_`: bench/CMakeLists.txt renames
// the mgpu* references of the upstream-lowered objects to match (objcopy
// --redefine-sym), and the ratios are then measured within one process.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>

#define UPSTREAM(name) upstream_##name

namespace {

void reportIfError(CUresult result, const char *expression) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  fprintf(stderr, "'%s' failed with '%s' (%d)\n", expression,
          name ? name : "<unknown>", static_cast<int>(result));
}
#define CUDA_REPORT_IF_ERROR(expression) reportIfError((expression), #expression)

/// Device 0's primary context, current for the lifetime of the object
/// (upstream: `ScopedContext`, pushed and popped around each call).
class ScopedContext {
public:
  ScopedContext() {
    static CUcontext context = [] {
      CUDA_REPORT_IF_ERROR(cuInit(0));
      CUdevice device;
      CUDA_REPORT_IF_ERROR(cuDeviceGet(&device, 0));
      CUcontext primary = nullptr;
      CUDA_REPORT_IF_ERROR(cuDevicePrimaryCtxRetain(&primary, device));
      return primary;
    }();
    CUDA_REPORT_IF_ERROR(cuCtxPushCurrent(context));
  }
  ~ScopedContext() { CUDA_REPORT_IF_ERROR(cuCtxPopCurrent(nullptr)); }
};

} // namespace

extern "C" {

CUmodule UPSTREAM(mgpuModuleLoad)(void *data, size_t /*gpuBlobSize*/) {
  ScopedContext scopedContext;
  CUmodule module = nullptr;
  CUDA_REPORT_IF_ERROR(cuModuleLoadData(&module, data));
  return module;
}

CUmodule UPSTREAM(mgpuModuleLoadJIT)(void *data, int optLevel) {
  ScopedContext scopedContext;
  CUmodule module = nullptr;
  CUjit_option option = CU_JIT_OPTIMIZATION_LEVEL;
  void *value = reinterpret_cast<void *>(static_cast<intptr_t>(optLevel));
  CUDA_REPORT_IF_ERROR(cuModuleLoadDataEx(&module, data, 1, &option, &value));
  return module;
}

void UPSTREAM(mgpuModuleUnload)(CUmodule module) {
  // Called from a global destructor. At process exit the driver may already
  // be shut down, when even cuGetErrorName fails (upstream's wrapper then
  // prints "failed with '<unknown>'"); that is not a benchmark error.
  CUresult result = cuModuleUnload(module);
  const char *name = nullptr;
  if (result != CUDA_ERROR_DEINITIALIZED &&
      cuGetErrorName(result, &name) == CUDA_SUCCESS)
    CUDA_REPORT_IF_ERROR(result);
}

CUfunction UPSTREAM(mgpuModuleGetFunction)(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  CUDA_REPORT_IF_ERROR(cuModuleGetFunction(&function, module, name));
  return function;
}

void UPSTREAM(mgpuLaunchKernel)(CUfunction function, intptr_t gridX,
                                intptr_t gridY, intptr_t gridZ,
                                intptr_t blockX, intptr_t blockY,
                                intptr_t blockZ, int32_t smem, CUstream stream,
                                void **params, void **extra,
                                size_t /*paramsCount*/) {
  ScopedContext scopedContext;
  if (smem > 0) {
    // Upstream opts into large dynamic shared memory first.
    CUdevice device;
    CUDA_REPORT_IF_ERROR(cuCtxGetDevice(&device));
    int maxShmem = 0;
    CUDA_REPORT_IF_ERROR(cuDeviceGetAttribute(
        &maxShmem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        device));
    if (maxShmem < smem)
      fprintf(stderr, "Requested shared memory (%dkb) is larger than maximum "
                      "allowed shared memory (%dkb) for this device\n",
              smem, maxShmem);
    CUDA_REPORT_IF_ERROR(cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
  }
  CUDA_REPORT_IF_ERROR(cuLaunchKernel(function, gridX, gridY, gridZ, blockX,
                                      blockY, blockZ, smem, stream, params,
                                      extra));
}

CUstream UPSTREAM(mgpuStreamCreate)() {
  ScopedContext scopedContext;
  CUstream stream = nullptr;
  CUDA_REPORT_IF_ERROR(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

void UPSTREAM(mgpuStreamDestroy)(CUstream stream) {
  CUDA_REPORT_IF_ERROR(cuStreamDestroy(stream));
}

void UPSTREAM(mgpuStreamSynchronize)(CUstream stream) {
  CUDA_REPORT_IF_ERROR(cuStreamSynchronize(stream));
}

void UPSTREAM(mgpuStreamWaitEvent)(CUstream stream, CUevent event) {
  CUDA_REPORT_IF_ERROR(cuStreamWaitEvent(stream, event, 0));
}

CUevent UPSTREAM(mgpuEventCreate)() {
  ScopedContext scopedContext;
  CUevent event = nullptr;
  CUDA_REPORT_IF_ERROR(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

void UPSTREAM(mgpuEventDestroy)(CUevent event) {
  CUDA_REPORT_IF_ERROR(cuEventDestroy(event));
}

void UPSTREAM(mgpuEventSynchronize)(CUevent event) {
  CUDA_REPORT_IF_ERROR(cuEventSynchronize(event));
}

void UPSTREAM(mgpuEventRecord)(CUevent event, CUstream stream) {
  CUDA_REPORT_IF_ERROR(cuEventRecord(event, stream));
}

void *UPSTREAM(mgpuMemAlloc)(uint64_t sizeBytes, CUstream /*stream*/,
                             bool isHostShared) {
  ScopedContext scopedContext;
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared)
    CUDA_REPORT_IF_ERROR(
        cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL));
  else
    CUDA_REPORT_IF_ERROR(cuMemAlloc(&ptr, sizeBytes));
  return reinterpret_cast<void *>(ptr);
}

void UPSTREAM(mgpuMemFree)(void *ptr, CUstream /*stream*/) {
  CUDA_REPORT_IF_ERROR(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

void UPSTREAM(mgpuMemcpy)(void *dst, void *src, size_t sizeBytes,
                          CUstream stream) {
  CUDA_REPORT_IF_ERROR(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                     reinterpret_cast<CUdeviceptr>(src),
                                     sizeBytes, stream));
}

void UPSTREAM(mgpuMemset32)(void *dst, unsigned int value, size_t count,
                            CUstream stream) {
  CUDA_REPORT_IF_ERROR(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst),
                                        value, count, stream));
}

void UPSTREAM(mgpuMemset16)(void *dst, unsigned short value, size_t count,
                            CUstream stream) {
  CUDA_REPORT_IF_ERROR(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst),
                                        value, count, stream));
}

} // extern "C"
