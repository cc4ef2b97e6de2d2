//===- Sparse.h - What the sparse entries share -----------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The mgpu* entries that MLIR's gpu-to-llvm emits for the gpu dialect's
// sparse operations (gpu.create_csr, gpu.spmv, gpu.spgemm_*, ...), with the
// ABI of upstream's wrappers, over cuSPARSE or hipSPARSE (compiled once per
// vendor, like the rest of the runtime, against CUDA/SparseVendor.h or
// HIP/SparseVendor.h). The descriptor entries (SparseDescriptors.cpp)
// and the operations on a stream (SparseOperations.cpp) share the library
// and its handles (SparseLibrary.cpp) and the conversions of the ABI's
// untyped arguments declared here. No stream is created and nothing
// synchronizes; failures are recorded like the runtime's own, with the
// library's error name and the op's location. Only for those files.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_SPARSESHARED_H
#define SDFGSTREAM_LIB_RUNTIME_SPARSESHARED_H

#include "Core/RuntimeInternal.h"

// The vendor's sparse library: CMake puts its folder (CUDA/ or HIP/) on
// the include path.
#include "SparseVendor.h"

#include <cstdint>

namespace sdfgrt {
namespace sparse {

/// The sparse library's table, opening it at the first use; null (the
/// reason recorded) if it cannot be used (SparseLibrary.cpp).
const Symbols *sparseSymbols();

/// The calling thread's handle for `context`, which is current; created at
/// the first use (the library's own set-up, device allocations included,
/// happens then: make the first sparse call of a thread outside a graph
/// capture) (SparseLibrary.cpp).
bool handleFor(const Symbols &symbols, uint64_t context, Handle &handle);

// The ABI passes descriptors as pointers and library enums as integers
// (MLIR passes cudaDataType codes; hipDataType has the same ones).
inline DataType dataType(int32_t type) { return static_cast<DataType>(type); }
inline SpMat spMat(void *matrix) { return static_cast<SpMat>(matrix); }
inline DnVec dnVec(void *vector) { return static_cast<DnVec>(vector); }
inline DnMat dnMat(void *matrix) { return static_cast<DnMat>(matrix); }
inline SpGEMMDescr spGEMM(void *descr) {
  return static_cast<SpGEMMDescr>(descr);
}

} // namespace sparse
} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_SPARSESHARED_H
