//===- RunnerUtils.cpp - printMemref* and vector.print without MLIR -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The printing entries that programs written like upstream MLIR's
// integration tests call: `printMemrefF32` and its siblings (ranked memrefs
// cast to `memref<*xT>`, with or without `llvm.emit_c_interface`) and the
// elementary functions `vector.print` lowers to. Upstream has them in
// libmlir_c_runner_utils / libmlir_runner_utils, but Debian's build of those
// links libMLIR.so and libLLVM.so, which a GPU machine running compiled
// programs does not have. This archive is built from MLIR's header-only
// printers (mlir/ExecutionEngine/RunnerUtils.h), so the output is upstream's
// byte for byte, and needs nothing of MLIR at run time. sdfg-compile links it
// into a .so output on demand: only a program that calls one of these gets
// it.
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/RunnerUtils.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace {
/// Prints the unranked memref that the non-C-interface entries take as
/// (rank, descriptor pointer).
template <typename T> void printUnranked(int64_t rank, void *descriptor) {
  UnrankedMemRefType<T> memref = {rank, descriptor};
  impl::printMemRef(memref);
}
} // namespace

#define SDFGSTREAM_PRINT_MEMREF(Suffix, Type)                                  \
  extern "C" void _mlir_ciface_printMemref##Suffix(                            \
      UnrankedMemRefType<Type> *memref) {                                      \
    impl::printMemRef(*memref);                                                \
  }                                                                            \
  extern "C" void printMemref##Suffix(int64_t rank, void *descriptor) {        \
    printUnranked<Type>(rank, descriptor);                                     \
  }
SDFGSTREAM_PRINT_MEMREF(I8, int8_t)
SDFGSTREAM_PRINT_MEMREF(I16, int16_t)
SDFGSTREAM_PRINT_MEMREF(I32, int32_t)
SDFGSTREAM_PRINT_MEMREF(I64, int64_t)
SDFGSTREAM_PRINT_MEMREF(F32, float)
SDFGSTREAM_PRINT_MEMREF(F64, double)
SDFGSTREAM_PRINT_MEMREF(Ind, impl::index_type)
#undef SDFGSTREAM_PRINT_MEMREF

// vector.print's elementary functions, formatted as upstream's
// (CRunnerUtils.cpp): %g for floats, a negative NaN as "-nan".
extern "C" void printI64(int64_t value) { fprintf(stdout, "%" PRId64, value); }
extern "C" void printU64(uint64_t value) { fprintf(stdout, "%" PRIu64, value); }
extern "C" void printF32(float value) {
  if (std::isnan(value) && std::signbit(value))
    fputs("-nan", stdout);
  else
    fprintf(stdout, "%g", value);
}
extern "C" void printF64(double value) {
  if (std::isnan(value) && std::signbit(value))
    fputs("-nan", stdout);
  else
    fprintf(stdout, "%lg", value);
}
extern "C" void printString(const char *text) { fputs(text, stdout); }
extern "C" void printOpen() { fputs("( ", stdout); }
extern "C" void printClose() { fputs(" )", stdout); }
extern "C" void printComma() { fputs(", ", stdout); }
extern "C" void printNewline() { fputc('\n', stdout); }

/// `memref.copy` between host memrefs whose layout is not contiguous (a
/// box of a larger array, a column-major array): MemRefToLLVM calls this
/// where it cannot emit one llvm.memcpy (DaCe's copies between subsets).
/// Copies element by element in row-major order of the common shape.
extern "C" void memrefCopy(int64_t elementSize, UnrankedMemRefType<char> *src,
                           UnrankedMemRefType<char> *dst) {
  DynamicMemRefType<char> from(*src), to(*dst);
  char *source = from.data + from.offset * elementSize;
  char *target = to.data + to.offset * elementSize;
  int64_t rank = from.rank;
  for (int64_t dim = 0; dim < rank; ++dim)
    if (from.sizes[dim] == 0)
      return;
  int64_t index[64] = {0};
  if (rank > 64)
    return;
  while (true) {
    int64_t fromOffset = 0, toOffset = 0;
    for (int64_t dim = 0; dim < rank; ++dim) {
      fromOffset += index[dim] * from.strides[dim];
      toOffset += index[dim] * to.strides[dim];
    }
    std::memcpy(target + toOffset * elementSize,
                source + fromOffset * elementSize, elementSize);
    int64_t dim = rank - 1;
    while (dim >= 0 && ++index[dim] == from.sizes[dim])
      index[dim--] = 0;
    if (dim < 0)
      return;
  }
}
