//===- CudaHostMemoryTest.cpp - Host registration on the fake driver ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Host memory against FakeCudaDriver.cpp: mgpuMemHostRegister* covers the
// bytes of a memref (portably), host-shared mgpuMemAlloc is managed memory
// freed after its stream, mgpuSetDefaultDevice picks a primary context;
// none of them is done while a graph capture forbids it.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "FakeCudaDriver.h"
#include "FakeDriverTest.h"
#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>

using namespace sdfgrt;
using fakecuda::driver;

namespace {

/// MLIR's descriptor of a rank-2 memref.
struct Descriptor2D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

using CudaHostMemoryTest = FakeDriverTest;

TEST_F(CudaHostMemoryTest, MemRefRegistrationCoversItsElements) {
  // A 3x4 view at offset 5 of a float matrix with rows 10 apart: from
  // element 5 to one past element 5 + 2 * 10 + 3.
  float matrix[40];
  Descriptor2D view{matrix, matrix, 5, {3, 4}, {10, 1}};
  mgpuMemHostRegisterMemRef(2, &view, sizeof(float));
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  auto &registered = driver().registeredHostMemory;
  ASSERT_EQ(registered.size(), 1u);
  EXPECT_EQ(registered.begin()->first, reinterpret_cast<uintptr_t>(matrix + 5));
  EXPECT_EQ(registered.begin()->second.size, (2 * 10 + 3 + 1) * sizeof(float));
  EXPECT_EQ(registered.begin()->second.flags,
            unsigned(CU_MEMHOSTREGISTER_PORTABLE));

  mgpuMemHostUnregisterMemRef(2, &view, sizeof(float));
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_TRUE(registered.empty());
}

TEST_F(CudaHostMemoryTest, RawRegistrationAndItsErrors) {
  char buffer[64];
  mgpuMemHostRegister(buffer, sizeof(buffer));
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  sdfgrtSetLocation("host.mlir:4:3");
  mgpuMemHostRegister(buffer, sizeof(buffer));
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  EXPECT_NE(std::strstr(sdfgrtGetLastError(), "cuMemHostRegister failed"),
            nullptr)
      << sdfgrtGetLastError();
  EXPECT_NE(std::strstr(sdfgrtGetLastError(), "at host.mlir:4:3"), nullptr);
  mgpuMemHostUnregister(buffer);
  EXPECT_TRUE(driver().registeredHostMemory.empty());
}

TEST_F(CudaHostMemoryTest, EmptyMemRefRegistersNothing) {
  float data[1];
  Descriptor2D empty{data, data, 0, {0, 4}, {4, 1}};
  mgpuMemHostRegisterMemRef(2, &empty, sizeof(float));
  mgpuMemHostRegister(nullptr, 16);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0);
  EXPECT_EQ(driver().totalCalls(), 0);
}

TEST_F(CudaHostMemoryTest, RegistrationIsRefusedWhileAStreamIsCaptured) {
  CUstream captured = fakecuda::createStream(fakecuda::context(1));
  captured->capturing = true;
  char buffer[16];
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:7:3");
  mgpuMemHostRegister(buffer, sizeof(buffer));
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "mgpuMemHostRegister: host memory cannot be registered or "
               "unregistered while a stream is being captured into a graph; "
               "do it before the capture begins at prog.mlir:7:3");
  EXPECT_EQ(driver().count("cuMemHostRegister"), 0);

  captured->capturing = false;
  sdfgrtClearError();
  mgpuMemHostRegister(buffer, sizeof(buffer));
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuMemHostRegister"), 1);
}

TEST_F(CudaHostMemoryTest, HostSharedAllocationIsManagedAndFreedAfterItsStream) {
  CUstream stream = fakecuda::createStream(fakecuda::context(1));
  void *shared = mgpuMemAlloc(256, stream, true);
  ASSERT_NE(shared, nullptr) << sdfgrtGetLastError();
  auto it = driver().allocations.find(reinterpret_cast<uintptr_t>(shared));
  ASSERT_NE(it, driver().allocations.end());
  EXPECT_TRUE(it->second.managed);
  EXPECT_EQ(driver().count("cuMemAllocAsync"), 0);
  // Host and device may use it at once.
  static_cast<char *>(shared)[255] = 1;

  mgpuMemFree(shared, stream);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuStreamSynchronize"), 1);
  EXPECT_EQ(driver().count("cuMemFree"), 1);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 0);
  EXPECT_EQ(driver().count("cuCtxSynchronize"), 0);
  EXPECT_TRUE(driver().allocations.empty());

  // Device memory is still freed in stream order.
  void *device = mgpuMemAlloc(64, stream, false);
  mgpuMemFree(device, stream);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 1);
  EXPECT_EQ(driver().count("cuMemFree"), 1);
}

