//===- StridedOperations.cpp - Copies and memsets of strided views --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfgrtMemcpyStrided and sdfgrtMemsetStrided: a copy or memset of a memref
// view is planned as few rectangles as its strides allow (StridedCopy.cpp)
// and enqueued as 1-D and 2-D vendor copies on the caller's stream, through
// a stream-ordered temporary where the views overlap or a memset's view is
// not dense.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/StreamOperations.h"
#include "Core/StridedCopy.h"

#include <algorithm>
#include <vector>

using namespace sdfgrt;

namespace {

/// Enqueues the planned rectangles between two views' first elements.
bool copyRectangles(const Symbols &symbols, char *dst, const char *src,
                    const std::vector<Rectangle> &rectangles, Stream stream) {
  for (const Rectangle &r : rectangles) {
    char *to = dst + r.dstOffset;
    char *from = const_cast<char *>(src) + r.srcOffset;
    bool ok =
        r.height == 1
            ? vendor::memcpyAsync(symbols, to, from, r.widthBytes, stream)
            : vendor::memcpy2DAsync(symbols, to, r.dstPitch, from, r.srcPitch,
                                    r.widthBytes, r.height, stream);
    if (!ok)
      return false;
  }
  return true;
}

/// Copies through a dense stream-ordered temporary, for views that
/// overlap (vendor copies are not memmoves) or a memset of a view that
/// is not dense.
template <typename Fill>
void throughTemporary(const Symbols &symbols, size_t bytes, Stream stream,
                      Fill &&fill) {
  vendor::DevicePtr staging{};
  if (!SDFGRT_CALL(symbols, MemAllocAsync, &staging, bytes, stream))
    return;
  fill(reinterpret_cast<char *>(staging));
  // Freed even after a failure: the error model frees what a call took.
  SDFGRT_CALL(symbols, MemFreeAsync, staging, stream);
}

} // namespace

//===----------------------------------------------------------------------===//
// C ABI: copies and memsets of strided views
//===----------------------------------------------------------------------===//

void sdfgrtMemcpyStrided(int64_t rank, void *dstDescriptor, void *srcDescriptor,
                         int64_t elementSize, void *stream) {
  View dst = viewOf(dstDescriptor, rank, elementSize);
  View src = viewOf(srcDescriptor, rank, elementSize);
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    std::vector<Rectangle> rectangles;
    if (const char *error =
            planStridedCopy(rank, dst.sizes, dst.strides, src.strides,
                            elementSize, rectangles)) {
      recordFailure("sdfgrtMemcpyStrided: %s", error);
      return;
    }
    if (rectangles.empty() ||
        (dst.first == src.first &&
         std::equal(dst.strides, dst.strides + rank, src.strides)))
      return;
    size_t dstExtent = viewExtent(rank, dst.sizes, dst.strides, elementSize);
    size_t srcExtent = viewExtent(rank, dst.sizes, src.strides, elementSize);
    if (dst.first + dstExtent <= src.first ||
        src.first + srcExtent <= dst.first) {
      copyRectangles(symbols, dst.first, src.first, rectangles, s);
      return;
    }
    size_t bytes = elementCount(rank, dst.sizes) * elementSize;
    throughTemporary(symbols, bytes, s, [&](char *staging) {
      std::vector<Rectangle> in, out;
      planStridedCopy(rank, dst.sizes, nullptr, src.strides, elementSize, in);
      planStridedCopy(rank, dst.sizes, dst.strides, nullptr, elementSize, out);
      copyRectangles(symbols, staging, src.first, in, s) &&
          copyRectangles(symbols, dst.first, staging, out, s);
    });
  });
}

void sdfgrtMemsetStrided(int64_t rank, void *dstDescriptor, int64_t elementSize,
                         uint64_t value, void *stream) {
  View dst = viewOf(dstDescriptor, rank, elementSize);
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    if (elementSize != 1 && elementSize != 2 && elementSize != 4 &&
        elementSize != 8) {
      recordFailure("sdfgrtMemsetStrided: elements of %lld bytes cannot be "
                    "set (1, 2, 4 or 8)",
                    static_cast<long long>(elementSize));
      return;
    }
    std::vector<Rectangle> rectangles;
    if (const char *error = planStridedCopy(rank, dst.sizes, dst.strides,
                                            nullptr, elementSize, rectangles)) {
      recordFailure("sdfgrtMemsetStrided: %s", error);
      return;
    }
    size_t count = elementCount(rank, dst.sizes);
    if (rectangles.empty())
      return;
    if (rectangles.size() == 1 && rectangles[0].height == 1) {
      fillDense(symbols, dst.first, elementSize, value, count, s);
      return;
    }
    throughTemporary(symbols, count * elementSize, s, [&](char *staging) {
      fillDense(symbols, staging, elementSize, value, count, s) &&
          copyRectangles(symbols, dst.first, staging, rectangles, s);
    });
  });
}
