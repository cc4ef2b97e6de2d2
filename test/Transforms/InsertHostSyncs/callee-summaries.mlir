// Class 4 of sdfg-insert-host-syncs: a callee's summary says on which stream its
// GPU work runs, what leaves it, and which streams it leaves idle:
//   * work on a `!sdfg.stream` it is given besides its own is pending on the
//     stream the caller passes there, and synced on that one;
//   * GPU work on the callee's own allocation whose address leaves it (an
//     integer stored through an out-pointer, returned, packed) is pending
//     work on memory the caller cannot name;
//   * a callee that ends with its stream synchronized (it read its own
//     copy-back) leaves nothing pending: the caller does not sync again.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

// The callee copies back on the other stream it is given.
func.func private @copy_back_on(%s: !sdfg.stream, %h: memref<4xf32>, %d: memref<4xf32, 1>) {
  %t = sdfg.stream_token %s
  %t2 = gpu.memcpy async [%t] %h, %d : memref<4xf32>, memref<4xf32, 1>
  return
}
// CHECK-LABEL: func.func @work_on_another_stream
// CHECK-SAME: (%[[OTHER:.*]]: !sdfg.stream,
// CHECK: call @copy_back_on(%[[OTHER]],
// CHECK-NEXT: sdfg.sync %[[OTHER]]
// CHECK-NEXT: memref.load
func.func @work_on_another_stream(%other: !sdfg.stream, %h: memref<4xf32>, %d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  call @copy_back_on(%other, %h, %d) : (!sdfg.stream, memref<4xf32>, memref<4xf32, 1>) -> ()
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A declaration given another stream may leave work on it with every buffer
// it is given.
func.func private @enqueue_on(!sdfg.stream, memref<4xf32>)
// CHECK-LABEL: func.func @declaration_on_another_stream
// CHECK-SAME: (%[[OTHER:.*]]: !sdfg.stream,
// CHECK: call @enqueue_on(%[[OTHER]],
// CHECK-NEXT: sdfg.sync %[[OTHER]]
// CHECK-NEXT: memref.load
func.func @declaration_on_another_stream(%other: !sdfg.stream, %h: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  call @enqueue_on(%other, %h) : (!sdfg.stream, memref<4xf32>) -> ()
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// The callee downloads into its own buffer and hands the caller its address
// through an out-pointer, as an integer: the caller's read through it waits.
func.func private @download(%d: memref<4xf32, 1>, %out: memref<index>) {
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %i = memref.extract_aligned_pointer_as_index %h : memref<4xf32> -> index
  memref.store %i, %out[] : memref<index>
  return
}
// CHECK-LABEL: func.func @allocation_through_out_pointer
// CHECK: call @download
// CHECK-NEXT: sdfg.sync
// CHECK-NOT: sdfg.sync
// CHECK: llvm.load
func.func @allocation_through_out_pointer(%d: memref<4xf32, 1>) -> f32 {
  %out = memref.alloca() : memref<index>
  call @download(%d, %out) : (memref<4xf32, 1>, memref<index>) -> ()
  %i = memref.load %out[] : memref<index>
  %i64 = arith.index_cast %i : index to i64
  %p = llvm.inttoptr %i64 : i64 to !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> f32
  return %v : f32
}

// -----

// The same, the address returned packed in a struct.
func.func private @download_packed(%d: memref<4xf32, 1>) -> !llvm.struct<(ptr, i64)> {
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %i = memref.extract_aligned_pointer_as_index %h : memref<4xf32> -> index
  %i64 = arith.index_cast %i : index to i64
  %p = llvm.inttoptr %i64 : i64 to !llvm.ptr
  %n = llvm.mlir.constant(4 : i64) : i64
  %u = llvm.mlir.undef : !llvm.struct<(ptr, i64)>
  %s0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, i64)>
  %s1 = llvm.insertvalue %n, %s0[1] : !llvm.struct<(ptr, i64)>
  return %s1 : !llvm.struct<(ptr, i64)>
}
// CHECK-LABEL: func.func @allocation_in_returned_struct
// CHECK: call @download_packed
// CHECK-NEXT: llvm.extractvalue
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: llvm.load
func.func @allocation_in_returned_struct(%d: memref<4xf32, 1>) -> f32 {
  %s = call @download_packed(%d) : (memref<4xf32, 1>) -> !llvm.struct<(ptr, i64)>
  %p = llvm.extractvalue %s[0] : !llvm.struct<(ptr, i64)>
  %v = llvm.load %p : !llvm.ptr -> f32
  return %v : f32
}

// -----

// A nested program that reads its own copy-back ends synchronized: the
// caller's reads after it, in a loop, need no sync of their own.
// CHECK-LABEL: func.func private @step
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func private @step(%d: memref<4xf32, 1>, %h: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %f = arith.constant 2.0 : f32
  gpu.memset %d, %f : memref<4xf32, 1>, f32
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}
// CHECK-LABEL: func.func @callee_ends_synchronized
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @callee_ends_synchronized(%d: memref<4xf32, 1>, %h: memref<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %v = func.call @step(%d, %h) : (memref<4xf32, 1>, memref<4xf32>) -> f32
    %w = memref.load %h[%c0] : memref<4xf32>
    memref.store %v, %h[%c0] : memref<4xf32>
    %s = arith.addf %acc, %w : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

// A callee that syncs on one path only, or enqueues more work after its
// sync, leaves its stream busy: the caller's read waits.
// CHECK-LABEL: func.func private @maybe_read
func.func private @maybe_read(%d: memref<4xf32, 1>, %h: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  scf.if %c {
    %v = memref.load %h[%c0] : memref<4xf32>
  }
  return
}
func.func private @read_then_copy(%d: memref<4xf32, 1>, %h: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %v = memref.load %h[%c0] : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  return
}
// CHECK-LABEL: func.func @callee_leaves_work
// CHECK: call @maybe_read
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK: call @read_then_copy
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @callee_leaves_work(%d: memref<4xf32, 1>, %h: memref<4xf32>, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  call @maybe_read(%d, %h, %c) : (memref<4xf32, 1>, memref<4xf32>, i1) -> ()
  %v = memref.load %h[%c0] : memref<4xf32>
  call @read_then_copy(%d, %h) : (memref<4xf32, 1>, memref<4xf32>) -> ()
  %w = memref.load %h[%c0] : memref<4xf32>
  %s = arith.addf %v, %w : f32
  return %s : f32
}
