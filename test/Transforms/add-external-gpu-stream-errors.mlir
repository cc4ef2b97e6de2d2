// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -verify-diagnostics

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

// -----

// An async object that is not an argument: a stream the program would make
// or look up itself.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func private @get_stream() -> !llvm.ptr
  func.func @own_stream() {
    %c1 = arith.constant 1 : index
    %s = func.call @get_stream() : () -> !llvm.ptr
    // expected-error @+1 {{'gpu.launch_func' op runs on a stream (async object) that is not an argument of its function; SDFGStream runs GPU work only on the stream the caller passes}}
    gpu.launch_func <%s : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// The stream argument also used as a pointer.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func private @log(!llvm.ptr)
  func.func @stream_as_value(%s: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%s : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // expected-error @+1 {{'func.call' op uses argument #0, the stream of the function's launches, as a value; it can only be the caller's stream}}
    func.call @log(%s) : (!llvm.ptr) -> ()
    return
  }
}

// -----

// Two different async objects in one function.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @two_streams(%a: !llvm.ptr, %b: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%a : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // expected-error @+1 {{'gpu.launch_func' op runs on argument #1 as its stream, but another launch of the function runs on argument #0; a program has one caller's stream}}
    gpu.launch_func <%b : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// GPU work in host code written as llvm.func (flang's, after FIR is lowered
// to the LLVM dialect): only func.func and sdfg.sdfg programs take the
// stream, so it is an error at the op, not work left off the stream.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: !llvm.ptr, %n: i64) kernel {
      gpu.return
    }
  }
  llvm.func @cuf_host(%stream: !llvm.ptr, %x: !llvm.ptr, %n: i64) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op is GPU work in 'llvm.func' @cuf_host, which sdfg-add-external-gpu-stream cannot give the caller's stream (only func.func and sdfg.sdfg programs take it); write this host code as func.func}}
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : !llvm.ptr, %n : i64)
    llvm.return
  }
}

// -----

// A function whose launches name their stream, called from a function that
// passes a pointer there that is none of its arguments (a function passing
// its own argument takes it as its caller's stream): that pointer would have
// to be a stream of the caller's.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func private @cuf_inner(%stream: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @plain_caller() {
    %p = llvm.mlir.zero : !llvm.ptr
    // expected-error @+1 {{'func.call' op refers to @cuf_inner, whose argument #0 becomes the caller's stream; call it from outside the module, or from a function whose launches run on the stream it passes there}}
    func.call @cuf_inner(%p) : (!llvm.ptr) -> ()
    return
  }
}

// -----

// A function that passes two different arguments as callees' streams.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func private @inner(%stream: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @two_streams(%a: !llvm.ptr, %b: !llvm.ptr) {
    func.call @inner(%a) : (!llvm.ptr) -> ()
    // expected-error @+1 {{'func.call' op passes argument #1 as the stream of @inner, but another call of the function passes argument #0; a program has one caller's stream}}
    func.call @inner(%b) : (!llvm.ptr) -> ()
    return
  }
}
