// RUN: sdfg-translate --sdfg-to-c-header %s | FileCheck %s
// The header must be valid C and C++.
// RUN: sdfg-translate --sdfg-to-c-header %s -o %t.h
// RUN: printf '#include "%t.h"\n#include "%t.h"\n' | %host_cc -std=c99 -Wall -Werror -fsyntax-only -x c -
// RUN: printf '#include "%t.h"\n' | c++ -Wall -Werror -fsyntax-only -x c++ -

// CHECK: #pragma once
// CHECK: #include <stdint.h>
// CHECK: extern "C" {
// CHECK: #ifndef SDFG_MEMREF_1D_FLOAT_DEFINED
// CHECK: typedef struct {
// CHECK-NEXT:   float *allocated;
// CHECK-NEXT:   float *aligned;
// CHECK-NEXT:   int64_t offset;
// CHECK-NEXT:   int64_t sizes[1];
// CHECK-NEXT:   int64_t strides[1];
// CHECK-NEXT: } sdfg_memref_1d_float;
// CHECK: typedef struct {
// CHECK-NEXT:   int32_t *allocated;
// CHECK-NEXT:   int32_t *aligned;
// CHECK-NEXT:   int64_t offset;
// CHECK-NEXT: } sdfg_memref_0d_int32_t;
// CHECK: int32_t _mlir_ciface_solve(sdfg_memref_1d_float *arg0, sdfg_memref_0d_int32_t *arg1, int64_t arg2, double arg3, void *my_stream);
// CHECK-NEXT: static inline int32_t solve(sdfg_memref_1d_float *arg0, sdfg_memref_0d_int32_t *arg1, int64_t arg2, double arg3, void *my_stream) {
// CHECK-NEXT:   return _mlir_ciface_solve(arg0, arg1, arg2, arg3, my_stream);
// CHECK: int32_t _mlir_ciface_host_only(sdfg_memref_1d_float *arg0);
// func.func programs are declared too: one with the caller's stream that
// returns nothing returns the call's status, like an sdfg.sdfg program;
// host functions return nothing or their one scalar.
// CHECK: int32_t _mlir_ciface_gpu_function(sdfg_memref_1d_float *arg0, void *stream);
// CHECK-NEXT: static inline int32_t gpu_function(sdfg_memref_1d_float *arg0, void *stream) {
// CHECK-NEXT:   return _mlir_ciface_gpu_function(arg0, stream);
// CHECK: int64_t _mlir_ciface_blocks_for(int64_t arg0);
// CHECK: void _mlir_ciface_fill(sdfg_memref_1d_float *arg0, float arg1);
// CHECK-NEXT: static inline void fill(sdfg_memref_1d_float *arg0, float arg1) {
// CHECK-NEXT:   _mlir_ciface_fill(arg0, arg1);
// Private (nested) programs and declarations are not entry points.
// CHECK-NOT: nested
// CHECK-NOT: declared
sdfg.sdfg @solve(%A: memref<?xf32>, %flag: memref<i32>, %n: index, %t: f64,
                 %s: !sdfg.stream {sdfg.external_stream = "my_stream"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
sdfg.sdfg @host_only(%A: memref<8xf32>) target(cpu) {
  sdfg.return
}
sdfg.sdfg private @nested(%A: memref<8xf32>) target(cpu) {
  sdfg.return
}
func.func @gpu_function(%A: memref<?xf32>, %s: !sdfg.stream {sdfg.external_stream = "stream"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  return
}
func.func @blocks_for(%n: index) -> index {
  return %n : index
}
func.func @fill(%A: memref<?xf32>, %v: f32) {
  return
}
func.func private @declared(%n: index)
