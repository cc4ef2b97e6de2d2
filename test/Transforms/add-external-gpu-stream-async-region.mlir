// RUN: sdfg-opt %s -gpu-async-region -sdfg-add-external-gpu-stream | FileCheck %s

// The output of upstream gpu-async-region: every `gpu.wait async` would
// create a stream and every blocking `gpu.wait` would synchronize and
// destroy one. After sdfg-add-external-gpu-stream, all work is on the caller's
// stream and each blocking wait is a sync of that stream.

// CHECK-LABEL: func.func @pipeline
// CHECK-SAME: %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NOT: gpu.wait
// CHECK: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NOT: gpu.wait
// CHECK: %[[T0:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.alloc async [%[[T0]]] (
// CHECK-NEXT: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memcpy async [%[[T1]]]
// CHECK-NEXT: sdfg.sync %[[SLOT]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[T2:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.launch_func async [%[[T2]]]
// CHECK-NEXT: sdfg.sync %[[SLOT]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[T3:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memcpy async [%[[T3]]]
// CHECK-NEXT: %[[T4:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.dealloc async [%[[T4]]]
// CHECK-NEXT: sdfg.sync %[[SLOT]]
// CHECK-NEXT: return
// CHECK-NOT: gpu.wait
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%A: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @pipeline(%H: memref<?xf32>, %n: index, %iters: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %D = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %D, %H : memref<?xf32>, memref<?xf32>
    scf.for %i = %c0 to %iters step %c1 {
      gpu.launch_func @kernels::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%D : memref<?xf32>)
    }
    gpu.memcpy %H, %D : memref<?xf32>, memref<?xf32>
    gpu.dealloc %D : memref<?xf32>
    return
  }
}
