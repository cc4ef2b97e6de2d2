//===- Sparse.cpp - Sparse entries on the caller's stream -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The mgpu* entries that MLIR's gpu-to-llvm emits for the gpu dialect's
// sparse operations (gpu.create_csr, gpu.spmv, gpu.spgemm_*, ...), with the
// ABI of upstream's wrappers, over cuSPARSE or hipSPARSE (compiled once per
// vendor, like the rest of the runtime, against CUDA/CusparseVendor.h or
// HIP/HipsparseVendor.h).
//
// The library is opened at the first sparse operation (by the runtime's
// LazyLibrary and openLibraryFile), never linked, so the runtime loads
// without it; a missing library fails each sparse operation with the
// reason. A library handle is created once per context and thread
// (in that context; a handle is not thread-safe and belongs to the device
// it was created on) and kept; it is pointed at the operation's stream
// before every call that takes it. Descriptor operations (create, destroy,
// sizes) take no stream: they are host work. No stream is created and
// nothing synchronizes; failures are recorded like the runtime's own, with
// the library's error name and the op's location.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "RuntimeInternal.h"

#if defined(SDFGRT_VENDOR_CUDA)
#include "CUDA/CusparseVendor.h"
#elif defined(SDFGRT_VENDOR_HIP)
#include "HIP/HipsparseVendor.h"
#else
#error "compile with -DSDFGRT_VENDOR_CUDA or -DSDFGRT_VENDOR_HIP"
#endif

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

using namespace sdfgrt;
using namespace sdfgrt::sparse;

namespace {

//===----------------------------------------------------------------------===//
// The library
//===----------------------------------------------------------------------===//

struct Library : LazyLibrary<Symbols> {
  // Bumped by resetSparseForTesting: handles of an older one are stale.
  std::atomic<uint64_t> generation{0};
};

// Never destroyed, like the runtime's driver library.
Library &library() {
  static Library *instance = new Library;
  return *instance;
}

/// Opens the library and fills the table, once per process (under the
/// lock).
bool openLibrary(Library &lib) {
  const char *override = getenv(kLibraryEnvironmentVariable);
  std::string tried, error;
  const char *opened = nullptr;
  void *handle =
      openLibraryFile(override, kLibraryNames, std::size(kLibraryNames),
                      /*counted=*/false, tried, error, opened);
  if (!handle)
    return lib.fail(kRuntimeFailure,
                    "%s (for the gpu dialect's sparse operations) could not "
                    "be loaded: %s: %s%s%s%s",
                    kName, tried.c_str(), error.c_str(),
                    override ? "" : " (to use another path, set ",
                    override ? "" : kLibraryEnvironmentVariable,
                    override ? "" : ")");
  const char *missing = nullptr;
  Symbols &symbols = lib.symbols;
#define SDFGRT_SPARSE_SYMBOL(role, function)                                   \
  symbols.role = reinterpret_cast<decltype(symbols.role)>(                     \
      dlsym(handle, Symbols::role##Name));                                     \
  if (!symbols.role && !missing)                                               \
    missing = Symbols::role##Name;
#include SDFGRT_SPARSE_SYMBOLS
#undef SDFGRT_SPARSE_SYMBOL
  if (missing)
    return lib.fail(kRuntimeFailure, "%s could not be resolved in %s", missing,
                    opened);
  return true;
}

/// The sparse library's table, opening it at the first use; null (the
/// reason recorded) if it cannot be used.
const Symbols *sparseSymbols() {
  Library &lib = library();
  return lib.get([&] { return openLibrary(lib); });
}

//===----------------------------------------------------------------------===//
// Handles, one per context and thread
//===----------------------------------------------------------------------===//

struct ThreadHandle {
  uint64_t context; // the driver's id of the context (HIP: the device)
  Handle handle;
};

// A handle serves one thread at a time, so each thread has its own; created
// in the context it is used in. Kept for the thread's life: destroying one
// at thread exit could find its context already destroyed.
thread_local std::vector<ThreadHandle> threadHandles;
thread_local uint64_t threadHandlesGeneration = 0;

/// The calling thread's handle for `context`, which is current; created at
/// the first use (the library's own set-up, device allocations included,
/// happens then: make the first sparse call of a thread outside a graph
/// capture).
bool handleFor(const Symbols &symbols, uint64_t context, Handle &handle) {
  uint64_t generation = library().generation.load(std::memory_order_acquire);
  if (threadHandlesGeneration != generation) {
    threadHandles.clear();
    threadHandlesGeneration = generation;
  }
  for (const ThreadHandle &entry : threadHandles) {
    if (entry.context == context) {
      handle = entry.handle;
      return true;
    }
  }
  Handle created{};
  if (!SDFGRT_SPARSE_CALL(symbols, Create, &created))
    return false;
  threadHandles.push_back({context, created});
  handle = created;
  return true;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

/// Runs `body(symbols)` for a descriptor operation (host work, no stream),
/// unless it is skipped or the library is unusable.
template <typename Body> void onHost(Body &&body) {
  if (!startLibraryOperation())
    return;
  if (const Symbols *symbols = sparseSymbols())
    body(*symbols);
}

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
IndexType indexType(int32_t type) { return static_cast<IndexType>(type); }
DataType dataType(int32_t type) { return static_cast<DataType>(type); }
SpMat spMat(void *matrix) { return static_cast<SpMat>(matrix); }
DnVec dnVec(void *vector) { return static_cast<DnVec>(vector); }
DnMat dnMat(void *matrix) { return static_cast<DnMat>(matrix); }
SpGEMMDescr spGEMM(void *descr) { return static_cast<SpGEMMDescr>(descr); }

/// What upstream's buffer-size wrappers return: never 0, so the buffer the
/// program allocates for it is never a null pointer.
intptr_t bufferSize(size_t size) {
  return size == 0 ? 1 : static_cast<intptr_t>(size);
}

/// The entries of gpu.create_2to4_spmat and the 2:4 gpu.spmm, which
/// upstream implements with cuSPARSELt: not provided.
void rejectStructuredSparsity(const char *entry) {
  if (startLibraryOperation())
    recordFailure("%s: 2:4 structured sparsity (gpu.create_2to4_spmat and "
                  "the gpu.spmm on it) needs cuSPARSELt, which the "
                  "SDFGStream runtime does not support",
                  entry);
}

} // namespace

bool sdfgrt::sparse::check(const Symbols &symbols, const char *function,
                           Status status) {
  if (status == kSuccess)
    return true;
  recordError(static_cast<int32_t>(status), "%s failed: %s (%s)", function,
              errorName(symbols, status), errorString(symbols, status));
  return false;
}

//===----------------------------------------------------------------------===//
// C ABI: dense and sparse descriptors (host work)
//===----------------------------------------------------------------------===//

void *mgpuCreateDnVec(intptr_t size, void *values, int32_t dtp,
                      void * /*stream*/) {
  DnVec vector{};
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, CreateDnVec, &vector, size, values,
                       dataType(dtp));
  });
  return vector;
}

