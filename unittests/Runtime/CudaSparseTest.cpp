//===- CudaSparseTest.cpp - Sparse entries against a fake cuSPARSE --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The CUDA runtime's sparse entries (Sparse*.cpp) on FakeCudaDriver and
// FakeCusparse: results computed through the MLIR ABI, the handle set to
// the caller's stream before every operation, one handle per context and
// thread, made in its context, and failures reported with cuSPARSE's error
// name and the op's location.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "FakeCudaDriver.h"
#include "FakeCusparse.h"
#include "FakeDriverTest.h"
#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace sdfgrt;
using fakecusparse::library;

namespace {

// The codes MLIR's lowering passes (cusparseIndexType_t, cudaDataType).
constexpr int32_t kIndex32 = 2;
constexpr int32_t kF32 = 0;

class CudaSparseTest : public TwoContextTest {
protected:
  void SetUp() override {
    setenv(sparseLibraryEnvironmentVariableForTesting(),
           SDFGRT_FAKE_CUSPARSE_LIBRARY, 1);
    TwoContextTest::SetUp();
    fakecusparse::reset();
  }

  void TearDown() override {
    unsetenv(sparseLibraryEnvironmentVariableForTesting());
    TwoContextTest::TearDown();
    fakecusparse::reset();
  }

  /// The 3x3 CSR matrix [[1 0 2] [0 3 0] [4 0 5]].
  void *createMatrix(void *stream) {
    return mgpuCreateCsr(3, 3, 5, offsets, columns, values, kIndex32, kIndex32,
                         kF32, stream);
  }

  /// y = A x + y with upstream's call sequence; returns the buffer size.
  intptr_t spmv(void *stream, float *x, float *y) {
    void *a = createMatrix(stream);
    void *vx = mgpuCreateDnVec(3, x, kF32, stream);
    void *vy = mgpuCreateDnVec(3, y, kF32, stream);
    intptr_t size = mgpuSpMVBufferSize(0, a, vx, vy, kF32, stream);
    std::vector<char> buffer(size);
    mgpuSpMV(0, a, vx, vy, kF32, buffer.data(), stream);
    mgpuDestroyDnVec(vy, stream);
    mgpuDestroyDnVec(vx, stream);
    mgpuDestroySpMat(a, stream);
    return size;
  }

  int32_t offsets[4] = {0, 2, 3, 5};
  int32_t columns[5] = {0, 2, 1, 0, 2};
  float values[5] = {1, 2, 3, 4, 5};
};

TEST_F(CudaSparseTest, SpMVComputesOnTheCallersStream) {
  float x[3] = {1, 2, 3}, y[3] = {10, 20, 30};
  intptr_t size = spmv(streamA, x, y);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  // alpha = beta = 1, as upstream's wrappers: y = A x + y.
  EXPECT_EQ(y[0], 10 + 7.0f);
  EXPECT_EQ(y[1], 20 + 6.0f);
  EXPECT_EQ(y[2], 30 + 19.0f);
  // A zero buffer size comes back as 1 (upstream's ABI).
  EXPECT_EQ(size, 1);
  std::vector<std::string> expected = {
      "cusparseCreateCsr",    "cusparseCreateDnVec", "cusparseCreateDnVec",
      "cusparseCreate",       "cusparseSetStream",   "cusparseSpMV_bufferSize",
      "cusparseSetStream",    "cusparseSpMV",        "cusparseDestroyDnVec",
      "cusparseDestroyDnVec", "cusparseDestroySpMat"};
  EXPECT_EQ(library().names(), expected);
  for (const fakecusparse::Call &call : library().calls) {
    if (!call.handle || call.name == "cusparseSetStream")
      continue;
    EXPECT_EQ(call.stream, reinterpret_cast<cudaStream_t>(streamA))
        << call.name;
    EXPECT_EQ(call.context, contextA) << call.name;
  }
  // The runtime made contextA current for the calls and restored none.
  EXPECT_EQ(fakecuda::currentContext(), nullptr);
}

TEST_F(CudaSparseTest, SpMMComputesRowMajor) {
  // B is 3x2, C = A B + C.
  float b[6] = {1, 2, 3, 4, 5, 6}, c[6] = {};
  void *a = createMatrix(streamA);
  void *mb = mgpuCreateDnMat(3, 2, b, kF32, streamA);
  void *mc = mgpuCreateDnMat(3, 2, c, kF32, streamA);
  EXPECT_EQ(mgpuSpMMBufferSize(0, 0, a, mb, mc, kF32, streamA), 256);
  std::vector<char> buffer(256);
  mgpuSpMM(0, 0, a, mb, mc, kF32, buffer.data(), streamA);
  mgpuDestroyDnMat(mc, streamA);
  mgpuDestroyDnMat(mb, streamA);
  mgpuDestroySpMat(a, streamA);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  float expected[6] = {11, 14, 9, 12, 29, 38};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(c[i], expected[i]) << i;
  EXPECT_EQ(library().calls.back().name, "cusparseDestroySpMat");
}

TEST_F(CudaSparseTest, EveryHandleOperationSetsTheStreamFirst) {
  float x[3] = {}, y[3] = {};
  spmv(streamA, x, y);
  spmv(streamB, x, y);
  spmv(streamA, x, y);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  const std::vector<fakecusparse::Call> &calls = library().calls;
  int operations = 0;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (!calls[i].handle || calls[i].name == "cusparseSetStream")
      continue;
    ++operations;
    ASSERT_GT(i, 0u);
    EXPECT_EQ(calls[i - 1].name, "cusparseSetStream") << calls[i].name;
    EXPECT_EQ(calls[i - 1].handle, calls[i].handle);
  }
  EXPECT_EQ(operations, 6);
}

