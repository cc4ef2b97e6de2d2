//===- CudaCopyTest.cpp - Copies and memsets of views on the fake driver --===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfgrtMemcpyStrided and sdfgrtMemsetStrided on host memory through the
// fake driver (FakeCudaDriver.cpp): the right elements change, on the
// caller's stream, with as few driver copies as the strides allow.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "FakeCudaDriver.h"
#include "FakeDriverTest.h"
#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

using namespace sdfgrt;
using fakecuda::driver;

namespace {

/// MLIR's memref descriptor of rank R.
template <int R> struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[R];
  int64_t strides[R];
};

template <int R, typename T>
Descriptor<R> view(T *data, int64_t offset, std::array<int64_t, R> sizes,
                   std::array<int64_t, R> strides) {
  Descriptor<R> d{data, data, offset, {}, {}};
  std::copy(sizes.begin(), sizes.end(), d.sizes);
  std::copy(strides.begin(), strides.end(), d.strides);
  return d;
}

class CudaCopyTest : public FakeDriverTest {
protected:
  void SetUp() override {
    FakeDriverTest::SetUp();
    stream = fakecuda::createStream(fakecuda::context(1));
    sdfgrtBeginCall();
  }

  void expectSuccess() {
    EXPECT_EQ(sdfgrtEndCall(), 0) << sdfgrtGetLastError();
    EXPECT_EQ(driver().lastMemoryStream, stream);
  }

  CUstream stream;
};

TEST_F(CudaCopyTest, CopyIntoAViewHonoursItsOffset) {
  std::vector<float> buffer(16, 0.f), host = {1, 2, 3, 4};
  auto dst = view<1>(buffer.data(), 6, {4}, {1});
  auto src = view<1>(host.data(), 0, {4}, {1});
  sdfgrtMemcpyStrided(1, &dst, &src, sizeof(float), stream);
  expectSuccess();
  EXPECT_EQ(driver().count("cuMemcpyAsync"), 1);
  std::vector<float> expected(16, 0.f);
  std::copy(host.begin(), host.end(), expected.begin() + 6);
  EXPECT_EQ(buffer, expected);
}

TEST_F(CudaCopyTest, TileIsOne2DCopy) {
  // A 3x2 tile at row 1, column 2 of a 4x5 matrix, from a dense buffer.
  std::vector<int32_t> matrix(20, 0), tile = {1, 2, 3, 4, 5, 6};
  auto dst = view<2>(matrix.data(), 1 * 5 + 2, {3, 2}, {5, 1});
  auto src = view<2>(tile.data(), 0, {3, 2}, {2, 1});
  sdfgrtMemcpyStrided(2, &dst, &src, sizeof(int32_t), stream);
  expectSuccess();
  EXPECT_EQ(driver().count("cuMemcpy2DAsync"), 1);
  EXPECT_EQ(driver().count("cuMemcpyAsync"), 0);
  std::vector<int32_t> expected(20, 0);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 2; ++c)
      expected[(1 + r) * 5 + 2 + c] = tile[r * 2 + c];
  EXPECT_EQ(matrix, expected);
}

TEST_F(CudaCopyTest, ThreeDimensionalViewLoopsOverPlanes) {
  std::vector<uint8_t> cube(4 * 4 * 4, 0), dense(2 * 3 * 2);
  std::iota(dense.begin(), dense.end(), 1);
  auto dst = view<3>(cube.data(), 16 + 4 + 1, {2, 3, 2}, {16, 4, 1});
  auto src = view<3>(dense.data(), 0, {2, 3, 2}, {6, 2, 1});
  sdfgrtMemcpyStrided(3, &dst, &src, 1, stream);
  expectSuccess();
  EXPECT_EQ(driver().count("cuMemcpy2DAsync"), 2);
  for (int p = 0; p < 2; ++p)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 2; ++c)
        EXPECT_EQ(cube[21 + p * 16 + r * 4 + c], dense[p * 6 + r * 2 + c]);
}

