// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream | sdfg-translate --sdfg-to-c-header | FileCheck %s --check-prefix=HEADER

// A function that already takes a !sdfg.stream and initializes its streams
// from it, in any position, uses that one as the caller's stream: it is
// marked, no second stream argument is added, and its callers pass theirs
// there (issue 23, item 4). A call passing the caller's own stream passes
// the stream of the call's slot instead.

// CHECK-LABEL: func.func @stream_first
// CHECK-SAME: (%[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}, %{{.*}}: memref<4xf32, 1>, %{{.*}}: f32)
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]] -> !sdfg.stream
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memset async [%[[T]]]
func.func @stream_first(%s: !sdfg.stream, %A: memref<4xf32, 1>, %v: f32) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}

// CHECK-LABEL: func.func @stream_between
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}, %{{.*}}: f32)
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]] -> !sdfg.stream
// CHECK: call @stream_first(%[[SLOT]],
// CHECK-NEXT: return
func.func @stream_between(%A: memref<4xf32, 1>, %s: !sdfg.stream, %v: f32) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  call @stream_first(%s, %A, %v) : (!sdfg.stream, memref<4xf32, 1>, f32) -> ()
  return
}

// The C header declares the stream where the function takes it.
// HEADER: int32_t _mlir_ciface_stream_first(void *external_gpu_stream, sdfg_memref_1d_float *arg1, float arg2);
// HEADER: int32_t _mlir_ciface_stream_between(sdfg_memref_1d_float *arg0, void *external_gpu_stream, float arg2);
