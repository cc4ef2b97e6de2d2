// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-llvm=host-bare-ptr-calling-convention=true -verify-diagnostics

// The bare-pointer calling convention passes a memref as one pointer, which
// only a memref of static shape, strides and offset can be. Any other in a
// signature is an error at the function, naming it (upstream's func-to-llvm
// left such a function unconverted and its calls referring to a function
// that is not there).

// expected-error @+1 {{'func.func' op argument #0 is 'memref<?xf32, 1>', which the bare-pointer calling convention (host-bare-ptr-calling-convention) cannot pass: it passes a memref as one pointer, which only a memref of static shape, strides and offset can be}}
func.func @dynamic(%A: memref<?xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> i32 {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// -----

// expected-error @+1 {{'func.func' op result #0 is 'memref<?x4xf32>', which the bare-pointer calling convention}}
func.func private @dynamic_result(%A: memref<8xf32>) -> memref<?x4xf32>

// -----

// Static shapes, strides and offsets are fine.
func.func @static(%A: memref<16xf32, 1>, %B: memref<4x4xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> i32 {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}
