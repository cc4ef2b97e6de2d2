// CUDA-only programs shaped like upstream MLIR's CUDA integration tests:
// wmma through the gpu dialect, nvgpu.mma.sync, an sm_90 cluster launch,
// cf.assert in a kernel and a TMA descriptor made on the host. Each lowers completely (mlir-translate accepts
// the output), on the program's stream.

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" > %t.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir | FileCheck %s

// KERNEL-DAG: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// KERNEL-DAG: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// KERNEL-DAG: __assertfail
// A uniform i32 subgroup reduction on sm_90: redux.sync (has-redux).
// KERNEL-DAG: redux.sync.add.s32

// CHECK-LABEL: define dso_local i32 @wmma(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @mgpuLaunchKernel({{.*}}, i64 32, i64 1, i64 1, i32 0, ptr %[[S]],
// CHECK-LABEL: define dso_local i32 @mma(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @mgpuLaunchKernel({{.*}}, ptr %[[S]],
// The cluster shape comes first, then the grid.
// CHECK-LABEL: define dso_local i32 @cluster(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @mgpuLaunchClusterKernel(ptr %{{.*}}, i64 2, i64 1, i64 1, i64 4, i64 1, i64 1, i64 1, i64 1, i64 1, i32 0, ptr %[[S]],
// CHECK-LABEL: define dso_local i32 @checked(
// CHECK: call void @mgpuLaunchKernel(
// The descriptor is the runtime's (f32 = 7, zero fill = 0; box 32x32).
// CHECK-LABEL: define dso_local ptr @describe(
// CHECK: %[[MAP:.*]] = call ptr @mgpuTensorMapEncodeTiledMemref(i64 %{{.*}}, ptr %{{.*}}, i64 7, i64 0, i64 0, i64 0, i64 0, ptr %{{.*}})
// CHECK: ret ptr %[[MAP]]
module attributes {gpu.container_module} {
  // Tensor cores through the gpu dialect (wmma), 16x16x16 f16.
  func.func @wmma(%a: memref<16x16xf16, #gpu.address_space<global>>, %b: memref<16x16xf16, #gpu.address_space<global>>, %c: memref<16x16xf32, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<global>> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<global>> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32, #gpu.address_space<global>> -> !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<global>>
      gpu.terminator
    }
    return
  }

  // Tensor cores through nvgpu: one m16n8k16 f16 mma.sync per warp, the
  // fragments held in registers.
  gpu.module @mma_kernels {
    gpu.func @mma_sync(%out: memref<32x4xf16, #gpu.address_space<global>>) kernel {
      %a = arith.constant dense<1.0> : vector<4x2xf16>
      %b = arith.constant dense<2.0> : vector<2x2xf16>
      %c = arith.constant dense<0.0> : vector<2x2xf16>
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
      %lane = gpu.lane_id
      %c0 = arith.constant 0 : index
      %row = vector.extract %d[0] : vector<2xf16> from vector<2x2xf16>
      vector.store %row, %out[%lane, %c0] : memref<32x4xf16, #gpu.address_space<global>>, vector<2xf16>
      gpu.return
    }
  }
  func.func @mma(%out: memref<32x4xf16, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @mma_kernels::@mma_sync blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32x4xf16, #gpu.address_space<global>>)
    return
  }

  // sm_90 thread block clusters: 2x1x1 clusters of the 4 blocks.
  func.func @cluster(%out: memref<4xi32, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c2, %sy = %c1, %sz = %c1)
               blocks(%bx, %by, %bz) in (%x = %c4, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
      %rank = gpu.cluster_block_id x
      %r = arith.index_cast %rank : index to i32
      %block = gpu.block_id x
      memref.store %r, %out[%block] : memref<4xi32, #gpu.address_space<global>>
      gpu.terminator
    }
    return
  }
  func.func @warp_sum(%data: memref<32xi32, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
      %v0 = memref.load %data[%tx] : memref<32xi32, #gpu.address_space<global>>
      %sum = gpu.subgroup_reduce add %v0 uniform : (i32) -> i32
      memref.store %sum, %data[%tx] : memref<32xi32, #gpu.address_space<global>>
      gpu.terminator
    }
    return
  }
  func.func @checked(%data: memref<32xf32, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
      %v0 = memref.load %data[%tx] : memref<32xf32, #gpu.address_space<global>>
      %zero = arith.constant 0.0 : f32
      %ok = arith.cmpf oge, %v0, %zero : f32
      cf.assert %ok, "negative input"
      gpu.terminator
    }
    return
  }

  func.func @describe(%D: memref<64x128xf32>) -> !nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none> {
    %c32 = arith.constant 32 : index
    %u = memref.cast %D : memref<64x128xf32> to memref<*xf32>
    %map = nvgpu.tma.create.descriptor %u box[%c32, %c32] : memref<*xf32> -> !nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
    return %map : !nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  }
}
