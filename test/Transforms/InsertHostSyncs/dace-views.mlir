// Host accesses through the views the DaCe importer binds (an ArrayView is a
// memref.reinterpret_cast of the viewed buffer at the viewed subset's first
// element, that offset read with memref.extract_strided_metadata): the view
// and the buffer it views are one buffer for sdfg-insert-host-syncs.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s

// A D2H copy into a reshaped view of a host buffer (`B.reshape((M, N))`),
// then a host read of the buffer itself: the sync is right before the read.
// CHECK-LABEL: sdfg.sdfg @read_buffer_after_copy_into_view
// CHECK: memref.reinterpret_cast
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @read_buffer_after_copy_into_view(%D: memref<?x?xf64, #gpu.address_space<global>>, %B: memref<?xf64>, %M: index, %N: index, %out: memref<f64>) target(gpu) {
  %c0 = arith.constant 0 : index
  %view = memref.reinterpret_cast %B to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf64> to memref<?x?xf64, strided<[?, 1]>>
  gpu.memcpy %view, %D : memref<?x?xf64, strided<[?, 1]>>, memref<?x?xf64, #gpu.address_space<global>>
  %v = memref.load %B[%c0] : memref<?xf64>
  memref.store %v, %out[] : memref<f64>
  sdfg.return
}

// -----

// A D2H copy into a host buffer, then a read through a view of its rows
// 1..M-1 (`A[1:, :]`, the offset one row of the buffer's strides in): the
// sync is right before the read through the view, not before building it.
// CHECK-LABEL: sdfg.sdfg @read_view_at_offset_after_copy
// CHECK: gpu.memcpy async
// CHECK-NEXT: memref.extract_strided_metadata
// CHECK-NEXT: memref.reinterpret_cast
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load %{{.*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @read_view_at_offset_after_copy(%D: memref<?x?xf64, #gpu.address_space<global>>, %A: memref<?x?xf64>, %M1: index, %N: index, %out: memref<f64>) target(gpu) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %A, %D : memref<?x?xf64>, memref<?x?xf64, #gpu.address_space<global>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %A : memref<?x?xf64> -> memref<f64>, index, index, index, index, index
  %view = memref.reinterpret_cast %A to offset: [%strides#0], sizes: [%M1, %N], strides: [%N, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
  %v = memref.load %view[%c0, %c0] : memref<?x?xf64, strided<[?, 1], offset: ?>>
  memref.store %v, %out[] : memref<f64>
  sdfg.return
}

// -----

// Negative control: the same read of a buffer the copy does not write (the
// view is of another buffer) needs no sync before it.
// CHECK-LABEL: sdfg.sdfg @read_other_buffer
// CHECK: gpu.memcpy async
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK: sdfg.return
sdfg.sdfg @read_other_buffer(%D: memref<?x?xf64, #gpu.address_space<global>>, %B: memref<?xf64> {llvm.noalias}, %E: memref<?xf64> {llvm.noalias}, %M: index, %N: index, %out: memref<f64> {llvm.noalias}) target(gpu) {
  %c0 = arith.constant 0 : index
  %view = memref.reinterpret_cast %B to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf64> to memref<?x?xf64, strided<[?, 1]>>
  gpu.memcpy %view, %D : memref<?x?xf64, strided<[?, 1]>>, memref<?x?xf64, #gpu.address_space<global>>
  %v = memref.load %E[%c0] : memref<?xf64>
  memref.store %v, %out[] : memref<f64>
  sdfg.return
}
