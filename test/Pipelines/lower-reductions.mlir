// sdfg.reduce on 64-bit and 1-bit element types through both lowerings.
// The f64/i64 outputs are set to the identity with sdfgrtMemsetStrided
// (no vendor has a 64-bit memset) and combined with 64-bit atomics; the i1
// reduction, which has no atomics, is one block and sets nothing first.

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefixes=CHECK,CUDA
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefixes=CHECK,ROCM

// The kernels combine 64-bit values atomically in global memory (gfx90a
// with a compare-and-swap loop).
// CUDA-DAG: atom.global.add.f64
// CUDA-DAG: atom.global.min.s64
// ROCM: global_atomic_cmpswap_x2

// CHECK-LABEL: define internal i32 @__sdfg_reduce_add_f64_gpu(
// CHECK: call void @sdfgrtMemsetStrided(i64 0, ptr %{{.*}}, i64 8, i64 0, ptr %{{.*}})
// CHECK: call void @mgpuLaunchKernel(
// CHECK-LABEL: define internal i32 @__sdfg_reduce_min_i64_gpu(
// CHECK: call void @sdfgrtMemsetStrided(i64 0, ptr %{{.*}}, i64 8, i64 9223372036854775807, ptr %{{.*}})
// CHECK: call void @mgpuLaunchKernel(
// CHECK-LABEL: define internal i32 @__sdfg_reduce_add_i1_gpu(
// CHECK-NOT: Memset
// CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 1, i64 1, i64 1, i64 256, i64 1, i64 1,
sdfg.sdfg @reductions(%A: memref<?xf64, 1>, %a: memref<f64, 1>, %B: memref<?xi64, 1>, %b: memref<i64, 1>,
                      %C: memref<?xi1, 1>, %c: memref<i1, 1>) target(gpu) {
  sdfg.reduce add %A into %a : memref<?xf64, 1> -> memref<f64, 1>
  sdfg.reduce min %B into %b : memref<?xi64, 1> -> memref<i64, 1>
  sdfg.reduce add %C into %c : memref<?xi1, 1> -> memref<i1, 1>
  sdfg.return
}