TEST_F(CudaCopyTest, OverlappingShiftGoesThroughATemporary) {
  // Shift the second column of a 4x4 matrix down by one row, in place.
  std::vector<int64_t> matrix(16);
  std::iota(matrix.begin(), matrix.end(), 0);
  auto dst = view<1>(matrix.data(), 4 + 1, {3}, {4});
  auto src = view<1>(matrix.data(), 1, {3}, {4});
  sdfgrtMemcpyStrided(1, &dst, &src, sizeof(int64_t), stream);
  expectSuccess();
  EXPECT_EQ(driver().count("cuMemAllocAsync"), 1);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 1);
  std::vector<int64_t> expected(16);
  std::iota(expected.begin(), expected.end(), 0);
  expected[5] = 1, expected[9] = 5, expected[13] = 9;
  EXPECT_EQ(matrix, expected);
}

TEST_F(CudaCopyTest, ZeroStrideIsAnErrorWithoutDriverWork) {
  std::vector<float> a(4), b(4);
  auto dst = view<1>(a.data(), 0, {4}, {0});
  auto src = view<1>(b.data(), 0, {4}, {1});
  sdfgrtSetLocation("prog.mlir:3:5");
  sdfgrtMemcpyStrided(1, &dst, &src, sizeof(float), stream);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_STREQ(sdfgrtGetLastError(),
               "sdfgrtMemcpyStrided: a view with a zero or negative stride "
               "cannot be copied at prog.mlir:3:5");
  EXPECT_STREQ(sdfgrtGetLastErrorName(), "SDFGRT_FAILURE");
  EXPECT_STREQ(sdfgrtGetLastErrorLocation(), "prog.mlir:3:5");
  sdfgrtBeginCall();
  EXPECT_STREQ(sdfgrtGetLastErrorName(), "");
  EXPECT_STREQ(sdfgrtGetLastErrorLocation(), "");
  sdfgrtEndCall();
  EXPECT_EQ(driver().count("cuMemcpyAsync") + driver().count("cuMemcpy2DAsync"),
            0);
}

TEST_F(CudaCopyTest, SixtyFourBitMemsetDoublesTheFirstElement) {
  std::vector<double> data(13, 0.0);
  auto dst = view<1>(data.data(), 0, {13}, {1});
  double value = -2.5;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  sdfgrtMemsetStrided(1, &dst, 8, bits, stream);
  expectSuccess();
  EXPECT_EQ(data, std::vector<double>(13, -2.5));
  // Two words, then copies of 1, 2, 4 and 5 elements.
  EXPECT_EQ(driver().count("cuMemsetD32Async"), 2);
  EXPECT_EQ(driver().count("cuMemcpyAsync"), 4);
}

TEST_F(CudaCopyTest, SixtyFourBitMemsetOfEqualWordsIsOneMemset) {
  std::vector<int64_t> data(7, 5);
  auto dst = view<1>(data.data(), 2, {4}, {1});
  sdfgrtMemsetStrided(1, &dst, 8, ~uint64_t(0), stream);
  expectSuccess();
  EXPECT_EQ(data, (std::vector<int64_t>{5, 5, -1, -1, -1, -1, 5}));
  EXPECT_EQ(driver().count("cuMemsetD32Async"), 1);
}

TEST_F(CudaCopyTest, MemsetOfATileFillsATemporaryAndCopiesIt) {
  std::vector<uint16_t> matrix(6 * 6, 0);
  auto dst = view<2>(matrix.data(), 6 + 1, {2, 3}, {6, 1});
  sdfgrtMemsetStrided(2, &dst, 2, 0x1234, stream);
  expectSuccess();
  EXPECT_EQ(driver().count("cuMemsetD16Async"), 1);
  EXPECT_EQ(driver().count("cuMemcpy2DAsync"), 1);
  EXPECT_EQ(driver().count("cuMemFreeAsync"), 1);
  for (int i = 0; i < 36; ++i) {
    bool inTile = i / 6 >= 1 && i / 6 <= 2 && i % 6 >= 1 && i % 6 <= 3;
    EXPECT_EQ(matrix[i], inTile ? 0x1234 : 0) << "element " << i;
  }
}

TEST_F(CudaCopyTest, MemsetOfAnOddElementSizeIsAnError) {
  std::vector<uint8_t> data(12);
  auto dst = view<1>(data.data(), 0, {4}, {1});
  sdfgrtMemsetStrided(1, &dst, 3, 0, stream);
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  EXPECT_NE(std::strstr(sdfgrtGetLastError(), "elements of 3 bytes"), nullptr)
      << sdfgrtGetLastError();
}

} // namespace
