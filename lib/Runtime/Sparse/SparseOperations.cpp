//===- SparseOperations.cpp - Sparse operations on a stream -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The sparse entries that compute on the caller's stream: SpMV, SpMM,
// SDDMM and the SpGEMM phases, each with its buffer-size query. Each runs
// in the stream's context with the calling thread's handle of that context
// (SparseLibrary.cpp), pointed at the operation's stream before every call
// that takes it. Separate from the descriptors (SparseDescriptors.cpp),
// which are host work.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Sparse/Sparse.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

using namespace sdfgrt;
using namespace sdfgrt::sparse;

namespace {

/// Runs `body(symbols, handle)` for an operation on `stream`: in the
/// stream's context, with the thread's handle of that context set to
/// `stream`, unless it is skipped or anything before fails.
template <typename Body> void onStream(void *stream, Body &&body) {
  runOnStream(stream, [&](void *vendorStream, uint64_t context) {
    const Symbols *symbols = sparseSymbols();
    Handle handle{};
    if (symbols && handleFor(*symbols, context, handle) &&
        SDFGRT_SPARSE_CALL(*symbols, SetStream, handle,
                           static_cast<Stream>(vendorStream)))
      body(*symbols, handle);
  });
}

/// The scalar 1 in the compute type `type` (MLIR passes cudaDataType
/// codes; hipDataType has the same ones), as alpha and beta: upstream's
/// wrappers compute y = A x + y, C = A B + C, ... Complex types get 1 + 0i.
struct One {
  alignas(16) unsigned char bytes[16] = {};

  explicit One(int32_t type) {
    switch (type) {
    case 2: // CUDA_R_16F
    case 6: // CUDA_C_16F
      set<uint16_t>(0x3c00);
      break;
    case 14: // CUDA_R_16BF
    case 15: // CUDA_C_16BF
      set<uint16_t>(0x3f80);
      break;
    case 0: // CUDA_R_32F
    case 4: // CUDA_C_32F
      set<float>(1.0f);
      break;
    case 10: // CUDA_R_32I
      set<int32_t>(1);
      break;
    default: // CUDA_R_64F, CUDA_C_64F; the library rejects anything else
      set<double>(1.0);
      break;
    }
  }

  template <typename T> void set(T value) {
    static_assert(sizeof(T) <= sizeof(bytes), "scalar too large");
    std::memcpy(bytes, &value, sizeof(T));
  }
  const void *get() const { return bytes; }
};

Operation operation(int32_t mode) { return static_cast<Operation>(mode); }

/// What upstream's buffer-size wrappers return: never 0, so the buffer the
/// program allocates for it is never a null pointer.
intptr_t bufferSize(size_t size) {
  return size == 0 ? 1 : static_cast<intptr_t>(size);
}

} // namespace

//===----------------------------------------------------------------------===//
// C ABI: operations on the caller's stream
//===----------------------------------------------------------------------===//

intptr_t mgpuSpMVBufferSize(int32_t ma, void *a, void *x, void *y, int32_t ctp,
                            void *stream) {
  size_t size = 0;
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SpMVBufferSize, handle, operation(ma),
                       one.get(), spMat(a), dnVec(x), one.get(), dnVec(y),
                       dataType(ctp), kSpMVAlgorithm, &size);
  });
  return bufferSize(size);
}

void mgpuSpMV(int32_t ma, void *a, void *x, void *y, int32_t ctp, void *buf,
              void *stream) {
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SpMV, handle, operation(ma), one.get(),
                       spMat(a), dnVec(x), one.get(), dnVec(y), dataType(ctp),
                       kSpMVAlgorithm, buf);
  });
}

intptr_t mgpuSpMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c,
                            int32_t ctp, void *stream) {
  size_t size = 0;
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SpMMBufferSize, handle, operation(ma),
                       operation(mb), one.get(), spMat(a), dnMat(b), one.get(),
                       dnMat(c), dataType(ctp), kSpMMAlgorithm, &size);
  });
  return bufferSize(size);
}

void mgpuSpMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
              void *buf, void *stream) {
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SpMM, handle, operation(ma), operation(mb),
                       one.get(), spMat(a), dnMat(b), one.get(), dnMat(c),
                       dataType(ctp), kSpMMAlgorithm, buf);
  });
}

intptr_t mgpuSDDMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c,
                             int32_t ctp, void *stream) {
  size_t size = 0;
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SDDMMBufferSize, handle, operation(ma),
                       operation(mb), one.get(), dnMat(a), dnMat(b), one.get(),
                       spMat(c), dataType(ctp), kSDDMMAlgorithm, &size);
  });
  return bufferSize(size);
}

void mgpuSDDMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
               void *buf, void *stream) {
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SDDMM, handle, operation(ma), operation(mb),
                       one.get(), dnMat(a), dnMat(b), one.get(), spMat(c),
                       dataType(ctp), kSDDMMAlgorithm, buf);
  });
}

intptr_t mgpuSpGEMMWorkEstimation(void *descr, int32_t ma, int32_t mb, void *a,
                                  void *b, void *c, int32_t ctp, intptr_t bs,
                                  void *buf, void *stream) {
  size_t size = static_cast<size_t>(bs);
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SpGEMMWorkEstimation, handle, operation(ma),
                       operation(mb), one.get(), spMat(a), spMat(b), one.get(),
                       spMat(c), dataType(ctp), kSpGEMMAlgorithm, spGEMM(descr),
                       &size, buf);
  });
  return static_cast<intptr_t>(size);
}

intptr_t mgpuSpGEMMCompute(void *descr, int32_t ma, int32_t mb, void *a,
                           void *b, void *c, int32_t ctp, intptr_t bs,
                           void *buf, void *stream) {
  size_t size = static_cast<size_t>(bs);
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SpGEMMCompute, handle, operation(ma),
                       operation(mb), one.get(), spMat(a), spMat(b), one.get(),
                       spMat(c), dataType(ctp), kSpGEMMAlgorithm, spGEMM(descr),
                       &size, buf);
  });
  return static_cast<intptr_t>(size);
}

void mgpuSpGEMMCopy(void *descr, int32_t ma, int32_t mb, void *a, void *b,
                    void *c, int32_t ctp, void *stream) {
  onStream(stream, [&](const Symbols &symbols, Handle handle) {
    One one(ctp);
    SDFGRT_SPARSE_CALL(symbols, SpGEMMCopy, handle, operation(ma),
                       operation(mb), one.get(), spMat(a), spMat(b), one.get(),
                       spMat(c), dataType(ctp), kSpGEMMAlgorithm,
                       spGEMM(descr));
  });
}
