//===- StridedCopyTest.cpp - Planning copies of strided views -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// planStridedCopy, without any vendor: which rectangles a copy between two
// views becomes. CudaCopyTest.cpp runs the copies on the fake driver.
//
//===----------------------------------------------------------------------===//

#include "Core/StridedCopy.h"

#include "gtest/gtest.h"

using namespace sdfgrt;

namespace {

TEST(StridedCopyTest, DenseViewsAreOneRow) {
  int64_t sizes[] = {3, 4, 5}, strides[] = {20, 5, 1};
  std::vector<Rectangle> plan;
  ASSERT_EQ(planStridedCopy(3, sizes, strides, nullptr, 4, plan), nullptr);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].widthBytes, 3u * 4 * 5 * 4);
  EXPECT_EQ(plan[0].height, 1u);
}

TEST(StridedCopyTest, TileOfAMatrixIsOneRectangle) {
  // A 4x3 tile of an 8-column matrix into a dense 4x3 buffer.
  int64_t sizes[] = {4, 3}, tile[] = {8, 1};
  std::vector<Rectangle> plan;
  ASSERT_EQ(planStridedCopy(2, sizes, nullptr, tile, 8, plan), nullptr);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].widthBytes, 24u);
  EXPECT_EQ(plan[0].height, 4u);
  EXPECT_EQ(plan[0].dstPitch, 24u);
  EXPECT_EQ(plan[0].srcPitch, 64u);
}

TEST(StridedCopyTest, ColumnIsRowsOfOneElement) {
  int64_t sizes[] = {6}, column[] = {10};
  std::vector<Rectangle> plan;
  ASSERT_EQ(planStridedCopy(1, sizes, column, nullptr, 2, plan), nullptr);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].widthBytes, 2u);
  EXPECT_EQ(plan[0].height, 6u);
  EXPECT_EQ(plan[0].dstPitch, 20u);
  EXPECT_EQ(plan[0].srcPitch, 2u);
}

TEST(StridedCopyTest, OuterDimensionsAreLoopedOver) {
  // 2x3 planes of 4x5 tiles out of a padded 3D array: one rectangle per
  // plane, each at its plane's offset; unit dimensions drop out.
  int64_t sizes[] = {2, 1, 3, 4, 5}, padded[] = {1000, 7, 200, 10, 1};
  std::vector<Rectangle> plan;
  ASSERT_EQ(planStridedCopy(5, sizes, padded, nullptr, 1, plan), nullptr);
  ASSERT_EQ(plan.size(), 6u);
  for (size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].widthBytes, 5u);
    EXPECT_EQ(plan[i].height, 4u);
    EXPECT_EQ(plan[i].dstPitch, 10u);
    EXPECT_EQ(plan[i].dstOffset, int64_t(i / 3 * 1000 + i % 3 * 200));
    EXPECT_EQ(plan[i].srcOffset, int64_t(i * 20));
  }
}

TEST(StridedCopyTest, EmptyViewIsNoWork) {
  int64_t sizes[] = {4, 0}, strides[] = {9, 1};
  std::vector<Rectangle> plan{{}};
  EXPECT_EQ(planStridedCopy(2, sizes, strides, strides, 4, plan), nullptr);
  EXPECT_TRUE(plan.empty());
}

TEST(StridedCopyTest, RankZeroIsOneElement) {
  std::vector<Rectangle> plan;
  ASSERT_EQ(planStridedCopy(0, nullptr, nullptr, nullptr, 8, plan), nullptr);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].widthBytes, 8u);
}

TEST(StridedCopyTest, ZeroStridesAndOverlappingRowsAreRefused) {
  int64_t sizes[] = {4, 4}, broadcast[] = {0, 1}, overlapping[] = {2, 1};
  std::vector<Rectangle> plan;
  EXPECT_STREQ(planStridedCopy(2, sizes, broadcast, nullptr, 4, plan),
               "a view with a zero or negative stride cannot be copied");
  EXPECT_STREQ(planStridedCopy(2, sizes, nullptr, overlapping, 4, plan),
               "a view whose rows overlap cannot be copied");
}

TEST(StridedCopyTest, ExtentSpansFirstToLastElement) {
  int64_t sizes[] = {4, 3}, strides[] = {8, 1};
  EXPECT_EQ(viewExtent(2, sizes, strides, 4), size_t((3 * 8 + 2 + 1) * 4));
  EXPECT_EQ(elementCount(2, sizes), 12u);
}

} // namespace
