//===- SparseStructured.cpp - 2:4 structured sparsity, refused --*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The entries of gpu.create_2to4_spmat and the 2:4 gpu.spmm, which
// upstream implements with cuSPARSELt: exported with upstream's ABI, so
// that a program using them links and loads, and each one fails, saying
// why. Separate from the other sparse entries because they never reach a
// sparse library.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/RuntimeInternal.h"

using namespace sdfgrt;

namespace {

/// Fails `entry` (skipped after an earlier failure of the program call).
void rejectStructuredSparsity(const char *entry) {
  if (startLibraryOperation())
    recordFailure("%s: 2:4 structured sparsity (gpu.create_2to4_spmat and "
                  "the gpu.spmm on it) needs cuSPARSELt, which the "
                  "SDFGStream runtime does not support",
                  entry);
}

} // namespace

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
