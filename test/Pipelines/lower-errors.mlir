// What the lowerings cannot convert is an error at the op, with a non-zero
// exit (not an output that fails later in mlir-translate), for both targets.

// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-cuda="format=isa" -verify-diagnostics
// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-rocm="format=isa" -verify-diagnostics
// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="format=isa" -o /dev/null 2>/dev/null
// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="format=isa" -o /dev/null 2>/dev/null

// An async region around host code: nothing in either pipeline lowers it
// (upstream needs async-to-async-runtime and convert-async-to-llvm).
func.func @async_region(%A: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'async.execute' op was not lowered to the LLVM dialect (host code)}}
  %t = async.execute {
    memref.store %v, %A[%c0] : memref<8xf32>
    async.yield
  }
  // expected-error @+1 {{'async.await' op was not lowered to the LLVM dialect (host code)}}
  async.await %t : !async.token
  return
}
