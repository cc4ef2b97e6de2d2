// Copies and memsets of views through both lowerings: each view is
// addressed from its first element (aligned pointer + offset), a shift
// within one buffer copies between two offsets, and a view that is not
// dense (or a 64-bit memset) goes to the runtime with its descriptor, all
// on the program's stream.

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit" | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK-LABEL: define dso_local i32 @views(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: %[[SLOT:.*]] = alloca { ptr, ptr, i64, [2 x i64], [2 x i64] }
// The copy into D[4:12] starts at element 4 of D.
// CHECK: %[[INTO:.*]] = getelementptr float, ptr %{{.*}}, i32 4
// CHECK: call void @mgpuMemcpy(ptr %[[INTO]], ptr %{{.*}}, i64 32, ptr %[[S]])
// D[2:14] = D[0:12]: both ends of the shift, 48 bytes.
// CHECK: %[[SHIFTED:.*]] = getelementptr float, ptr %{{.*}}, i32 2
// CHECK: call void @mgpuMemcpy(ptr %[[SHIFTED]], ptr %{{.*}}, i64 48, ptr %[[S]])
// The 3x4 tile of M at (1, 2), set to an f64.
// CHECK: store { ptr, ptr, i64, [2 x i64], [2 x i64] } %{{.*}}, ptr %[[SLOT]]
// CHECK: call void @sdfgrtMemsetStrided(i64 2, ptr %[[SLOT]], i64 8, i64 %{{.*}}, ptr %[[S]])
module attributes {gpu.container_module} {
  func.func @views(%D: memref<16xf32, #gpu.address_space<global>>, %H: memref<8xf32>,
                   %M: memref<8x8xf64, #gpu.address_space<global>>, %v: f64) {
    %into = memref.subview %D[4] [8] [1] : memref<16xf32, #gpu.address_space<global>> to memref<8xf32, strided<[1], offset: 4>, #gpu.address_space<global>>
    gpu.memcpy %into, %H : memref<8xf32, strided<[1], offset: 4>, #gpu.address_space<global>>, memref<8xf32>
    %from = memref.subview %D[0] [12] [1] : memref<16xf32, #gpu.address_space<global>> to memref<12xf32, strided<[1]>, #gpu.address_space<global>>
    %to = memref.subview %D[2] [12] [1] : memref<16xf32, #gpu.address_space<global>> to memref<12xf32, strided<[1], offset: 2>, #gpu.address_space<global>>
    gpu.memcpy %to, %from : memref<12xf32, strided<[1], offset: 2>, #gpu.address_space<global>>, memref<12xf32, strided<[1]>, #gpu.address_space<global>>
    %tile = memref.subview %M[1, 2] [3, 4] [1, 1] : memref<8x8xf64, #gpu.address_space<global>> to memref<3x4xf64, strided<[8, 1], offset: 10>, #gpu.address_space<global>>
    gpu.memset %tile, %v : memref<3x4xf64, strided<[8, 1], offset: 10>, #gpu.address_space<global>>, f64
    return
  }
}