TEST_F(CudaSparseTest, OneHandlePerContextAndThreadCreatedInItsContext) {
  float x[3] = {}, y[3] = {};
  spmv(streamA, x, y);
  spmv(streamA, x, y);
  spmv(streamB, x, y);
  ASSERT_EQ(library().handles.size(), 2u);
  EXPECT_EQ(library().handles[0]->context, contextA);
  EXPECT_EQ(library().handles[1]->context, contextB);
  std::thread other([&] {
    float ox[3] = {}, oy[3] = {};
    spmv(streamA, ox, oy);
    EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  });
  other.join();
  ASSERT_EQ(library().handles.size(), 3u);
  EXPECT_EQ(library().handles[2]->context, contextA);
  EXPECT_EQ(library().count("cusparseCreate"), 3);
}

TEST_F(CudaSparseTest, DescriptorOperationsTouchNeitherDriverNorHandle) {
  void *a = createMatrix(streamA);
  int64_t rows = 0, cols = 0, nnz = 0;
  mgpuSpMatGetSize(a, &rows, &cols, &nnz, streamA);
  mgpuSetCsrPointers(a, offsets, columns, values, streamA);
  void *descr = mgpuSpGEMMCreateDescr(streamA);
  mgpuSpGEMMDestroyDescr(descr, streamA);
  mgpuDestroySpMat(a, streamA);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(cols, 3);
  EXPECT_EQ(nnz, 5);
  EXPECT_EQ(fakecuda::driver().totalCalls(), 0);
  EXPECT_EQ(library().count("cusparseCreate"), 0);
}

TEST_F(CudaSparseTest, SpGEMMSequenceRunsOnTheStream) {
  void *a = createMatrix(streamB);
  void *c = mgpuCreateCsr(3, 3, 0, nullptr, nullptr, nullptr, kIndex32,
                          kIndex32, kF32, streamB);
  void *descr = mgpuSpGEMMCreateDescr(streamB);
  intptr_t size1 =
      mgpuSpGEMMWorkEstimation(descr, 0, 0, a, a, c, kF32, 0, nullptr, streamB);
  std::vector<char> buffer1(size1);
  mgpuSpGEMMWorkEstimation(descr, 0, 0, a, a, c, kF32, size1, buffer1.data(),
                           streamB);
  intptr_t size2 =
      mgpuSpGEMMCompute(descr, 0, 0, a, a, c, kF32, 0, nullptr, streamB);
  std::vector<char> buffer2(size2);
  mgpuSpGEMMCompute(descr, 0, 0, a, a, c, kF32, size2, buffer2.data(), streamB);
  mgpuSpGEMMCopy(descr, 0, 0, a, a, c, kF32, streamB);
  ASSERT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(size1, 128);
  EXPECT_EQ(size2, 128);
  for (const fakecusparse::Call &call : library().calls) {
    if (call.handle && call.name != "cusparseSetStream") {
      EXPECT_EQ(call.stream, reinterpret_cast<cudaStream_t>(streamB));
      EXPECT_EQ(call.context, contextB);
    }
  }
  EXPECT_EQ(library().count("cusparseSpGEMM_copy"), 1);
}