TEST_F(CudaHostMemoryTest, HostSharedMemoryIsRefusedWhileCapturing) {
  CUstream stream = fakecuda::createStream(fakecuda::context(1));
  void *shared = mgpuMemAlloc(16, stream, true);
  ASSERT_NE(shared, nullptr);
  stream->capturing = true;
  sdfgrtSetLocation("prog.mlir:9:1");
  EXPECT_EQ(mgpuMemAlloc(16, stream, true), nullptr);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "mgpuMemAlloc: host-shared (managed) memory is not "
               "stream-ordered and cannot be allocated or freed while the "
               "stream is being captured into a graph at prog.mlir:9:1");
  sdfgrtClearError();
  mgpuMemFree(shared, stream);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_EQ(driver().count("cuMemAllocManaged"), 1);
  EXPECT_EQ(driver().count("cuMemFree"), 0);

  // Still known as host-shared: freed properly once the capture ended.
  stream->capturing = false;
  sdfgrtClearError();
  mgpuMemFree(shared, stream);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuMemFree"), 1);
}

TEST_F(CudaHostMemoryTest, TensorMapDescribesTheViewInnermostFirst) {
  // A 16x32 tile box of a 64x128 f32 view starting at row 2 of a 66-row
  // buffer (CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7).
  alignas(64) static float buffer[66 * 128];
  Descriptor2D view{buffer, buffer, 2 * 128, {64, 128}, {128, 1}};
  int64_t box[] = {16, 32};
  void *device = mgpuTensorMapEncodeTiledMemref(2, &view, 7, 0, 0, 0, 0, box);
  ASSERT_NE(device, nullptr) << sdfgrtGetLastError();
  ASSERT_EQ(driver().tensorMaps.size(), 1u);
  const fakecuda::TensorMapRequest &request = driver().tensorMaps[0];
  EXPECT_EQ(request.address, buffer + 2 * 128);
  EXPECT_EQ(request.dims, (std::vector<unsigned long long>{128, 64}));
  EXPECT_EQ(request.strides, (std::vector<unsigned long long>{128 * 4}));
  EXPECT_EQ(request.box, (std::vector<unsigned>{32, 16}));
  // The kernels read the descriptor from device memory.
  EXPECT_EQ(driver().count("cuMemAlloc"), 1);
  EXPECT_EQ(driver().count("cuMemcpyHtoD"), 1);

  // The same descriptor at the next call: the same copy, nothing allocated.
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, &view, 7, 0, 0, 0, 0, box),
            device);
  EXPECT_EQ(driver().count("cuMemAlloc"), 1);
}

TEST_F(CudaHostMemoryTest, TensorMapIsRefusedWhileCapturing) {
  CUstream captured = fakecuda::createStream(fakecuda::context(1));
  captured->capturing = true;
  alignas(64) static float buffer[64];
  Descriptor2D view{buffer, buffer, 0, {8, 8}, {8, 1}};
  int64_t box[] = {8, 8};
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, &view, 7, 0, 0, 0, 0, box),
            nullptr);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_NE(std::strstr(sdfgrtGetLastError(), "being captured"), nullptr)
      << sdfgrtGetLastError();
  EXPECT_EQ(driver().count("cuTensorMapEncodeTiled"), 0);
}

TEST_F(CudaHostMemoryTest, DefaultDeviceChoosesThePrimaryContext) {
  // No context is current: default-stream work runs in the default
  // device's primary context (device 1 here: fake contexts 2 and 3).
  mgpuSetDefaultDevice(1);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  int32_t device = -1;
  EXPECT_EQ(sdfgrtStreamDevice(nullptr, &device), 0) << sdfgrtGetLastError();
  EXPECT_EQ(device, 1);
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
}

TEST_F(CudaHostMemoryTest, UnknownDefaultDeviceIsAnError) {
  mgpuSetDefaultDevice(7);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_NE(std::strstr(sdfgrtGetLastError(), "cuDeviceGet failed"), nullptr)
      << sdfgrtGetLastError();
}

} // namespace
