//===- StridedCopy.cpp - Copies between strided views as 2D copies --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "Core/StridedCopy.h"

namespace {
struct Dimension {
  int64_t size, dstStride, srcStride;
};
} // namespace

size_t sdfgrt::elementCount(int64_t rank, const int64_t *sizes) {
  size_t count = 1;
  for (int64_t dim = 0; dim < rank; ++dim)
    count *= sizes[dim] > 0 ? static_cast<size_t>(sizes[dim]) : 0;
  return count;
}

size_t sdfgrt::viewExtent(int64_t rank, const int64_t *sizes,
                          const int64_t *strides, int64_t elementSize) {
  if (elementCount(rank, sizes) == 0)
    return 0;
  int64_t last = 0;
  for (int64_t dim = 0; dim < rank; ++dim)
    if (sizes[dim] > 1)
      last += (sizes[dim] - 1) * strides[dim];
  return static_cast<size_t>((last + 1) * elementSize);
}

const char *sdfgrt::planStridedCopy(int64_t rank, const int64_t *sizes,
                                    const int64_t *dstStrides,
                                    const int64_t *srcStrides,
                                    int64_t elementSize,
                                    std::vector<Rectangle> &rectangles) {
  rectangles.clear();
  if (elementCount(rank, sizes) == 0)
    return nullptr;

  // Innermost first; dimensions of one element move nothing and drop out,
  // and a dimension dense around the one inside it (in both views) merges
  // with it.
  std::vector<Dimension> dims;
  int64_t denseStride = 1;
  for (int64_t dim = rank - 1; dim >= 0; --dim) {
    int64_t size = sizes[dim];
    int64_t dstStride = dstStrides ? dstStrides[dim] : denseStride;
    int64_t srcStride = srcStrides ? srcStrides[dim] : denseStride;
    denseStride *= size;
    if (size == 1)
      continue;
    if (dstStride <= 0 || srcStride <= 0)
      return "a view with a zero or negative stride cannot be copied";
    if (!dims.empty()) {
      Dimension &inner = dims.back();
      if (dstStride == inner.dstStride * inner.size &&
          srcStride == inner.srcStride * inner.size) {
        inner.size *= size;
        continue;
      }
    }
    dims.push_back({size, dstStride, srcStride});
  }

  // A row is the innermost dimension when it is dense in both views, else
  // one element; the next dimension out is the rectangle's height.
  size_t next = 0;
  size_t width = static_cast<size_t>(elementSize);
  if (!dims.empty() && dims[0].dstStride == 1 && dims[0].srcStride == 1)
    width *= static_cast<size_t>(dims[next++].size);
  Rectangle shape{0, 0, width, 1, width, width};
  if (next < dims.size()) {
    const Dimension &rows = dims[next++];
    shape.height = static_cast<size_t>(rows.size);
    shape.dstPitch = static_cast<size_t>(rows.dstStride * elementSize);
    shape.srcPitch = static_cast<size_t>(rows.srcStride * elementSize);
    if (shape.dstPitch < width || shape.srcPitch < width)
      return "a view whose rows overlap cannot be copied";
  }

  // One rectangle per index of the remaining (outer) dimensions.
  std::vector<int64_t> index(dims.size(), 0);
  for (;;) {
    rectangles.push_back(shape);
    size_t dim = next;
    for (; dim < dims.size(); ++dim) {
      shape.dstOffset += dims[dim].dstStride * elementSize;
      shape.srcOffset += dims[dim].srcStride * elementSize;
      if (++index[dim] < dims[dim].size)
        break;
      shape.dstOffset -= dims[dim].size * dims[dim].dstStride * elementSize;
      shape.srcOffset -= dims[dim].size * dims[dim].srcStride * elementSize;
      index[dim] = 0;
    }
    if (dim == dims.size())
      return nullptr;
  }
}