TEST_F(CudaSparseTest, FailureNamesTheCallTheStatusAndTheLocation) {
  library().failingCall = "cusparseSpMV";
  library().failure = CUSPARSE_STATUS_INVALID_VALUE;
  float x[3] = {}, y[3] = {};
  void *a = createMatrix(streamA);
  void *vx = mgpuCreateDnVec(3, x, kF32, streamA);
  void *vy = mgpuCreateDnVec(3, y, kF32, streamA);
  sdfgrtBeginCall();
  sdfgrtSetLocation("sparse.mlir:7:3");
  mgpuSpMV(0, a, vx, vy, kF32, nullptr, streamA);
  EXPECT_EQ(sdfgrtCallStatus(), CUSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(std::string(sdfgrtGetLastError()),
            "cusparseSpMV failed: CUSPARSE_STATUS_INVALID_VALUE (invalid "
            "value) at sparse.mlir:7:3");
  // The rest of the failed call is skipped.
  int before = static_cast<int>(library().calls.size());
  mgpuDestroyDnVec(vx, streamA);
  mgpuSpMV(0, a, vx, vy, kF32, nullptr, streamA);
  EXPECT_EQ(static_cast<int>(library().calls.size()), before);
  EXPECT_EQ(sdfgrtEndCall(), CUSPARSE_STATUS_INVALID_VALUE);
}

TEST_F(CudaSparseTest, HandleCreationFailureIsReportedAndRetried) {
  library().failingCall = "cusparseCreate";
  library().failure = CUSPARSE_STATUS_NOT_INITIALIZED;
  float x[3] = {}, y[3] = {};
  spmv(streamA, x, y);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), CUSPARSE_STATUS_NOT_INITIALIZED);
  EXPECT_NE(std::string(sdfgrtGetLastError())
                .find("cusparseCreate failed: CUSPARSE_STATUS_NOT_INITIALIZED"),
            std::string::npos)
      << sdfgrtGetLastError();
  EXPECT_EQ(library().count("cusparseSpMV"), 0);
  library().failingCall.clear();
  sdfgrtClearError();
  spmv(streamA, x, y);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), 0) << sdfgrtGetLastError();
  EXPECT_EQ(library().handles.size(), 1u);
}

TEST_F(CudaSparseTest, AnUnknownStreamFailsBeforeTheLibrary) {
  int notAStream = 0;
  float x[3] = {}, y[3] = {};
  void *a = createMatrix(streamA);
  void *vx = mgpuCreateDnVec(3, x, kF32, streamA);
  void *vy = mgpuCreateDnVec(3, y, kF32, streamA);
  size_t before = library().calls.size();
  mgpuSpMV(0, a, vx, vy, kF32, nullptr, &notAStream);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("cuStreamGetCtx failed"),
            std::string::npos)
      << sdfgrtGetLastError();
  EXPECT_EQ(library().calls.size(), before);
}

TEST_F(CudaSparseTest, CooAoSIsRefusedOnCuda) {
  int64_t indices[2] = {0, 0};
  EXPECT_EQ(mgpuCreateCooAoS(1, 1, 1, indices, values, 3, kF32, streamA),
            nullptr);
  EXPECT_EQ(sdfgrtGetLastErrorCode(), kRuntimeFailure);
  EXPECT_NE(std::string(sdfgrtGetLastError())
                .find("mgpuCreateCooAoS (gpu.create_coo_aos): cuSPARSE 12 has "
                      "no AoS COO format"),
            std::string::npos)
      << sdfgrtGetLastError();
}

TEST_F(CudaSparseTest, BsrIsCreatedWithSquareRowMajorBlocks) {
  void *m = mgpuCreateBsr(1, 1, 1, 2, 2, offsets, columns, values, kIndex32,
                          kIndex32, kF32, streamA);
  ASSERT_NE(m, nullptr) << sdfgrtGetLastError();
  int64_t rows = 0, cols = 0, nnz = 0;
  mgpuSpMatGetSize(m, &rows, &cols, &nnz, streamA);
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(nnz, 4);
}

} // namespace
