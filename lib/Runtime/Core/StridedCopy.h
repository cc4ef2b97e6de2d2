//===- StridedCopy.h - Copies between strided views as 2D copies -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Vendor-neutral planning of sdfgrtMemcpyStrided / sdfgrtMemsetStrided: a
// copy between two views of one shape (MLIR memref descriptors) becomes as
// few rectangles (rows of contiguous bytes at a pitch) as their strides
// allow, each one 2D copy on the stream (cuMemcpy2DAsync,
// hipMemcpy2DAsync). Dimensions that are dense in both views merge, so a
// dense pair is a single 1D copy and a 2D tile of a matrix one 2D copy;
// only the dimensions beyond the two innermost remaining ones are looped
// over, one rectangle each.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_STRIDEDCOPY_H
#define SDFGSTREAM_LIB_RUNTIME_STRIDEDCOPY_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sdfgrt {

/// A memref descriptor as MLIR lays it out (StridedMemRefType<T, rank>):
/// allocated and aligned pointers, the offset, then `rank` sizes and `rank`
/// strides, in elements.
struct MemRefDescriptor {
  void *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1]; // really 2 * rank
};

/// A view read from a descriptor: where its first element is and its
/// shape, in elements.
struct View {
  char *first;
  const int64_t *sizes;
  const int64_t *strides;
};

inline View viewOf(const void *descriptor, int64_t rank, int64_t elementSize) {
  auto *d = static_cast<const MemRefDescriptor *>(descriptor);
  return {d->aligned + d->offset * elementSize, d->sizesAndStrides,
          d->sizesAndStrides + rank};
}

/// `height` rows of `widthBytes` contiguous bytes; row r of the destination
/// starts at dstOffset + r * dstPitch bytes from its view's first element,
/// likewise for the source.
struct Rectangle {
  int64_t dstOffset, srcOffset;
  size_t widthBytes, height, dstPitch, srcPitch;
};

/// The rectangles of a copy of `rank`-dimensional views with the given
/// sizes and element strides (null strides: a dense view, as the temporary
/// that a memset fills or an overlapping copy goes through). Empty for a view without
/// elements. Returns null, or why the views cannot be copied: a
/// non-positive stride in a dimension of more than one element, or rows
/// that overlap (pitch smaller than the row).
const char *planStridedCopy(int64_t rank, const int64_t *sizes,
                            const int64_t *dstStrides,
                            const int64_t *srcStrides, int64_t elementSize,
                            std::vector<Rectangle> &rectangles);

/// The bytes from the first to one past the last element of a view (one
/// that planStridedCopy accepted).
size_t viewExtent(int64_t rank, const int64_t *sizes, const int64_t *strides,
                  int64_t elementSize);

/// The number of elements of a view.
size_t elementCount(int64_t rank, const int64_t *sizes);

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_STRIDEDCOPY_H
