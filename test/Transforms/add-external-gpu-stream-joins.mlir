// Class 8 (joined streams): an op whose async dependencies come from two
// different streams, or `gpu.wait async [%a, %b]`, is ordered after both by
// an event record/wait (sdfg.stream_wait; no new stream, no host wait), and
// a blocking `gpu.wait [%a, %b]` syncs every stream it names. sdfg-insert-host-syncs
// then knows that a sync of the waiting stream also covers the work it
// waited for.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s --check-prefix=SYNCS
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -convert-sdfg-to-llvm | FileCheck %s --check-prefix=LLVM

// A copy on the program's stream that depends on a copy on another stream
// (a stream the code generator passed in as well).
// CHECK-LABEL: func.func @two_stream_dependencies
// CHECK-SAME: %[[OTHER:arg[0-9]+]]: !sdfg.stream,
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK: gpu.memcpy async
// CHECK: sdfg.stream_wait %[[SLOT]] after %[[OTHER]]
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memcpy async [%[[T]]]
// CHECK: sdfg.sync %[[SLOT]], %[[OTHER]]
// CHECK-NOT: gpu.wait
// SYNCS-LABEL: func.func @two_stream_dependencies
// SYNCS-COUNT-1: sdfg.sync
// SYNCS-NOT: sdfg.sync
// LLVM-LABEL: llvm.func @two_stream_dependencies
// LLVM-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream
// LLVM: llvm.call @sdfgrtStreamWaitStream(%[[S]], %[[OTHER:arg[0-9]+]])
// LLVM: llvm.call @mgpuStreamSynchronize(%[[S]])
// LLVM: llvm.call @mgpuStreamSynchronize(%[[OTHER]])
func.func @two_stream_dependencies(%a: memref<4xf32, 1>, %b: memref<4xf32, 1>, %other: !sdfg.stream, %h: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = sdfg.stream_token %other
  %t1 = gpu.memcpy async [%t0] %b, %a : memref<4xf32, 1>, memref<4xf32, 1>
  %t2 = gpu.wait async
  %t3 = gpu.memcpy async [%t2, %t1] %h, %b : memref<4xf32>, memref<4xf32, 1>
  gpu.wait [%t3, %t1]
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// gpu.wait async joining two streams: the joined token is the first stream
// after the other; the host reads after syncing only that stream.
// CHECK-LABEL: func.func @joined_token
// CHECK-SAME: %[[OTHER:arg[0-9]+]]: !sdfg.stream,
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK: sdfg.stream_wait %[[SLOT]] after %[[OTHER]]
// CHECK-NOT: gpu.wait
// SYNCS-LABEL: func.func @joined_token
// SYNCS: sdfg.stream_wait
// SYNCS: sdfg.sync %{{[0-9]+}}{{$}}
// SYNCS-NEXT: memref.load
// SYNCS-NOT: sdfg.sync
// SYNCS: return
func.func @joined_token(%a: memref<4xf32, 1>, %other: !sdfg.stream, %h: memref<4xf32>, %g: memref<4xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = sdfg.stream_token %other
  %t1 = gpu.memcpy async [%t0] %h, %a : memref<4xf32>, memref<4xf32, 1>
  %t2 = gpu.wait async
  %t3 = gpu.memcpy async [%t2] %g, %a : memref<4xf32>, memref<4xf32, 1>
  %t4 = gpu.wait async [%t3, %t1]
  %c0f = arith.constant 0.0 : f32
  %t5 = gpu.memset async [%t4] %a, %c0f : memref<4xf32, 1>, f32
  gpu.wait [%t5]
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}
