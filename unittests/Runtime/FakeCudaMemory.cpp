//===- FakeCudaMemory.cpp - Memory operations of the fake driver ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The fake driver's memory: stream-ordered and managed allocations (host
// memory, with the device of the stream's context kept for
// cuPointerGetAttributes), copies and memsets run at once on host memory in
// the order they are made, host registration and TMA descriptors. Strict
// where the real driver may be lenient: overlapping copies are refused
// (the driver does not promise memmove).
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriverInternal.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>

using namespace fakecuda;
using namespace fakecuda::internal;

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

CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t size, CUstream stream) {
  ENTER("cuMemAllocAsync");
  if (CUresult result = checkStream(stream))
    return result;
  *ptr = reinterpret_cast<CUdeviceptr>(std::malloc(size));
  driver().lastMemoryStream = stream;
  CUcontext context = isSpecial(stream) ? current() : stream->context;
  driver().allocations[*ptr] = {size, context->device, false,
                                driver().nextBufferId++};
  return CUDA_SUCCESS;
}

CUresult cuMemFreeAsync(CUdeviceptr ptr, CUstream stream) {
  ENTER("cuMemFreeAsync");
  if (CUresult result = checkStream(stream))
    return result;
  std::free(reinterpret_cast<void *>(ptr));
  driver().lastMemoryStream = stream;
  driver().allocations.erase(ptr);
  driver().asyncFrees.push_back({ptr, stream, driver().nextOrder++});
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
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: {
      // Device allocations, and host memory registered with the driver.
      uint64_t id = found ? found->id : 0;
      auto &registered = driver().registeredHostMemory;
      auto host = registered.upper_bound(ptr);
      if (!found && host != registered.begin() &&
          ptr < std::prev(host)->first + std::prev(host)->second.size)
        id = std::prev(host)->second.id;
      *static_cast<unsigned long long *>(data[i]) = id;
      break;
    }
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
  registered[reinterpret_cast<uintptr_t>(ptr)] = {size, flags,
                                                 driver().nextBufferId++};
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
  driver().allocations[*ptr] = {size, current()->device, true,
                                driver().nextBufferId++};
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
  driver().allocations[*ptr] = {size, current()->device, false,
                                driver().nextBufferId++};
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t size) {
  ENTER("cuMemcpyHtoD");
  if (!current())
    return CUDA_ERROR_INVALID_CONTEXT;
  std::memcpy(reinterpret_cast<void *>(dst), src, size);
  return CUDA_SUCCESS;
}
