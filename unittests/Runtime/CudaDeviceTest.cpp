//===- CudaDeviceTest.cpp - CUDA runtime on a real GPU --------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The installed CUDA runtime library (its C ABI only) driving a real GPU:
// kernels from PTX, stream-ordered memory, a second context, capture into
// a CUDA graph, and stream slots forked from the caller's stream (also
// during a capture, where they become the graph's parallel branches). The test
// plays the framework that owns the contexts and streams, so it reaches the
// driver itself (dlopen, like the runtime). Every test is skipped where
// libcuda.so.1 or a device is missing.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "gtest/gtest.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

// fill(uint32_t *out, uint32_t value, uint32_t n): out[i] = value for i < n.
const char kFillPtx[] = R"ptx(
.version 7.0
.target sm_70
.address_size 64

.visible .entry fill(.param .u64 out, .param .u32 value, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<7>;
  .reg .b64 %rd<5>;

  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [value];
  ld.param.u32 %r2, [n];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  setp.ge.u32 %p1, %r6, %r2;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
DONE:
  ret;
}
)ptx";

#define DRIVER_FUNCTIONS(X)                                                    \
  X(cuInit)                                                                    \
  X(cuDeviceGet)                                                               \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxCreate)                                                               \
  X(cuCtxDestroy)                                                              \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuGraphGetRootNodes)                                                       \
  X(cuGraphInstantiate)                                                        \
  X(cuGraphLaunch)                                                             \
  X(cuGraphExecDestroy)                                                        \
  X(cuGraphDestroy)

#define STRINGIFY_IMPL(x) #x
#define STRINGIFY(x) STRINGIFY_IMPL(x)

/// The driver as the framework around the program uses it.
struct Driver {
#define DECLARE(name) decltype(&::name) name = nullptr;
  DRIVER_FUNCTIONS(DECLARE)
#undef DECLARE

  bool load() {
    void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return false;
#define RESOLVE(function)                                                      \
  function = reinterpret_cast<decltype(function)>(                             \
      dlsym(handle, STRINGIFY(function)));                                     \
  if (!function)                                                               \
    return false;
    DRIVER_FUNCTIONS(RESOLVE)
#undef RESOLVE
    return cuInit(0) == CUDA_SUCCESS;
  }
};

constexpr uint32_t kCount = 1000;

class CudaDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    static bool available = driver.load();
    if (!available)
      GTEST_SKIP() << "no CUDA driver or device";
    CUdevice device;
    ASSERT_EQ(driver.cuDeviceGet(&device, 0), CUDA_SUCCESS);
    ASSERT_EQ(driver.cuDevicePrimaryCtxRetain(&primary, device), CUDA_SUCCESS);
    ASSERT_EQ(driver.cuCtxPushCurrent(primary), CUDA_SUCCESS);
    ASSERT_EQ(driver.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
              CUDA_SUCCESS);
    module = mgpuModuleLoad(const_cast<char *>(kFillPtx), sizeof(kFillPtx));
    sdfgrtClearError();
  }

  void TearDown() override {
    if (!stream)
      return;
    mgpuModuleUnload(module);
    EXPECT_EQ(driver.cuStreamDestroy(stream), CUDA_SUCCESS);
    CUcontext popped;
    EXPECT_EQ(driver.cuCtxPopCurrent(&popped), CUDA_SUCCESS);
  }

  void fill(void *out, uint32_t value, void *onStream, int32_t smem = 0,
            intptr_t block = 256) {
    uint32_t n = kCount;
    void *params[] = {&out, &value, &n};
    mgpuLaunchKernel(mgpuModuleGetFunction(module, "fill"),
                     (kCount + 255) / 256, 1, 1, block, 1, 1, smem, onStream,
                     params, nullptr, 3);
  }

  std::vector<uint32_t> read(void *device) {
    std::vector<uint32_t> host(kCount);
    mgpuMemcpy(host.data(), device, kCount * 4, stream);
    mgpuStreamSynchronize(stream);
    return host;
  }

  static Driver driver;
  CUcontext primary = nullptr;
  CUstream stream = nullptr;
  void *module = nullptr;
};
Driver CudaDeviceTest::driver;

