// RUN: sdfg-opt %s -split-input-file --gpu-to-llvm --sdfg-verify-stream-discipline -verify-diagnostics

// sdfg-verify-stream-discipline on upstream MLIR's own lowering (`gpu-to-llvm`):
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

// Direct CUDA calls that take a stream, given a null or constant one: the
// legacy default stream, which also waits for every blocking stream.
llvm.func @cudaStreamSynchronize(!llvm.ptr) -> i32
llvm.func @cuStreamSynchronize(!llvm.ptr) -> i32
llvm.func @cuLaunchKernel(!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
llvm.func @cudaLaunchKernel(!llvm.ptr, i64, i32, i64, i32, !llvm.ptr, i64, !llvm.ptr) -> i32
llvm.func @cudaMemcpyAsync(!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
llvm.func @cuMemcpyAsync(i64, i64, i64, !llvm.ptr) -> i32
llvm.func @cuMemcpyHtoDAsync_v2(i64, !llvm.ptr, i64, !llvm.ptr) -> i32
llvm.func @cudaMemcpyAsync_ptsz(!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
llvm.func @cuda_null_streams(%f: !llvm.ptr, %p: !llvm.ptr, %d: i64, %n: i64, %i: i32, %g: i64) {
  %null = llvm.mlir.zero : !llvm.ptr
  %c7 = llvm.mlir.constant(7 : i64) : i64
  %seven = llvm.inttoptr %c7 : i64 to !llvm.ptr
  // expected-error @+1 {{passes a null or constant stream to cudaStreamSynchronize}}
  %0 = llvm.call @cudaStreamSynchronize(%null) : (!llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to cuStreamSynchronize}}
  %1 = llvm.call @cuStreamSynchronize(%seven) : (!llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to cuLaunchKernel}}
  %2 = llvm.call @cuLaunchKernel(%f, %i, %i, %i, %i, %i, %i, %i, %null, %p, %p) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
  // The stream of a runtime-API launch is its last argument, after the
  // dim3 values that the C ABI splits.
  // expected-error @+1 {{passes a null or constant stream to cudaLaunchKernel}}
  %3 = llvm.call @cudaLaunchKernel(%f, %g, %i, %g, %i, %p, %n, %null) : (!llvm.ptr, i64, i32, i64, i32, !llvm.ptr, i64, !llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to cudaMemcpyAsync}}
  %4 = llvm.call @cudaMemcpyAsync(%p, %p, %n, %i, %null) : (!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to cuMemcpyAsync}}
  %5 = llvm.call @cuMemcpyAsync(%d, %d, %n, %seven) : (i64, i64, i64, !llvm.ptr) -> i32
  // Versioned and per-thread-default-stream symbols are checked like their
  // plain names.
  // expected-error @+1 {{passes a null or constant stream to cuMemcpyHtoDAsync_v2}}
  %6 = llvm.call @cuMemcpyHtoDAsync_v2(%d, %p, %n, %null) : (i64, !llvm.ptr, i64, !llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to cudaMemcpyAsync_ptsz}}
  %7 = llvm.call @cudaMemcpyAsync_ptsz(%p, %p, %n, %i, %null) : (!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
  llvm.return
}

// -----

// The same for HIP.
llvm.func @hipStreamSynchronize(!llvm.ptr) -> i32
llvm.func @hipModuleLaunchKernel(!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
llvm.func @hipLaunchKernel(!llvm.ptr, i64, i32, i64, i32, !llvm.ptr, i64, !llvm.ptr) -> i32
llvm.func @hipMemcpyAsync(!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
llvm.func @hipMemsetAsync(!llvm.ptr, i32, i64, !llvm.ptr) -> i32
llvm.func @hip_null_streams(%f: !llvm.ptr, %p: !llvm.ptr, %n: i64, %i: i32, %g: i64) {
  %null = llvm.mlir.zero : !llvm.ptr
  // expected-error @+1 {{passes a null or constant stream to hipStreamSynchronize}}
  %0 = llvm.call @hipStreamSynchronize(%null) : (!llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to hipModuleLaunchKernel}}
  %1 = llvm.call @hipModuleLaunchKernel(%f, %i, %i, %i, %i, %i, %i, %i, %null, %p, %p) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to hipLaunchKernel}}
  %2 = llvm.call @hipLaunchKernel(%f, %g, %i, %g, %i, %p, %n, %null) : (!llvm.ptr, i64, i32, i64, i32, !llvm.ptr, i64, !llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to hipMemcpyAsync}}
  %3 = llvm.call @hipMemcpyAsync(%p, %p, %n, %i, %null) : (!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
  // expected-error @+1 {{passes a null or constant stream to hipMemsetAsync}}
  %4 = llvm.call @hipMemsetAsync(%p, %i, %n, %null) : (!llvm.ptr, i32, i64, !llvm.ptr) -> i32
  llvm.return
}

