//===- FakeCusparse.cpp - A cuSPARSE without a GPU, for tests -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "FakeCusparse.h"

#include "FakeCudaDriver.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>

using namespace fakecusparse;

struct cusparseSpMatDescr {
  int64_t rows, cols, nnz;
  void *positions, *coordinates, *values;
  cusparseIndexType_t positionType, coordinateType;
  cudaDataType valueType;
  bool csr;
};
struct cusparseDnVecDescr {
  int64_t size;
  void *values;
  cudaDataType valueType;
};
struct cusparseDnMatDescr {
  int64_t rows, cols, ld;
  void *values;
  cudaDataType valueType;
  cusparseOrder_t order;
};
struct cusparseSpGEMMDescr {
  int unused;
};

namespace {

std::recursive_mutex libraryMutex;
std::deque<cusparseContext> handleStorage;
std::deque<cusparseSpMatDescr> spMats;
std::deque<cusparseDnVecDescr> dnVecs;
std::deque<cusparseDnMatDescr> dnMats;
std::deque<cusparseSpGEMMDescr> spGEMMs;

/// Records the call; its status (the test's failure for `failingCall`).
cusparseStatus_t enter(const char *name, cusparseHandle_t handle = nullptr) {
  std::lock_guard<std::recursive_mutex> lock(libraryMutex);
  library().calls.push_back({name, handle, handle ? handle->stream : nullptr,
                             fakecuda::currentContext()});
  return library().failingCall == name ? library().failure
                                       : CUSPARSE_STATUS_SUCCESS;
}

#define ENTER(...)                                                             \
  if (cusparseStatus_t status = enter(__VA_ARGS__))                            \
  return status

/// A handle must be used in the context it was created in.
cusparseStatus_t checkContext(cusparseHandle_t handle) {
  return handle && handle->context == fakecuda::currentContext()
             ? CUSPARSE_STATUS_SUCCESS
             : CUSPARSE_STATUS_NOT_INITIALIZED;
}

bool isCsrF32(const cusparseSpMatDescr *a) {
  return a->csr && a->positionType == CUSPARSE_INDEX_32I &&
         a->coordinateType == CUSPARSE_INDEX_32I && a->valueType == CUDA_R_32F;
}

float scalar(const void *value) {
  float result;
  std::memcpy(&result, value, sizeof(result));
  return result;
}

} // namespace

int Library::count(const std::string &name) const {
  int n = 0;
  for (const Call &call : calls)
    n += call.name == name;
  return n;
}

std::vector<std::string> Library::names() const {
  std::vector<std::string> result;
  for (const Call &call : calls)
    if (call.name.rfind("cusparseGetError", 0) != 0)
      result.push_back(call.name);
  return result;
}

Library &fakecusparse::library() {
  static Library instance;
  return instance;
}

void fakecusparse::reset() {
  std::lock_guard<std::recursive_mutex> lock(libraryMutex);
  library() = Library();
  handleStorage.clear();
  spMats.clear();
  dnVecs.clear();
  dnMats.clear();
  spGEMMs.clear();
}

