//===- SparseVendor.h - hipSPARSE for the runtime ---------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the sparse entries (Sparse/*.cpp) need to know about hipSPARSE: its
// types, the library to open, the entry points (HipsparseSymbols.def), and the
// formats whose calls differ from cuSPARSE's. Only the header is used (Debian's
// libhipsparse-dev): libhipsparse.so is opened at the first sparse operation,
// never linked. MLIR passes cuSPARSE's enum values; hipSPARSE's index types,
// operations and hipDataType have the same values.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_HIP_HIPSPARSEVENDOR_H
#define SDFGSTREAM_LIB_RUNTIME_HIP_HIPSPARSEVENDOR_H

#include "Core/RuntimeInternal.h"

#include <hipsparse/hipsparse.h>

namespace sdfgrt {
namespace sparse {

using Status = hipsparseStatus_t;
using Handle = hipsparseHandle_t;
using Stream = hipStream_t;
using Operation = hipsparseOperation_t;
using IndexType = hipsparseIndexType_t;
using DataType = hipDataType;
using SpMat = hipsparseSpMatDescr_t;
using DnVec = hipsparseDnVecDescr_t;
using DnMat = hipsparseDnMatDescr_t;
using SpGEMMDescr = hipsparseSpGEMMDescr_t;

constexpr const char *kName = "hipSPARSE";
constexpr Status kSuccess = HIPSPARSE_STATUS_SUCCESS;
constexpr hipsparseIndexBase_t kIndexBaseZero = HIPSPARSE_INDEX_BASE_ZERO;
/// Dense matrices are row-major with a leading dimension of their column
/// count, as MLIR's lowering lays them out.
constexpr hipsparseOrder_t kOrderRow = HIPSPARSE_ORDER_ROW;
constexpr hipsparseSpMVAlg_t kSpMVAlgorithm = HIPSPARSE_SPMV_ALG_DEFAULT;
constexpr hipsparseSpMMAlg_t kSpMMAlgorithm = HIPSPARSE_SPMM_ALG_DEFAULT;
constexpr hipsparseSDDMMAlg_t kSDDMMAlgorithm = HIPSPARSE_SDDMM_ALG_DEFAULT;
constexpr hipsparseSpGEMMAlg_t kSpGEMMAlgorithm = HIPSPARSE_SPGEMM_DEFAULT;
// The development link (ROCm, or Debian's libhipsparse-dev), then the
// sonames of ROCm 6 and of ROCm 5 (Debian 12).
constexpr const char *kLibraryNames[] = {"libhipsparse.so", "libhipsparse.so.1",
                                         "libhipsparse.so.0"};
constexpr const char *kLibraryEnvironmentVariable = "SDFGRT_HIPSPARSE_LIBRARY";

} // namespace sparse
} // namespace sdfgrt

#define SDFGRT_SPARSE_SYMBOLS "HIP/HipsparseSymbols.def"
#include "Sparse/SparseSymbolTable.h"

namespace sdfgrt {
namespace sparse {

/// hipSPARSE 5 has no hipsparseGetErrorName: the names of
/// hipsparseStatus_t, in enum order.
inline const char *errorName(const Symbols &, Status status) {
  static constexpr const char *kNames[] = {
      "HIPSPARSE_STATUS_SUCCESS",
      "HIPSPARSE_STATUS_NOT_INITIALIZED",
      "HIPSPARSE_STATUS_ALLOC_FAILED",
      "HIPSPARSE_STATUS_INVALID_VALUE",
      "HIPSPARSE_STATUS_ARCH_MISMATCH",
      "HIPSPARSE_STATUS_MAPPING_ERROR",
      "HIPSPARSE_STATUS_EXECUTION_FAILED",
      "HIPSPARSE_STATUS_INTERNAL_ERROR",
      "HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
      "HIPSPARSE_STATUS_ZERO_PIVOT",
      "HIPSPARSE_STATUS_NOT_SUPPORTED",
      "HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES"};
  size_t index = static_cast<size_t>(status);
  return index < sizeof(kNames) / sizeof(kNames[0]) ? kNames[index]
                                                    : "unknown hipSPARSE error";
}

inline const char *errorString(const Symbols &, Status) {
  return "hipSPARSE status";
}

/// gpu.create_coo_aos: one array of (row, column) pairs.
inline bool createCooAoS(const Symbols &symbols, SpMat &matrix, int64_t rows,
                         int64_t columns, int64_t nonZeros, void *indices,
                         void *values, IndexType indexType,
                         DataType valueType) {
  return SDFGRT_SPARSE_CALL(symbols, CreateCooAoS, &matrix, rows, columns,
                            nonZeros, indices, values, indexType,
                            kIndexBaseZero, valueType);
}

/// gpu.create_bsr: hipSPARSE's generic API has no BSR matrix.
inline bool createBsr(const Symbols &, SpMat &, int64_t, int64_t, int64_t,
                      int64_t, int64_t, void *, void *, void *, IndexType,
                      IndexType, DataType) {
  recordFailure("mgpuCreateBsr (gpu.create_bsr): hipSPARSE's generic API has "
                "no BSR matrix (no hipsparseCreateBsr); use gpu.create_csr");
  return false;
}

} // namespace sparse
} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_HIP_HIPSPARSEVENDOR_H
