/* Prints the layout of the memref descriptors that sdfg-compile --header
 * declares for examples/python/smooth_axpy.mlir, as the C compiler sees
 * them, in the format of `smooth_axpy.py self-check`'s "layout" lines. */
#include "smooth_axpy.h"

#include <stddef.h>
#include <stdio.h>

#define FIELD(T, f) printf(" " #f "=%zu", offsetof(T, f))

int main(void) {
  printf("layout sdfg_memref_0d_float size=%zu", sizeof(sdfg_memref_0d_float));
  FIELD(sdfg_memref_0d_float, allocated);
  FIELD(sdfg_memref_0d_float, aligned);
  FIELD(sdfg_memref_0d_float, offset);
  printf("\n");
  printf("layout sdfg_memref_1d_float size=%zu", sizeof(sdfg_memref_1d_float));
  FIELD(sdfg_memref_1d_float, allocated);
  FIELD(sdfg_memref_1d_float, aligned);
  FIELD(sdfg_memref_1d_float, offset);
  FIELD(sdfg_memref_1d_float, sizes);
  FIELD(sdfg_memref_1d_float, strides);
  printf("\n");
  return 0;
}