extern "C" {

const char *cusparseGetErrorName(cusparseStatus_t status) {
  enter("cusparseGetErrorName");
  switch (status) {
  case CUSPARSE_STATUS_NOT_INITIALIZED:
    return "CUSPARSE_STATUS_NOT_INITIALIZED";
  case CUSPARSE_STATUS_INVALID_VALUE:
    return "CUSPARSE_STATUS_INVALID_VALUE";
  case CUSPARSE_STATUS_NOT_SUPPORTED:
    return "CUSPARSE_STATUS_NOT_SUPPORTED";
  default:
    return "CUSPARSE_STATUS_INTERNAL_ERROR";
  }
}

const char *cusparseGetErrorString(cusparseStatus_t status) {
  enter("cusparseGetErrorString");
  return status == CUSPARSE_STATUS_INVALID_VALUE ? "invalid value"
                                                 : "fake failure";
}

cusparseStatus_t cusparseCreate(cusparseHandle_t *handle) {
  ENTER("cusparseCreate");
  if (!fakecuda::currentContext())
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  std::lock_guard<std::recursive_mutex> lock(libraryMutex);
  handleStorage.push_back({fakecuda::currentContext(), nullptr});
  *handle = &handleStorage.back();
  library().handles.push_back(*handle);
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetStream(cusparseHandle_t handle,
                                   cudaStream_t stream) {
  ENTER("cusparseSetStream", handle);
  if (cusparseStatus_t status = checkContext(handle))
    return status;
  handle->stream = stream;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *descr, int64_t size,
                                     void *values, cudaDataType valueType) {
  ENTER("cusparseCreateDnVec");
  dnVecs.push_back({size, values, valueType});
  *descr = &dnVecs.back();
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t) {
  ENTER("cusparseDestroyDnVec");
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *descr, int64_t rows,
                                     int64_t cols, int64_t ld, void *values,
                                     cudaDataType valueType,
                                     cusparseOrder_t order) {
  ENTER("cusparseCreateDnMat");
  dnMats.push_back({rows, cols, ld, values, valueType, order});
  *descr = &dnMats.back();
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroyDnMat(cusparseConstDnMatDescr_t) {
  ENTER("cusparseDestroyDnMat");
  return CUSPARSE_STATUS_SUCCESS;
}

static cusparseStatus_t createSpMat(cusparseSpMatDescr_t *descr, int64_t rows,
                                    int64_t cols, int64_t nnz, void *positions,
                                    void *coordinates, void *values,
                                    cusparseIndexType_t positionType,
                                    cusparseIndexType_t coordinateType,
                                    cusparseIndexBase_t base,
                                    cudaDataType valueType, bool csr) {
  if (base != CUSPARSE_INDEX_BASE_ZERO)
    return CUSPARSE_STATUS_INVALID_VALUE;
  spMats.push_back({rows, cols, nnz, positions, coordinates, values,
                    positionType, coordinateType, valueType, csr});
  *descr = &spMats.back();
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateCoo(cusparseSpMatDescr_t *descr, int64_t rows,
                                   int64_t cols, int64_t nnz, void *rowInd,
                                   void *colInd, void *values,
                                   cusparseIndexType_t indexType,
                                   cusparseIndexBase_t base,
                                   cudaDataType valueType) {
  ENTER("cusparseCreateCoo");
  return createSpMat(descr, rows, cols, nnz, rowInd, colInd, values, indexType,
                     indexType, base, valueType, false);
}

cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *descr, int64_t rows,
                                   int64_t cols, int64_t nnz, void *rowOffsets,
                                   void *colInd, void *values,
                                   cusparseIndexType_t rowOffsetsType,
                                   cusparseIndexType_t colIndType,
                                   cusparseIndexBase_t base,
                                   cudaDataType valueType) {
  ENTER("cusparseCreateCsr");
  return createSpMat(descr, rows, cols, nnz, rowOffsets, colInd, values,
                     rowOffsetsType, colIndType, base, valueType, true);
}

cusparseStatus_t cusparseCreateCsc(cusparseSpMatDescr_t *descr, int64_t rows,
                                   int64_t cols, int64_t nnz, void *colOffsets,
                                   void *rowInd, void *values,
                                   cusparseIndexType_t colOffsetsType,
                                   cusparseIndexType_t rowIndType,
                                   cusparseIndexBase_t base,
                                   cudaDataType valueType) {
  ENTER("cusparseCreateCsc");
  return createSpMat(descr, rows, cols, nnz, colOffsets, rowInd, values,
                     colOffsetsType, rowIndType, base, valueType, false);
}

cusparseStatus_t
cusparseCreateBsr(cusparseSpMatDescr_t *descr, int64_t brows, int64_t bcols,
                  int64_t bnnz, int64_t rowBlockSize, int64_t colBlockSize,
                  void *rowOffsets, void *colInd, void *values,
                  cusparseIndexType_t rowOffsetsType,
                  cusparseIndexType_t colIndType, cusparseIndexBase_t base,
                  cudaDataType valueType, cusparseOrder_t order) {
  ENTER("cusparseCreateBsr");
  if (rowBlockSize != colBlockSize || order != CUSPARSE_ORDER_ROW)
    return CUSPARSE_STATUS_INVALID_VALUE;
  return createSpMat(descr, brows * rowBlockSize, bcols * colBlockSize,
                     bnnz * rowBlockSize * colBlockSize, rowOffsets, colInd,
                     values, rowOffsetsType, colIndType, base, valueType,
                     false);
}

cusparseStatus_t cusparseCsrSetPointers(cusparseSpMatDescr_t descr,
                                        void *rowOffsets, void *colInd,
                                        void *values) {
  ENTER("cusparseCsrSetPointers");
  descr->positions = rowOffsets;
  descr->coordinates = colInd;
  descr->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetSize(cusparseConstSpMatDescr_t descr,
                                      int64_t *rows, int64_t *cols,
                                      int64_t *nnz) {
  ENTER("cusparseSpMatGetSize");
  *rows = descr->rows;
  *cols = descr->cols;
  *nnz = descr->nnz;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t) {
  ENTER("cusparseDestroySpMat");
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV_bufferSize(
    cusparseHandle_t handle, cusparseOperation_t, const void *,
    cusparseConstSpMatDescr_t, cusparseConstDnVecDescr_t, const void *,
    cusparseDnVecDescr_t, cudaDataType, cusparseSpMVAlg_t, size_t *size) {
  ENTER("cusparseSpMV_bufferSize", handle);
  if (cusparseStatus_t status = checkContext(handle))
    return status;
  *size = library().spmvBufferSize;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t op,
                              const void *alpha, cusparseConstSpMatDescr_t a,
                              cusparseConstDnVecDescr_t x, const void *beta,
                              cusparseDnVecDescr_t y, cudaDataType computeType,
                              cusparseSpMVAlg_t, void *) {
  ENTER("cusparseSpMV", handle);
  if (cusparseStatus_t status = checkContext(handle))
    return status;
  if (op != CUSPARSE_OPERATION_NON_TRANSPOSE || !isCsrF32(a) ||
      computeType != CUDA_R_32F || x->size != a->cols || y->size != a->rows)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  auto *offsets = static_cast<const int32_t *>(a->positions);
  auto *columns = static_cast<const int32_t *>(a->coordinates);
  auto *values = static_cast<const float *>(a->values);
  auto *in = static_cast<const float *>(x->values);
  auto *out = static_cast<float *>(y->values);
  for (int64_t row = 0; row < a->rows; ++row) {
    float sum = 0;
    for (int32_t k = offsets[row]; k < offsets[row + 1]; ++k)
      sum += values[k] * in[columns[k]];
    out[row] = scalar(alpha) * sum + scalar(beta) * out[row];
  }
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t
cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t,
                        cusparseOperation_t, const void *,
                        cusparseConstSpMatDescr_t, cusparseConstDnMatDescr_t,
                        const void *, cusparseDnMatDescr_t, cudaDataType,
                        cusparseSpMMAlg_t, size_t *size) {
  ENTER("cusparseSpMM_bufferSize", handle);
  if (cusparseStatus_t status = checkContext(handle))
    return status;
  *size = 256;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA,
                              cusparseOperation_t opB, const void *alpha,
                              cusparseConstSpMatDescr_t a,
                              cusparseConstDnMatDescr_t b, const void *beta,
                              cusparseDnMatDescr_t c, cudaDataType computeType,
                              cusparseSpMMAlg_t, void *) {
  ENTER("cusparseSpMM", handle);
  if (cusparseStatus_t status = checkContext(handle))
    return status;
  if (opA != CUSPARSE_OPERATION_NON_TRANSPOSE ||
      opB != CUSPARSE_OPERATION_NON_TRANSPOSE || !isCsrF32(a) ||
      computeType != CUDA_R_32F || b->order != CUSPARSE_ORDER_ROW ||
      c->order != CUSPARSE_ORDER_ROW || b->rows != a->cols ||
      c->rows != a->rows || c->cols != b->cols)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  auto *offsets = static_cast<const int32_t *>(a->positions);
  auto *columns = static_cast<const int32_t *>(a->coordinates);
  auto *values = static_cast<const float *>(a->values);
  auto *in = static_cast<const float *>(b->values);
  auto *out = static_cast<float *>(c->values);
  for (int64_t row = 0; row < a->rows; ++row) {
    for (int64_t col = 0; col < b->cols; ++col) {
      float sum = 0;
      for (int32_t k = offsets[row]; k < offsets[row + 1]; ++k)
        sum += values[k] * in[columns[k] * b->ld + col];
      float &result = out[row * c->ld + col];
      result = scalar(alpha) * sum + scalar(beta) * result;
    }
  }
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t
cusparseSDDMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t,
                         cusparseOperation_t, const void *,
                         cusparseConstDnMatDescr_t, cusparseConstDnMatDescr_t,
                         const void *, cusparseSpMatDescr_t, cudaDataType,
                         cusparseSDDMMAlg_t, size_t *size) {
  ENTER("cusparseSDDMM_bufferSize", handle);
  *size = 64;
  return checkContext(handle);
}

cusparseStatus_t cusparseSDDMM(cusparseHandle_t handle, cusparseOperation_t,
                               cusparseOperation_t, const void *,
                               cusparseConstDnMatDescr_t,
                               cusparseConstDnMatDescr_t, const void *,
                               cusparseSpMatDescr_t, cudaDataType,
                               cusparseSDDMMAlg_t, void *) {
  ENTER("cusparseSDDMM", handle);
  return checkContext(handle);
}

cusparseStatus_t cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t *descr) {
  ENTER("cusparseSpGEMM_createDescr");
  spGEMMs.push_back({0});
  *descr = &spGEMMs.back();
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpGEMM_destroyDescr(cusparseSpGEMMDescr_t) {
  ENTER("cusparseSpGEMM_destroyDescr");
  return CUSPARSE_STATUS_SUCCESS;
}

/// Both SpGEMM phases: a query (no buffer) answers 128 bytes, the call
/// with a buffer keeps its size.
static cusparseStatus_t spGEMMPhase(cusparseHandle_t handle, size_t *size,
                                    void *buffer) {
  if (cusparseStatus_t status = checkContext(handle))
    return status;
  if (!buffer)
    *size = 128;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpGEMM_workEstimation(
    cusparseHandle_t handle, cusparseOperation_t, cusparseOperation_t,
    const void *, cusparseConstSpMatDescr_t, cusparseConstSpMatDescr_t,
    const void *, cusparseSpMatDescr_t, cudaDataType, cusparseSpGEMMAlg_t,
    cusparseSpGEMMDescr_t, size_t *size, void *buffer) {
  ENTER("cusparseSpGEMM_workEstimation", handle);
  return spGEMMPhase(handle, size, buffer);
}

cusparseStatus_t cusparseSpGEMM_compute(
    cusparseHandle_t handle, cusparseOperation_t, cusparseOperation_t,
    const void *, cusparseConstSpMatDescr_t, cusparseConstSpMatDescr_t,
    const void *, cusparseSpMatDescr_t, cudaDataType, cusparseSpGEMMAlg_t,
    cusparseSpGEMMDescr_t, size_t *size, void *buffer) {
  ENTER("cusparseSpGEMM_compute", handle);
  return spGEMMPhase(handle, size, buffer);
}

cusparseStatus_t cusparseSpGEMM_copy(cusparseHandle_t handle,
                                     cusparseOperation_t, cusparseOperation_t,
                                     const void *, cusparseConstSpMatDescr_t,
                                     cusparseConstSpMatDescr_t, const void *,
                                     cusparseSpMatDescr_t, cudaDataType,
                                     cusparseSpGEMMAlg_t,
                                     cusparseSpGEMMDescr_t) {
  ENTER("cusparseSpGEMM_copy", handle);
  return checkContext(handle);
}

} // extern "C"
