// RUN: not sdfg-translate --sdfg-to-c-header %s 2>&1 | FileCheck %s

// A C entry point returns nothing or one scalar; a memref result would be
// returned through a pointer that the header does not describe.
// CHECK: c-header-func-errors.mlir:[[@LINE+1]]:1: error: returns 1 value(s) of type(s) 'memref<4xf32>'; a C entry point is declared only for programs returning nothing or one scalar
func.func @returns_memref(%A: memref<4xf32>) -> memref<4xf32> {
  return %A : memref<4xf32>
}
