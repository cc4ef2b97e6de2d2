// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-llvm -verify-diagnostics

// Anything upstream would lower by inventing a stream is refused, with the
// reason, instead of being lowered (or silently left behind).

func.func @not_on_stream(%D: memref<16xf32, 1>, %H: memref<16xf32>) {
  // expected-error @+1 {{'gpu.memcpy' op is not on a stream (it needs exactly one async dependency, the stream, and an async token); run sdfg-add-external-gpu-stream first}}
  gpu.memcpy %D, %H : memref<16xf32, 1>, memref<16xf32>
  return
}

// -----

func.func @wait() {
  // expected-error @+1 {{'gpu.wait' op would synchronize or destroy a stream when lowered; run sdfg-add-external-gpu-stream first (it turns waits into sdfg.sync)}}
  %0 = gpu.wait async
  return
}

// -----

func.func @wide_memset(%D: memref<16xi128>, %v: i128, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  // expected-error @+1 {{'gpu.memset' op sets 'i128' values; only integers, floats and indices of up to 64 bits can be set on a stream}}
  %0 = gpu.memset async [%t] %D, %v : memref<16xi128>, i128
  return
}

// -----

func.func @inline_kernel(%s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op must be outlined (gpu-kernel-outlining) before lowering}}
  %0 = gpu.launch async [%t] blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    gpu.terminator
  }
  return
}

// -----

// An unranked memref reaches a kernel as a pointer to its descriptor, which
// the lowering puts on the host's stack: the kernel would read it after the
// asynchronous launch may have returned (upstream's launch was synchronous,
// and even then worked only where the GPU can address host memory).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @touch(%m: memref<*xf32>) kernel {
      gpu.return
    }
  }
  func.func @unranked_kernel_operand(%m: memref<*xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
    %slot = sdfg.init_streams %s -> !sdfg.stream
    %t = sdfg.stream_token %slot
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op passes an unranked memref (kernel operand #0) to a kernel: the kernel would read its descriptor from the host's stack, after the asynchronous launch may have returned (and from host memory at all only where the GPU can address it); cast it to a ranked memref before the launch}}
    %0 = gpu.launch_func async [%t] @kernels::@touch blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<*xf32>)
    return
  }
}

// -----

// The runtime's entries are called with their signatures from
// RuntimeEntries.def; a module that declares one otherwise is refused at
// the op that needs it.

// expected-note @+1 {{declared here}}
llvm.func @mgpuStreamSynchronize(!llvm.ptr) -> i32

func.func @sync_declared_otherwise(%s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  // expected-error @+2 {{'mgpuStreamSynchronize' is a runtime entry of type '!llvm.func<void (ptr)>', but the module declares it otherwise}}
  // expected-error @+1 {{failed to legalize operation 'sdfg.sync'}}
  sdfg.sync %slot
  return
}