// -----

// Copies and memsets without a stream run on the default stream.
llvm.func @cudaMemcpy(!llvm.ptr, !llvm.ptr, i64, i32) -> i32
llvm.func @cuMemcpy(i64, i64, i64) -> i32
llvm.func @cuMemcpyDtoH_v2(!llvm.ptr, i64, i64) -> i32
llvm.func @cuMemsetD32_v2(i64, i32, i64) -> i32
llvm.func @hipMemcpy(!llvm.ptr, !llvm.ptr, i64, i32) -> i32
llvm.func @hipMemcpyHtoD(!llvm.ptr, !llvm.ptr, i64) -> i32
llvm.func @hipMemset(!llvm.ptr, i32, i64) -> i32
llvm.func @default_stream_copies(%p: !llvm.ptr, %d: i64, %n: i64, %i: i32) {
  // expected-error @+1 {{runs on the default stream (cudaMemcpy): enqueue it on the caller's stream with the asynchronous form}}
  %0 = llvm.call @cudaMemcpy(%p, %p, %n, %i) : (!llvm.ptr, !llvm.ptr, i64, i32) -> i32
  // expected-error @+1 {{runs on the default stream (cuMemcpy)}}
  %1 = llvm.call @cuMemcpy(%d, %d, %n) : (i64, i64, i64) -> i32
  // expected-error @+1 {{runs on the default stream (cuMemcpyDtoH_v2)}}
  %2 = llvm.call @cuMemcpyDtoH_v2(%p, %d, %n) : (!llvm.ptr, i64, i64) -> i32
  // expected-error @+1 {{runs on the default stream (cuMemsetD32_v2)}}
  %3 = llvm.call @cuMemsetD32_v2(%d, %i, %n) : (i64, i32, i64) -> i32
  // expected-error @+1 {{runs on the default stream (hipMemcpy)}}
  %4 = llvm.call @hipMemcpy(%p, %p, %n, %i) : (!llvm.ptr, !llvm.ptr, i64, i32) -> i32
  // expected-error @+1 {{runs on the default stream (hipMemcpyHtoD)}}
  %5 = llvm.call @hipMemcpyHtoD(%p, %p, %n) : (!llvm.ptr, !llvm.ptr, i64) -> i32
  // expected-error @+1 {{runs on the default stream (hipMemset)}}
  %6 = llvm.call @hipMemset(%p, %i, %n) : (!llvm.ptr, i32, i64) -> i32
  llvm.return
}

// -----