TEST_F(CudaDeviceTest, KernelsAndMemoryOnTheCallersStream) {
  sdfgrtBeginCall();
  void *data = mgpuMemAlloc(kCount * 4, stream, false);
  mgpuMemset32(data, 0, kCount, stream);
  fill(data, 42, stream);
  std::vector<uint32_t> host = read(data);
  mgpuMemFree(data, stream);
  mgpuStreamSynchronize(stream);
  ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(host.front(), 42u);
  EXPECT_EQ(host.back(), 42u);
  EXPECT_EQ(sdfgrtLoadedModuleCount(), 1);
}

TEST_F(CudaDeviceTest, StreamOfAContextThatIsNotCurrent) {
  // A second context on the same device, with its own stream.
  CUcontext other;
  ASSERT_EQ(driver.cuCtxCreate(&other, nullptr, 0, 0), CUDA_SUCCESS);
  CUstream otherStream;
  ASSERT_EQ(driver.cuStreamCreate(&otherStream, CU_STREAM_NON_BLOCKING),
            CUDA_SUCCESS);
  CUcontext popped;
  ASSERT_EQ(driver.cuCtxPopCurrent(&popped), CUDA_SUCCESS);

  int64_t loadsBefore = sdfgrtLoadedModuleCount();
  sdfgrtBeginCall();
  void *data = mgpuMemAlloc(kCount * 4, otherStream, false);
  fill(data, 7, otherStream);
  std::vector<uint32_t> host(kCount);
  mgpuMemcpy(host.data(), data, kCount * 4, otherStream);
  mgpuMemFree(data, otherStream);
  mgpuStreamSynchronize(otherStream);
  ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(host[kCount / 2], 7u);
  EXPECT_EQ(sdfgrtLoadedModuleCount(), loadsBefore + 1);

  // The framework's current context is untouched.
  CUcontext current;
  ASSERT_EQ(driver.cuCtxGetCurrent(&current), CUDA_SUCCESS);
  EXPECT_EQ(current, primary);

  // Unloading visits both contexts.
  void *data2 = mgpuMemAlloc(kCount * 4, stream, false);
  fill(data2, 9, stream);
  EXPECT_EQ(read(data2)[0], 9u);
  mgpuMemFree(data2, stream);
  mgpuModuleUnload(module);
  module = nullptr;
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();

  ASSERT_EQ(driver.cuCtxPushCurrent(other), CUDA_SUCCESS);
  EXPECT_EQ(driver.cuStreamDestroy(otherStream), CUDA_SUCCESS);
  ASSERT_EQ(driver.cuCtxPopCurrent(&popped), CUDA_SUCCESS);
  EXPECT_EQ(driver.cuCtxDestroy(other), CUDA_SUCCESS);
}

