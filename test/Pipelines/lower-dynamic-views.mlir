// Views with dynamic offsets and sizes (a row of a ?x? buffer, a collapsed
// ?x? buffer), in host code and in a kernel, through both lowerings.
// expand-strided-metadata turns them into reinterpret_casts whose offsets
// are affine.apply ops, which lower-affine must see after it: they were left
// unconverted ("'affine.apply' op was not lowered to the LLVM dialect").

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefixes=CHECK,PTX
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit" | mlir-translate --mlir-to-llvmir | FileCheck %s

// The kernel's row address: a 64-bit multiply of the row by the stride.
// PTX: @rows_kernel_binary = internal constant {{.*}}mul.lo.s64
// The copy into row %row of D starts at element %row * stride 0 of D.
// CHECK-LABEL: define dso_local i32 @rows(
// CHECK-SAME: i64 %[[ROW:[0-9]+]], ptr %[[S:[0-9]+]])
// CHECK: %[[STRIDE:[0-9]+]] = extractvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %{{[0-9]+}}, 4, 0
// CHECK: %[[OFFSET:[0-9]+]] = mul nsw i64 %[[ROW]], %[[STRIDE]]
// CHECK: insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %{{[0-9]+}}, i64 %[[OFFSET]], 2
// CHECK: %[[BYTES:[0-9]+]] = mul i64 %{{[0-9]+}}, 4
// CHECK: %[[INTO:[0-9]+]] = getelementptr float, ptr %{{[0-9]+}}, i64 %{{[0-9]+}}
// CHECK: call void @mgpuMemcpy(ptr %[[INTO]], ptr %{{[0-9]+}}, i64 %[[BYTES]], ptr %[[S]])
// The kernel takes the collapsed buffer and D, and addresses row %row + 1.
// CHECK: call void @mgpuLaunchKernel(ptr %{{[0-9]+}}, i64 1, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr %[[S]],
module attributes {gpu.container_module} {
  func.func @rows(%D: memref<?x?xf32, #gpu.address_space<global>>, %H: memref<?xf32>, %row: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %D, %c1 : memref<?x?xf32, #gpu.address_space<global>>
    %r = memref.subview %D[%row, 0] [1, %n] [1, 1] : memref<?x?xf32, #gpu.address_space<global>> to memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<global>>
    gpu.memcpy %r, %H : memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<global>>, memref<?xf32>
    %flat = memref.collapse_shape %D [[0, 1]] : memref<?x?xf32, #gpu.address_space<global>> into memref<?xf32, #gpu.address_space<global>>
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c64, %v = %c1, %w = %c1) {
      %m = memref.dim %D, %c1 : memref<?x?xf32, #gpu.address_space<global>>
      %next = arith.addi %row, %c1 : index
      %below = memref.subview %D[%next, 0] [1, %m] [1, 1] : memref<?x?xf32, #gpu.address_space<global>> to memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<global>>
      %value = memref.load %below[%tx] : memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<global>>
      memref.store %value, %flat[%tx] : memref<?xf32, #gpu.address_space<global>>
      gpu.terminator
    }
    return
  }
}
