// A hand-written sdfg.init_streams of an unmarked stream argument that is
// not the program's first op (issue 35): the argument becomes the caller's
// stream and the init op moves first, in the first run already, so that a
// second run changes nothing.
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream > %t.once.mlir
// RUN: sdfg-opt %t.once.mlir -sdfg-add-external-gpu-stream > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// CHECK-LABEL: func.func @p
// CHECK-SAME: , %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NEXT: arith.constant 1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func @p(%m: memref<16xf32, 1>, %s: !sdfg.stream) {
    %c1 = arith.constant 1 : index
    %slot = sdfg.init_streams %s -> !sdfg.stream
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>)
    return
  }
}