TEST_F(CudaDeviceTest, LargeDynamicSharedMemory) {
  void *data = mgpuMemAlloc(kCount * 4, stream, false);
  fill(data, 3, stream, 100 * 1024);
  EXPECT_EQ(read(data)[kCount - 1], 3u);
  mgpuMemFree(data, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaDeviceTest, DriverErrorIsReported) {
  void *data = mgpuMemAlloc(kCount * 4, stream, false);
  sdfgrtBeginCall();
  sdfgrtSetLocation("prog.mlir:12:5");
  fill(data, 1, stream, 0, /*block=*/4096);
  fill(data, 1, stream); // skipped
  EXPECT_EQ(sdfgrtEndCall(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid "
               "argument) at prog.mlir:12:5");
  mgpuMemFree(data, stream);
  mgpuStreamSynchronize(stream);
}

TEST_F(CudaDeviceTest, OverlappingCopyIsAMemmove) {
  const size_t size = 8 << 20;
  std::vector<uint8_t> initial(size), actual(size);
  for (size_t i = 0; i < size; ++i)
    initial[i] = uint8_t(i * 131 + (i >> 8) * 7 + 1);
  auto *data = static_cast<uint8_t *>(mgpuMemAlloc(size, stream, false));
  for (size_t shift : {size_t(1), size_t(4097), size / 2 - 1}) {
    for (bool forward : {true, false}) {
      size_t length = size - shift;
      uint8_t *from = forward ? data : data + shift;
      uint8_t *to = forward ? data + shift : data;
      mgpuMemcpy(data, initial.data(), size, stream);
      mgpuMemcpy(to, from, length, stream);
      mgpuMemcpy(actual.data(), data, size, stream);
      mgpuStreamSynchronize(stream);
      std::vector<uint8_t> expected = initial;
      std::memmove(expected.data() + (to - data),
                   expected.data() + (from - data), length);
      EXPECT_TRUE(expected == actual)
          << "shift " << shift << (forward ? " forward" : " backward");
    }
  }
  mgpuMemFree(data, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaDeviceTest, CallIsCapturedIntoAGraph) {
  void *out = mgpuMemAlloc(kCount * 4, stream, false);
  fill(out, 0, stream); // loads the module before capture
  mgpuStreamSynchronize(stream);

  ASSERT_EQ(driver.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL),
            CUDA_SUCCESS);
  sdfgrtBeginCall();
  void *tmp = mgpuMemAlloc(kCount * 4, stream, false);
  mgpuMemset32(tmp, 0, kCount, stream);
  fill(tmp, 11, stream);
  mgpuMemcpy(out, tmp, kCount * 4, stream);
  mgpuMemFree(tmp, stream);
  int32_t status = sdfgrtEndCall();
  CUgraph graph = nullptr;
  ASSERT_EQ(driver.cuStreamEndCapture(stream, &graph), CUDA_SUCCESS);
  ASSERT_EQ(status, 0) << sdfgrtGetLastError();

  CUgraphExec exec;
  ASSERT_EQ(driver.cuGraphInstantiate(&exec, graph, 0), CUDA_SUCCESS);
  ASSERT_EQ(driver.cuGraphLaunch(exec, stream), CUDA_SUCCESS);
  ASSERT_EQ(driver.cuGraphLaunch(exec, stream), CUDA_SUCCESS);
  std::vector<uint32_t> host = read(out);
  EXPECT_EQ(host[0], 11u);
  EXPECT_EQ(host[kCount - 1], 11u);
  EXPECT_EQ(driver.cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(driver.cuGraphDestroy(graph), CUDA_SUCCESS);
  mgpuMemFree(out, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

TEST_F(CudaDeviceTest, FirstLaunchInsideACapture) {
  void *out = mgpuMemAlloc(kCount * 4, stream, false);
  mgpuStreamSynchronize(stream);
  ASSERT_EQ(driver.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL),
            CUDA_SUCCESS);
  sdfgrtBeginCall();
  fill(out, 5, stream); // loads the module while capturing
  int32_t status = sdfgrtEndCall();
  std::string error = sdfgrtGetLastError();
  CUgraph graph = nullptr;
  CUresult end = driver.cuStreamEndCapture(stream, &graph);
  EXPECT_EQ(status, 0) << error;
  ASSERT_EQ(end, CUDA_SUCCESS);
  CUgraphExec exec;
  ASSERT_EQ(driver.cuGraphInstantiate(&exec, graph, 0), CUDA_SUCCESS);
  ASSERT_EQ(driver.cuGraphLaunch(exec, stream), CUDA_SUCCESS);
  EXPECT_EQ(read(out)[0], 5u);
  EXPECT_EQ(driver.cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(driver.cuGraphDestroy(graph), CUDA_SUCCESS);
  mgpuMemFree(out, stream);
  mgpuStreamSynchronize(stream);
}

TEST_F(CudaDeviceTest, ForkedSlotsRunAfterTheCallerAndJoinBack) {
  constexpr int32_t kSlots = 3;
  sdfgrtBeginCall();
  void *out = mgpuMemAlloc(kSlots * kCount * 4, stream, false);
  mgpuMemset32(out, 0, kSlots * kCount, stream);
  void *slots[kSlots] = {};
  ASSERT_EQ(sdfgrtForkStreams(stream, kSlots, slots), 0)
      << sdfgrtGetLastError();
  for (int32_t k = 0; k < kSlots; ++k)
    fill(static_cast<uint32_t *>(out) + k * kCount, 20 + k, slots[k]);
  for (int32_t k = 1; k < kSlots; ++k)
    ASSERT_EQ(sdfgrtStreamWaitStream(stream, slots[k]), 0)
        << sdfgrtGetLastError();
  std::vector<uint32_t> host(kSlots * kCount);
  mgpuMemcpy(host.data(), out, host.size() * 4, stream);
  mgpuMemFree(out, stream);
  mgpuStreamSynchronize(stream);
  ASSERT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
  for (int32_t k = 0; k < kSlots; ++k) {
    EXPECT_EQ(host[k * kCount], uint32_t(20 + k));
    EXPECT_EQ(host[(k + 1) * kCount - 1], uint32_t(20 + k));
  }
}

TEST_F(CudaDeviceTest, SlotsForkedDuringACaptureAreParallelBranches) {
  // More slots than the earlier tests of this thread forked: some streams
  // are created during the capture, which is in global mode.
  constexpr int32_t kSlots = 6;
  void *out = mgpuMemAlloc(kSlots * kCount * 4, stream, false);
  fill(out, 0, stream); // loads the module before capture
  mgpuStreamSynchronize(stream);

  ASSERT_EQ(driver.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL),
            CUDA_SUCCESS);
  sdfgrtBeginCall();
  void *slots[kSlots] = {};
  int32_t forked = sdfgrtForkStreams(stream, kSlots, slots);
  for (int32_t k = 0; k < kSlots; ++k)
    fill(static_cast<uint32_t *>(out) + k * kCount, 30 + k, slots[k]);
  for (int32_t k = 1; k < kSlots; ++k)
    sdfgrtStreamWaitStream(stream, slots[k]);
  int32_t status = sdfgrtEndCall();
  std::string error = sdfgrtGetLastError();
  CUgraph graph = nullptr;
  // An unjoined slot would fail the end of the capture.
  CUresult end = driver.cuStreamEndCapture(stream, &graph);
  ASSERT_EQ(forked, 0) << error;
  ASSERT_EQ(status, 0) << error;
  ASSERT_EQ(end, CUDA_SUCCESS);
  // No fill depends on another: each is a root of the graph.
  size_t roots = 0;
  ASSERT_EQ(driver.cuGraphGetRootNodes(graph, nullptr, &roots), CUDA_SUCCESS);
  EXPECT_EQ(roots, size_t(kSlots));

  CUgraphExec exec;
  ASSERT_EQ(driver.cuGraphInstantiate(&exec, graph, 0), CUDA_SUCCESS);
  ASSERT_EQ(driver.cuGraphLaunch(exec, stream), CUDA_SUCCESS);
  std::vector<uint32_t> host(kSlots * kCount);
  mgpuMemcpy(host.data(), out, host.size() * 4, stream);
  mgpuStreamSynchronize(stream);
  for (int32_t k = 0; k < kSlots; ++k)
    EXPECT_EQ(host[k * kCount + kCount / 2], uint32_t(30 + k));
  EXPECT_EQ(driver.cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(driver.cuGraphDestroy(graph), CUDA_SUCCESS);
  mgpuMemFree(out, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
}

} // namespace
