//===- SparseDescriptors.cpp - Sparse and dense descriptors -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The sparse entries that create, query and destroy the library's
// descriptors (gpu.create_dn_tensor, gpu.create_coo, gpu.create_csr, ...,
// gpu.spmat_get_size, gpu.set_csr_pointers, gpu.spgemm_create_descr).
// Separate from the operations (SparseOperations.cpp) because they are
// host work: they ignore their stream argument and need no handle, so they
// run without the stream's context.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Sparse/Sparse.h"

using namespace sdfgrt;
using namespace sdfgrt::sparse;

namespace {

/// Runs `body(symbols)` for a descriptor operation (host work, no stream),
/// unless it is skipped or the library is unusable.
template <typename Body> void onHost(Body &&body) {
  if (!startLibraryOperation())
    return;
  if (const Symbols *symbols = sparseSymbols())
    body(*symbols);
}

IndexType indexType(int32_t type) { return static_cast<IndexType>(type); }

} // namespace

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
