//===- SparseVendor.h - cuSPARSE for the runtime ----------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the sparse entries (Sparse/*.cpp) need to know about cuSPARSE: its types,
// the library to open, the entry points (CusparseSymbols.def), and the formats
// whose calls differ from hipSPARSE's. Only the header is used:
// libcusparse.so.12 is opened at the first sparse operation, never linked.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CUDA_CUSPARSEVENDOR_H
#define SDFGSTREAM_LIB_RUNTIME_CUDA_CUSPARSEVENDOR_H

#include "Core/RuntimeInternal.h"

#include <cusparse.h>

namespace sdfgrt {
namespace sparse {

using Status = cusparseStatus_t;
using Handle = cusparseHandle_t;
using Stream = cudaStream_t;
using Operation = cusparseOperation_t;
using IndexType = cusparseIndexType_t;
using DataType = cudaDataType;
using SpMat = cusparseSpMatDescr_t;
using DnVec = cusparseDnVecDescr_t;
using DnMat = cusparseDnMatDescr_t;
using SpGEMMDescr = cusparseSpGEMMDescr_t;

constexpr const char *kName = "cuSPARSE";
constexpr Status kSuccess = CUSPARSE_STATUS_SUCCESS;
constexpr cusparseIndexBase_t kIndexBaseZero = CUSPARSE_INDEX_BASE_ZERO;
/// Dense matrices are row-major with a leading dimension of their column
/// count, as MLIR's lowering lays them out (upstream's wrappers do too).
constexpr cusparseOrder_t kOrderRow = CUSPARSE_ORDER_ROW;
constexpr cusparseSpMVAlg_t kSpMVAlgorithm = CUSPARSE_SPMV_ALG_DEFAULT;
constexpr cusparseSpMMAlg_t kSpMMAlgorithm = CUSPARSE_SPMM_ALG_DEFAULT;
constexpr cusparseSDDMMAlg_t kSDDMMAlgorithm = CUSPARSE_SDDMM_ALG_DEFAULT;
constexpr cusparseSpGEMMAlg_t kSpGEMMAlgorithm = CUSPARSE_SPGEMM_DEFAULT;
// cuSPARSE 12 is the one CUDA 12 and 13 ship; its soname has not changed.
constexpr const char *kLibraryNames[] = {"libcusparse.so.12"};
constexpr const char *kLibraryEnvironmentVariable = "SDFGRT_CUSPARSE_LIBRARY";

} // namespace sparse
} // namespace sdfgrt

#define SDFGRT_SPARSE_SYMBOLS "CUDA/CusparseSymbols.def"
#include "Sparse/SparseSymbolTable.h"

namespace sdfgrt {
namespace sparse {

inline const char *errorName(const Symbols &symbols, Status status) {
  const char *name = symbols.GetErrorName(status);
  return name ? name : "unknown cuSPARSE error";
}

inline const char *errorString(const Symbols &symbols, Status status) {
  const char *text = symbols.GetErrorString(status);
  return text ? text : "no description";
}

/// gpu.create_coo_aos: cuSPARSE 12 removed the AoS COO format
/// (cusparseCreateCooAoS, deprecated since 11.2).
inline bool createCooAoS(const Symbols &, SpMat &, int64_t, int64_t, int64_t,
                         void *, void *, IndexType, DataType) {
  recordFailure("mgpuCreateCooAoS (gpu.create_coo_aos): cuSPARSE 12 has no "
                "AoS COO format (cusparseCreateCooAoS was removed); use "
                "gpu.create_coo");
  return false;
}

/// gpu.create_bsr: square blocks, each row-major.
inline bool createBsr(const Symbols &symbols, SpMat &matrix, int64_t blockRows,
                      int64_t blockColumns, int64_t blockNonZeros,
                      int64_t rowBlockSize, int64_t columnBlockSize,
                      void *rowPositions, void *columnIndices, void *values,
                      IndexType positionType, IndexType indexType,
                      DataType valueType) {
  return SDFGRT_SPARSE_CALL(
      symbols, CreateBsr, &matrix, blockRows, blockColumns, blockNonZeros,
      rowBlockSize, columnBlockSize, rowPositions, columnIndices, values,
      positionType, indexType, kIndexBaseZero, valueType, kOrderRow);
}

} // namespace sparse
} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CUDA_CUSPARSEVENDOR_H
