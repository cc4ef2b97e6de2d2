// RUN: sdfg-opt %s -split-input-file -add-external-gpu-stream -verify-diagnostics

// Streams initialized by hand from an argument that callers cannot pass
// last.
func.func @not_last(%s: !sdfg.stream, %A: memref<4xf32, 1>, %v: f32) {
  // expected-error @+1 {{'sdfg.init_streams' op initializes the streams from argument #0, but the caller's stream must be the last argument}}
  %slot = sdfg.init_streams %s -> !sdfg.stream
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}

// -----

// GPU work reached from a CPU program through a func.func.
func.func private @gpu_helper(%A: memref<4xf32, 1>, %v: f32) {
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}
sdfg.sdfg @cpu_program(%A: memref<4xf32, 1>, %v: f32) target(cpu) {
  // expected-error @+1 {{'func.call' op calls @gpu_helper, which has GPU work, but program @cpu_program targets the CPU}}
  func.call @gpu_helper(%A, %v) : (memref<4xf32, 1>, f32) -> ()
  sdfg.return
}

// -----

// The address of a function that takes the caller's stream may only be
// called through func.call_indirect, which passes the stream.
func.func private @kernel_host(%A: memref<4xf32, 1>, %v: f32) {
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}
func.func private @store_address((memref<4xf32, 1>, f32) -> ())
func.func @escapes(%A: memref<4xf32, 1>, %v: f32) {
  %f = func.constant @kernel_host : (memref<4xf32, 1>, f32) -> ()
  // expected-error @+1 {{'func.call' op uses the address of @kernel_host, which takes the caller's stream; only func.call_indirect of it can pass the stream}}
  func.call @store_address(%f) : ((memref<4xf32, 1>, f32) -> ()) -> ()
  return
}
