// RUN: sdfg-opt %s -split-input-file -sdfg-make-sync-call | FileCheck %s

// sdfg-make-sync-call after sdfg-insert-host-syncs: a sync that already ends the
// call's GPU work is not repeated.

// sdfg-insert-host-syncs' sync before a host read that the return follows, with
// no GPU work between: that sync is the call's, no second one.
// CHECK-LABEL: func.func @read_then_return
// CHECK: sdfg.sync %[[SLOT:.*]]{{$}}
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
func.func @read_then_return(%D: memref<4xf32, 1>, %H: memref<4xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> f32 {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %c0 = arith.constant 0 : index
  %t = sdfg.stream_token %slot
  %copied = gpu.memcpy async [%t] %H, %D : memref<4xf32>, memref<4xf32, 1>
  sdfg.sync %slot
  %v = memref.load %H[%c0] : memref<4xf32>
  %w = arith.addf %v, %v : f32
  return %w : f32
}

// -----

// A call between them may enqueue work on the stream it is given: the
// return syncs again.
// CHECK-LABEL: func.func @read_call_return
// CHECK: sdfg.sync %[[SLOT:.*]]{{$}}
// CHECK-NEXT: memref.load
// CHECK-NEXT: call @more_work
// CHECK-NEXT: sdfg.sync %[[SLOT]]{{$}}
// CHECK-NEXT: return
func.func private @more_work(!sdfg.stream)
func.func @read_call_return(%D: memref<4xf32, 1>, %H: memref<4xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> f32 {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %c0 = arith.constant 0 : index
  %t = sdfg.stream_token %slot
  %copied = gpu.memcpy async [%t] %H, %D : memref<4xf32>, memref<4xf32, 1>
  sdfg.sync %slot
  %v = memref.load %H[%c0] : memref<4xf32>
  call @more_work(%slot) : (!sdfg.stream) -> ()
  return %v : f32
}
