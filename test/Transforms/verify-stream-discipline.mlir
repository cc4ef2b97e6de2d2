// RUN: sdfg-opt %s -split-input-file --gpu-to-llvm --verify-stream-discipline -verify-diagnostics

// verify-stream-discipline on upstream MLIR's own lowering (`gpu-to-llvm`):
// each way upstream invents, destroys or misuses streams is reported at the
// op that caused it.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // gpu-async-region style: a stream per function, destroyed at the end.
  func.func @stream_per_call(%n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{creates a stream (mgpuStreamCreate): GPU work must run on the caller's stream}}
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // expected-error @+1 {{destroys a stream (mgpuStreamDestroy)}}
    gpu.wait [%1]
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // A stream given to gpu.launch_func but not as its dependency is dropped:
  // the launch has no stream, and its translation creates one per launch.
  func.func @sync_launch() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{launches a kernel without a stream: its translation creates, synchronizes and destroys a stream for it}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Waiting on the caller's stream: upstream treats it as an event.
func.func @wait_on_caller_stream(%stream: !gpu.async.token) {
  // expected-error @+2 {{passes something that is not an event to mgpuEventSynchronize (upstream's lowering of gpu.wait on a stream it did not create)}}
  // expected-error @+1 {{passes something that is not an event to mgpuEventDestroy (upstream's lowering of gpu.wait on a stream it did not create)}}
  gpu.wait [%stream]
  return
}

// -----

// Host-shared allocations are made without a stream (a null stream).
func.func @null_stream(%n: index) -> memref<?xf32> {
  // expected-error @+1 {{passes a null or constant stream to mgpuMemAlloc}}
  %m = gpu.alloc host_shared (%n) : memref<?xf32>
  return %m : memref<?xf32>
}

// -----

// A device-wide synchronization.
llvm.func @cudaDeviceSynchronize() -> i32
llvm.func @device_sync() {
  // expected-error @+1 {{synchronizes the whole device or context (cudaDeviceSynchronize); synchronize the caller's stream}}
  %0 = llvm.call @cudaDeviceSynchronize() : () -> i32
  llvm.return
}

// -----

// A constant stream handed to the runtime.
llvm.func @mgpuStreamSynchronize(!llvm.ptr)
llvm.func @constant_stream() {
  %0 = llvm.mlir.constant(7 : i64) : i64
  %1 = llvm.inttoptr %0 : i64 to !llvm.ptr
  // expected-error @+1 {{passes a null or constant stream to mgpuStreamSynchronize}}
  llvm.call @mgpuStreamSynchronize(%1) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// What SDFGStream emits passes: everything on the argument's stream.
func.func @on_caller_stream(%stream: !gpu.async.token, %m: memref<16xf32>, %v: f32) {
  %0 = gpu.memset async [%stream] %m, %v : memref<16xf32>, f32
  %1 = gpu.dealloc async [%0] %m : memref<16xf32>
  return
}

// -----

// Host registration (upstream's lowering of gpu.host_register and
// gpu.host_unregister) calls entries the runtime has: it passes.
func.func @host_register(%m: memref<*xf32>) {
  gpu.host_register %m : memref<*xf32>
  gpu.host_unregister %m : memref<*xf32>
  return
}

// -----

// An MLIR runtime entry that the SDFGStream runtime lacks would fail when
// the program is linked or loaded: reported at the call.
llvm.func @mgpuSpMV(i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr)
llvm.func @sparse(%a: i32, %p: !llvm.ptr, %stream: !llvm.ptr) {
  // expected-error @+1 {{calls mgpuSpMV, which the SDFGStream runtime does not implement (the program would fail to link or load)}}
  llvm.call @mgpuSpMV(%a, %p, %p, %p, %a, %p, %stream) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}

// -----

// So does one of SDFGStream's own that does not exist, and the event API
// that the runtime leaves out on purpose.
llvm.func @sdfgrtMemset64(!llvm.ptr, i64, i64, !llvm.ptr)
llvm.func @mgpuEventRecord(!llvm.ptr, !llvm.ptr)
llvm.func @unknown_entries(%p: !llvm.ptr, %n: i64, %stream: !llvm.ptr) {
  // expected-error @+1 {{calls sdfgrtMemset64, which the SDFGStream runtime does not implement}}
  llvm.call @sdfgrtMemset64(%p, %n, %n, %stream) : (!llvm.ptr, i64, i64, !llvm.ptr) -> ()
  // expected-error @+1 {{calls mgpuEventRecord, which the SDFGStream runtime does not implement}}
  llvm.call @mgpuEventRecord(%p, %stream) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