void mgpuDestroyDnVec(void *vector, void * /*stream*/) {
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, DestroyDnVec, dnVec(vector));
  });
}

void *mgpuCreateDnMat(intptr_t rows, intptr_t cols, void *values, int32_t dtp,
                      void * /*stream*/) {
  DnMat matrix{};
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, CreateDnMat, &matrix, rows, cols,
                       /*ld=*/cols, values, dataType(dtp), kOrderRow);
  });
  return matrix;
}

void mgpuDestroyDnMat(void *matrix, void * /*stream*/) {
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, DestroyDnMat, dnMat(matrix));
  });
}

void *mgpuCreateCoo(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowIdxs,
                    void *colIdxs, void *values, int32_t itp, int32_t dtp,
                    void * /*stream*/) {
  SpMat matrix{};
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, CreateCoo, &matrix, rows, cols, nnz, rowIdxs,
                       colIdxs, values, indexType(itp), kIndexBaseZero,
                       dataType(dtp));
  });
  return matrix;
}

void *mgpuCreateCooAoS(intptr_t rows, intptr_t cols, intptr_t nnz, void *idxs,
                       void *values, int32_t itp, int32_t dtp,
                       void * /*stream*/) {
  SpMat matrix{};
  onHost([&](const Symbols &symbols) {
    createCooAoS(symbols, matrix, rows, cols, nnz, idxs, values, indexType(itp),
                 dataType(dtp));
  });
  return matrix;
}