// A stream kept in a global is the same for every call, not the caller's:
// reported for runtime calls, direct vendor calls and launches alike.
llvm.mlir.global internal @cached_stream() : !llvm.ptr
llvm.mlir.global internal @streams() : !llvm.array<4 x ptr>
llvm.func @mgpuStreamSynchronize(!llvm.ptr)
llvm.func @cudaStreamSynchronize(!llvm.ptr) -> i32
llvm.func @hipMemcpyAsync(!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
llvm.func @global_streams(%p: !llvm.ptr, %n: i64, %i: i32) {
  %g = llvm.mlir.addressof @cached_stream : !llvm.ptr
  %s = llvm.load %g : !llvm.ptr -> !llvm.ptr
  // expected-error @+1 {{passes a stream loaded from global @cached_stream to mgpuStreamSynchronize: the stream must be the caller's}}
  llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
  // expected-error @+1 {{passes a stream loaded from global @cached_stream to cudaStreamSynchronize: the stream must be the caller's}}
  %0 = llvm.call @cudaStreamSynchronize(%s) : (!llvm.ptr) -> i32
  %a = llvm.mlir.addressof @streams : !llvm.ptr
  %e = llvm.getelementptr %a[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x ptr>
  %t = llvm.load %e : !llvm.ptr -> !llvm.ptr
  // expected-error @+1 {{passes a stream loaded from global @streams to hipMemcpyAsync: the stream must be the caller's}}
  %1 = llvm.call @hipMemcpyAsync(%p, %p, %n, %i, %t) : (!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
  llvm.return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  llvm.mlir.global internal @cached_stream() : !llvm.ptr
  func.func @launch_on_global_stream() {
    %c1 = arith.constant 1 : index
    %g = llvm.mlir.addressof @cached_stream : !llvm.ptr
    %s = llvm.load %g : !llvm.ptr -> !llvm.ptr
    // A dependency that is the stream, as convert-sdfg-to-llvm makes it:
    // gpu-to-llvm turns it into the launch's async object.
    %t = builtin.unrealized_conversion_cast %s : !llvm.ptr to !gpu.async.token
    // expected-error @+1 {{launches a kernel on a stream loaded from global @cached_stream: the stream must be the caller's}}
    %0 = gpu.launch_func async [%t] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Direct vendor calls on the caller's stream pass, including a stream that
// the caller handed in through memory (a struct argument), not a global.
llvm.func @cudaStreamSynchronize(!llvm.ptr) -> i32
llvm.func @cuLaunchKernel(!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
llvm.func @cudaLaunchKernel(!llvm.ptr, i64, i32, i64, i32, !llvm.ptr, i64, !llvm.ptr) -> i32
llvm.func @hipMemcpyAsync(!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
llvm.func @hipModuleLaunchKernel(!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
llvm.func @vendor_calls_on_caller_stream(%f: !llvm.ptr, %p: !llvm.ptr, %n: i64, %i: i32, %g: i64, %stream: !llvm.ptr, %context: !llvm.ptr) {
  %0 = llvm.call @cuLaunchKernel(%f, %i, %i, %i, %i, %i, %i, %i, %stream, %p, %p) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
  %1 = llvm.call @cudaLaunchKernel(%f, %g, %i, %g, %i, %p, %n, %stream) : (!llvm.ptr, i64, i32, i64, i32, !llvm.ptr, i64, !llvm.ptr) -> i32
  %2 = llvm.call @hipModuleLaunchKernel(%f, %i, %i, %i, %i, %i, %i, %i, %stream, %p, %p) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
  %s = llvm.load %context : !llvm.ptr -> !llvm.ptr
  %3 = llvm.call @hipMemcpyAsync(%p, %p, %n, %i, %s) : (!llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
  %4 = llvm.call @cudaStreamSynchronize(%s) : (!llvm.ptr) -> i32
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
// the program is linked or loaded: reported at the call (upstream's
// wrappers have mgpuCreateSparseEnv; MLIR 22 no longer emits it and the
// runtime keeps its own sparse library handles).
llvm.func @mgpuCreateSparseEnv(!llvm.ptr) -> !llvm.ptr
llvm.func @sparse_env(%stream: !llvm.ptr) {
  // expected-error @+1 {{calls mgpuCreateSparseEnv, which the SDFGStream runtime does not implement (the program would fail to link or load)}}
  %env = llvm.call @mgpuCreateSparseEnv(%stream) : (!llvm.ptr) -> !llvm.ptr
  llvm.return
}

// -----

// The sparse entries the runtime has pass; the stream of one that runs on
// its stream is checked like any other.
llvm.func @mgpuSpMV(i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr)
llvm.func @mgpuCreateDnVec(i64, !llvm.ptr, i32, !llvm.ptr) -> !llvm.ptr
llvm.func @sparse(%a: i32, %n: i64, %p: !llvm.ptr, %stream: !llvm.ptr) {
  %v = llvm.call @mgpuCreateDnVec(%n, %p, %a, %stream) : (i64, !llvm.ptr, i32, !llvm.ptr) -> !llvm.ptr
  llvm.call @mgpuSpMV(%a, %p, %v, %v, %a, %p, %stream) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> ()
  %null = llvm.mlir.zero : !llvm.ptr
  // expected-error @+1 {{mgpuSpMV}}
  llvm.call @mgpuSpMV(%a, %p, %v, %v, %a, %p, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> ()
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

// -----

// A runtime entry called through a declaration with another signature than
// the runtime's (RuntimeEntries.def): the arguments would be passed wrongly
// (a narrower count, a missing flag, a result the entry does not return).
// expected-note @+1 {{declared here}}
llvm.func @mgpuMemAlloc(i64, !llvm.ptr) -> !llvm.ptr
// expected-note @+1 {{declared here}}
llvm.func @mgpuMemset32(!llvm.ptr, i32, i32, !llvm.ptr)
// expected-note @+1 {{declared here}}
llvm.func @sdfgrtTimerEnd(!llvm.ptr) -> i32
llvm.func @wrong_signatures(%n: i64, %c: i32, %p: !llvm.ptr, %stream: !llvm.ptr) {
  // expected-error @+1 {{calls mgpuMemAlloc declared as '!llvm.func<ptr (i64, ptr)>', but the runtime implements '!llvm.func<ptr (i64, ptr, i8)>'}}
  %a = llvm.call @mgpuMemAlloc(%n, %stream) : (i64, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{calls mgpuMemset32 declared as '!llvm.func<void (ptr, i32, i32, ptr)>', but the runtime implements '!llvm.func<void (ptr, i32, i64, ptr)>'}}
  llvm.call @mgpuMemset32(%p, %c, %c, %stream) : (!llvm.ptr, i32, i32, !llvm.ptr) -> ()
  // expected-error @+1 {{calls sdfgrtTimerEnd declared as '!llvm.func<i32 (ptr)>', but the runtime implements '!llvm.func<void (ptr)>'}}
  %r = llvm.call @sdfgrtTimerEnd(%p) : (!llvm.ptr) -> i32
  llvm.return
}

// -----

// Declared as the runtime implements them: accepted.
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @sdfgrtTimerEnd(!llvm.ptr)
llvm.func @right_signatures(%n: i64, %f: i8, %p: !llvm.ptr, %stream: !llvm.ptr) {
  %a = llvm.call @mgpuMemAlloc(%n, %stream, %f) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.call @sdfgrtTimerEnd(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// The slots that sdfgrtForkStreams forks from the caller's stream (the
// lowering of concurrent slots) are the caller's too; a stream that some
// other call returns is not, directly or through a branch.
llvm.func @sdfgrtForkStreams(!llvm.ptr, i32, !llvm.ptr) -> i32
llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
llvm.func @sdfgrtStreamWaitStream(!llvm.ptr, !llvm.ptr) -> i32
llvm.func @my_stream() -> !llvm.ptr
llvm.func @forked_slots(%p: !llvm.ptr, %n: i64, %stream: !llvm.ptr, %c: i1) {
  %one = llvm.mlir.constant(1 : i64) : i64
  %two = llvm.mlir.constant(2 : i32) : i32
  %slots = llvm.alloca %one x !llvm.array<2 x ptr> : (i64) -> !llvm.ptr
  %status = llvm.call @sdfgrtForkStreams(%stream, %two, %slots) : (!llvm.ptr, i32, !llvm.ptr) -> i32
  %address = llvm.getelementptr %slots[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x ptr>
  %slot = llvm.load %address : !llvm.ptr -> !llvm.ptr
  llvm.call @mgpuMemcpy(%p, %p, %n, %slot) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
  %joined = llvm.call @sdfgrtStreamWaitStream(%stream, %slot) : (!llvm.ptr, !llvm.ptr) -> i32
  %other = llvm.call @my_stream() : () -> !llvm.ptr
  // expected-error @+1 {{passes a stream to mgpuMemcpy that is neither an argument of its function nor loaded from memory}}
  llvm.call @mgpuMemcpy(%p, %p, %n, %other) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
  llvm.cond_br %c, ^bb1(%stream : !llvm.ptr), ^bb1(%other : !llvm.ptr)
^bb1(%either: !llvm.ptr):
  // expected-error @+1 {{passes a stream to mgpuMemcpy that is neither an argument of its function nor loaded from memory}}
  llvm.call @mgpuMemcpy(%p, %p, %n, %either) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
  llvm.br ^bb2(%stream : !llvm.ptr)
^bb2(%caller: !llvm.ptr):
  llvm.call @mgpuMemcpy(%p, %p, %n, %caller) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
  llvm.return
}
