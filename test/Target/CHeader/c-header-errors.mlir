// RUN: not sdfg-translate --sdfg-to-c-header %s 2>&1 | FileCheck %s
// CHECK: c-header-errors.mlir:[[@LINE+1]]:1: error: memref element type 'complex<f32>' has no C equivalent
sdfg.sdfg @complex_array(%A: memref<4xcomplex<f32>>) target(cpu) {
  sdfg.return
}