void *mgpuCreateCsr(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowPos,
                    void *colIdxs, void *values, int32_t ptp, int32_t itp,
                    int32_t dtp, void * /*stream*/) {
  SpMat matrix{};
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, CreateCsr, &matrix, rows, cols, nnz, rowPos,
                       colIdxs, values, indexType(ptp), indexType(itp),
                       kIndexBaseZero, dataType(dtp));
  });
  return matrix;
}

void *mgpuCreateCsc(intptr_t rows, intptr_t cols, intptr_t nnz, void *colPos,
                    void *rowIdxs, void *values, int32_t ptp, int32_t itp,
                    int32_t dtp, void * /*stream*/) {
  SpMat matrix{};
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, CreateCsc, &matrix, rows, cols, nnz, colPos,
                       rowIdxs, values, indexType(ptp), indexType(itp),
                       kIndexBaseZero, dataType(dtp));
  });
  return matrix;
}

void *mgpuCreateBsr(intptr_t brows, intptr_t bcols, intptr_t bnnz,
                    intptr_t rBlockSize, intptr_t cBlockSize, void *bRowPos,
                    void *bColIdxs, void *values, int32_t ptp, int32_t itp,
                    int32_t dtp, void * /*stream*/) {
  SpMat matrix{};
  onHost([&](const Symbols &symbols) {
    createBsr(symbols, matrix, brows, bcols, bnnz, rBlockSize, cBlockSize,
              bRowPos, bColIdxs, values, indexType(ptp), indexType(itp),
              dataType(dtp));
  });
  return matrix;
}

void mgpuDestroySpMat(void *matrix, void * /*stream*/) {
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, DestroySpMat, spMat(matrix));
  });
}

void mgpuSpMatGetSize(void *matrix, void *rows, void *cols, void *nnz,
                      void * /*stream*/) {
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(
        symbols, SpMatGetSize, spMat(matrix), static_cast<int64_t *>(rows),
        static_cast<int64_t *>(cols), static_cast<int64_t *>(nnz));
  });
}

void mgpuSetCsrPointers(void *matrix, void *positions, void *coordinates,
                        void *values, void * /*stream*/) {
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, CsrSetPointers, spMat(matrix), positions,
                       coordinates, values);
  });
}

void *mgpuSpGEMMCreateDescr(void * /*stream*/) {
  SpGEMMDescr descr{};
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, SpGEMMCreateDescr, &descr);
  });
  return descr;
}

void mgpuSpGEMMDestroyDescr(void *descr, void * /*stream*/) {
  onHost([&](const Symbols &symbols) {
    SDFGRT_SPARSE_CALL(symbols, SpGEMMDestroyDescr, spGEMM(descr));
  });
}

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

//===----------------------------------------------------------------------===//
// C ABI: 2:4 structured sparsity (cuSPARSELt upstream): refused
//===----------------------------------------------------------------------===//

void mgpuCusparseLtCreate2To4SpMat(void *, intptr_t, intptr_t, void *, int32_t,
                                   void *) {
  rejectStructuredSparsity("mgpuCusparseLtCreate2To4SpMat");
}

void mgpuCreateCuSparseLtDnMat(void *, intptr_t, intptr_t, void *, int32_t,
                               void *) {
  rejectStructuredSparsity("mgpuCreateCuSparseLtDnMat");
}

void mgpuCuSparseLtSpMMBufferSize(void *, int32_t, int32_t, void *, void *,
                                  void *, int32_t, int32_t, void *) {
  rejectStructuredSparsity("mgpuCuSparseLtSpMMBufferSize");
}

void mgpuCuSparseLtSpMM(void *, void *, void *, void *, void *, void *,
                        void *) {
  rejectStructuredSparsity("mgpuCuSparseLtSpMM");
}

void mgpuDestroyCuSparseLtDnMat(void *, void *) {
  rejectStructuredSparsity("mgpuDestroyCuSparseLtDnMat");
}

void mgpuDestroyCuSparseLtSpMat(void *, void *) {
  rejectStructuredSparsity("mgpuDestroyCuSparseLtSpMat");
}

//===----------------------------------------------------------------------===//
// Test hooks
//===----------------------------------------------------------------------===//

void sdfgrt::resetSparseForTesting() {
  Library &lib = library();
  std::lock_guard<std::mutex> lock(lib.mutex);
  lib.forget();
  lib.generation.fetch_add(1, std::memory_order_release);
}

const char *sdfgrt::sparseLibraryEnvironmentVariableForTesting() {
  return kLibraryEnvironmentVariable;
}
