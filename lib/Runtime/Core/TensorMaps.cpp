//===- TensorMaps.cpp - TMA descriptors for kernels -------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// mgpuTensorMapEncodeTiledMemref, which nvgpu.tma.create.descriptor lowers
// to: the descriptor of a tile of a memref view, encoded by the driver and
// copied to the device once per context and contents. Vendors without TMA
// descriptors (vendor::kHasTensorMaps) refuse it.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/VendorLibrary.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

using namespace sdfgrt;

namespace {

/// Device copies of TMA descriptors, one per context and descriptor
/// contents: programs create their descriptors at every call, and the same
/// descriptor must neither allocate nor leak again. Never freed (as many
/// as distinct views a process describes).
struct TensorMapCache {
  std::mutex mutex;
  std::map<std::pair<uint64_t, std::string>, void *> copies;
};

TensorMapCache &tensorMaps() {
  static TensorMapCache *instance = new TensorMapCache;
  return *instance;
}

} // namespace

void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *box) {
  void *result = nullptr;
  if constexpr (!vendor::kHasTensorMaps) {
    if (startOperation())
      recordFailure("mgpuTensorMapEncodeTiledMemref: TMA descriptors "
                    "(nvgpu.tma.create.descriptor) are not supported by %s",
                    vendor::kName);
  } else {
    onStream(nullptr, [&](const Symbols &symbols, Stream s, Context context) {
      // The device copy is a synchronous allocation and copy, which a graph
      // capture forbids.
      if (refusedWhileCapturing(
              symbols, s,
              "mgpuTensorMapEncodeTiledMemref: a TMA descriptor cannot be "
              "created while a stream is being captured into a graph; "
              "create it before the capture begins"))
        return;
      vendor::TensorMap map;
      std::memset(&map, 0, sizeof(map));
      ContextRef ref;
      if (!identify(symbols, context, ref) ||
          !vendor::encodeTensorMap(symbols, map, rank, descriptor, dataType,
                                   interleave, swizzle, l2Promotion, oobFill,
                                   box))
        return;
      TensorMapCache &cache = tensorMaps();
      std::lock_guard<std::mutex> lock(cache.mutex);
      auto key = std::make_pair(
          ref.id,
          std::string(reinterpret_cast<const char *>(&map), sizeof(map)));
      auto it = cache.copies.find(key);
      if (it != cache.copies.end()) {
        result = it->second;
        return;
      }
      if (vendor::copyTensorMapToDevice(symbols, map, result))
        cache.copies.emplace(std::move(key), result);
    });
  }
  return result;
}
