//===- Passes.td - SDFGStream transformation passes --------*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TRANSFORMS_PASSES_TD
#define SDFGSTREAM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AddExternalGpuStream : Pass<"add-external-gpu-stream", "ModuleOp"> {
  let summary = "Run every program with GPU work on a stream passed in by "
                "the caller";
  let description = [{
    Finds every `sdfg.sdfg` and `func.func` that has GPU work, directly or
    through calls to programs and functions that have it, and makes all of
    that work run on one stream that the caller passes at run time:

    * appends a `!sdfg.stream` argument as the last argument, marked
      `{sdfg.external_stream = "<argument-name>"}`;
    * inserts `sdfg.init_streams` at entry, applying that stream to the
      program's stream slots;
    * rewrites every upstream `gpu` op that is enqueued on a stream
      (`gpu.launch_func`, `gpu.launch`, `gpu.memcpy`, `gpu.memset`,
      `gpu.alloc`, `gpu.dealloc`, ...) into its async form whose only async
      dependency is the stream of its slot (`sdfg.stream_slot`, default 0)
      through `sdfg.stream_token`. Ops written in sync form and in
      async-token form (e.g. the output of `gpu-async-region`) are both
      handled: `gpu.wait async` becomes the slot's token and a blocking
      `gpu.wait` becomes an `sdfg.sync` of the awaited stream, so after
      lowering nothing creates, waits on or destroys another stream;
    * passes the stream of the call's slot on to called programs and
      functions with GPU work, at any depth, and to library nodes, whose
      implementation takes the stream whenever it is expanded.

    Programs and functions without GPU work are left exactly as they were.
    The pass is idempotent: a second run changes nothing. A caller that
    wants the call to be synchronous adds `make-sync-call`; a blocking GPU
    op that the host reads the result of needs `sdfg.sync` (or
    `gpu.wait`) before the read.

    Example (`--add-external-gpu-stream`):

    ```mlir
    sdfg.sdfg @p(%A: memref<64xf32, 1>, %B: memref<64xf32>) target(gpu, streams = 1) {
      gpu.memcpy %A, %B : memref<64xf32, 1>, memref<64xf32>
      sdfg.return
    }
    ```

    becomes

    ```mlir
    sdfg.sdfg @p(%A: memref<64xf32, 1>, %B: memref<64xf32>,
                 %external_gpu_stream: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
        target(gpu, streams = 1) {
      %0 = sdfg.init_streams %external_gpu_stream -> !sdfg.stream
      %1 = sdfg.stream_token %0
      %2 = gpu.memcpy async [%1] %A, %B : memref<64xf32, 1>, memref<64xf32>
      sdfg.return
    }
    ```
  }];
  let options = [
    Option<"argumentName", "argument-name", "std::string",
           /*default=*/"\"external_gpu_stream\"",
           "Name of the stream argument (kept in its sdfg.external_stream "
           "attribute; it names the parameter of the compiled program)">
  ];
  let dependentDialects = [
    "::mlir::sdfg::SDFGDialect", "::mlir::gpu::GPUDialect"
  ];
}

def MakeSyncCall : Pass<"make-sync-call", "ModuleOp"> {
  let summary = "Synchronize the program's streams before it returns";
  let description = [{
    Makes calls of programs synchronous: before every return of a program
    that takes the caller's stream (run `add-external-gpu-stream` first),
    inserts one `sdfg.sync` that synchronizes each distinct stream of the
    program's slots once. All slots carry the caller's stream, so that is one
    `cudaStreamSynchronize` of the caller's stream: never a device-wide
    synchronization, and never a wait on another stream's work.

    Without this pass a call is asynchronous: it returns as soon as its work
    is enqueued.

    Private programs are only called from other programs, whose own return
    synchronizes the same stream; they are left alone unless
    `nested-programs` is set.

    Example: `sdfg.return` becomes

    ```mlir
    sdfg.sync %0
    sdfg.return
    ```
  }];
  let options = [
    Option<"nestedPrograms", "nested-programs", "bool", /*default=*/"false",
           "Also synchronize before the returns of private programs">
  ];
  let dependentDialects = ["::mlir::sdfg::SDFGDialect"];
}

def ExpandLibraryNodes : Pass<"sdfg-expand-library-nodes", "ModuleOp"> {
  let summary = "Replace library nodes by calls to nested programs";
  let description = [{
    Replaces every op implementing `LibraryNodeOpInterface` (for example
    `sdfg.reduce`) by an `sdfg.call` to a private nested program that
    implements it for the target of the enclosing program: GPU kernels in a
    `gpu.module` for a GPU program, host loops for a CPU program. Nodes with
    the same implementation share one nested program.

    When the node already runs on a stream (`add-external-gpu-stream` ran
    before), the nested program takes that stream as its last argument and
    all of its GPU work runs on it; otherwise the nested program is a plain
    program that a later `add-external-gpu-stream` threads like any other.
  }];
  let dependentDialects = [
    "::mlir::sdfg::SDFGDialect", "::mlir::gpu::GPUDialect",
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def InsertHostSyncs : Pass<"insert-host-syncs", "ModuleOp"> {
  let summary = "Synchronize a stream exactly before host reads of its results";
  let description = [{
    Once `add-external-gpu-stream` has made GPU work asynchronous, host code
    that reads memory a GPU op on a stream may still be writing must first
    synchronize that stream. This pass inserts `sdfg.sync` of the stream on
    every path before such a read, and nowhere else.

    GPU writes to host-visible memory (memrefs in the default memory space)
    are: the destination of a `gpu.memcpy` / `gpu.memset`, every host memref
    passed to a kernel, and every host memref passed to a call of a program
    that takes the stream. A host read is any other use of such a buffer (or
    of a view of it): loads, calls, deallocations, ops in nested regions, and
    so the computation of interstate-edge conditions, symbol assignments and
    loop bounds.

    Minimality: no sync where no host read of pending results follows; one
    sync serves all later reads of everything pending on that stream until
    new GPU work is issued; a loop that reads pending results it does not
    itself write gets the sync before the loop, not inside it. That holds
    for structured loops (`scf.for`, `scf.while`, ...) and for the loops of
    a program's state machine (natural loops of the control-flow graph): the
    sync goes on each edge that enters the loop with such results pending,
    at the end of the state before the loop or, if that state also branches
    elsewhere, in a new state on that edge only. Existing syncs are taken
    into account.
  }];
  let dependentDialects = ["::mlir::sdfg::SDFGDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def CheckArgumentDevices : Pass<"check-argument-devices", "ModuleOp"> {
  let summary = "Check at run time that GPU buffers are on the stream's device";
  let description = [{
    A caller's stream belongs to one device; buffers in GPU memory passed
    with it must be on that device too, or a kernel faults on them (on a
    multi-GPU node, an easy mistake: data on device 0, a stream created on
    device 1). In every public program that takes the caller's stream (run
    `add-external-gpu-stream` first), this pass inserts right after
    `sdfg.init_streams`, for each argument in GPU memory
    (`#gpu.address_space<global>` or memory space 1),

    ```mlir
    sdfg.check_device %arg on %slot argument N : memref<...>
    ```

    which fails the call, before any of its work is enqueued, with an error
    naming argument N and both devices. Host and managed memory pass. The
    cost is one pointer-attribute query per GPU argument per call, which is
    why it is a separate pass (pipelines: `check-devices=true`). Private
    programs get their buffers from a checked caller and are left alone;
    programs that already have checks are too (idempotent).
  }];
  let dependentDialects = ["::mlir::sdfg::SDFGDialect"];
}

def InstrumentTimers : Pass<"instrument-timers", "ModuleOp"> {
  let summary = "Time each call of a program on its own streams";
  let description = [{
    Measures the GPU time of programs with events recorded on the program's
    own streams: in every program that takes the caller's stream (run
    `add-external-gpu-stream` first), inserts right after `sdfg.init_streams`

    ```mlir
    %timer = sdfg.timer_begin "<program>" on %slot0, %slot1, ...
    ```

    and before every return (before the syncs `make-sync-call` placed
    there, so that a synchronous call also waits for its end events)

    ```mlir
    sdfg.timer_end %timer on %slot0, %slot1, ...
    ```

    At run time each call records one begin and one end event per distinct
    stream and adds the span between its first begin and its last end event
    to the program's total, which `sdfgrtTimerQuery` reads. Nothing here
    synchronizes the device, and an asynchronous call never waits for its
    events: a call's time is resolved at the program's next call or when
    the total is queried. Calls captured into a CUDA/HIP graph are not
    timed.

    Private programs (called from other programs, whose own timer covers
    them) are left alone unless `nested-programs` is set; their time then
    adds to their own totals as well. Programs that already have a timer
    are left alone, so the pass is idempotent.
  }];
  let options = [
    Option<"nestedPrograms", "nested-programs", "bool", /*default=*/"false",
           "Also time the calls of private programs">
  ];
  let dependentDialects = ["::mlir::sdfg::SDFGDialect"];
}

def VerifyStreamDiscipline : Pass<"verify-stream-discipline", "ModuleOp"> {
  let summary = "Prove that lowered code only uses the caller's stream";
  let description = [{
    A lint over LLVM-dialect host code (the output of `sdfg-lower-to-cuda`,
    `sdfg-lower-to-rocm`, or upstream's `gpu-to-llvm`). It reports, at the
    location of the offending op, every

    * call that creates or destroys a stream (`mgpuStreamCreate`,
      `mgpuStreamDestroy`, `cudaStreamCreate*`, `cuStreamDestroy*`,
      `hipStreamCreate*`, ...);
    * call that synchronizes the whole device or context
      (`cudaDeviceSynchronize`, `cuCtxSynchronize`, `hipDeviceSynchronize`,
      ...);
    * GPU runtime call (`mgpuLaunchKernel`, `mgpuMemcpy`, `mgpuMemAlloc`,
      `mgpuStreamSynchronize`, ...) or `gpu.launch_func` whose stream is a
      null or constant pointer, and every `gpu.launch_func` without a
      stream (its translation creates, synchronizes and destroys one);
    * event call made on something that is not an event
      (`mgpuEventSynchronize` / `mgpuEventDestroy` of a stream: upstream's
      lowering of `gpu.wait` on a stream it did not create).
    * call to an `mgpu*` or `sdfgrt*` function that the SDFGStream runtime
      does not implement (the cuSPARSE wrappers of upstream's sparse ops,
      the event API, a misspelt entry): the program would fail to link or
      load. The runtime's entries are listed once, in
      `include/SDFGStream/Runtime/RuntimeEntries.def`, which the runtime
      and its unit tests are checked against.

    Both lowering pipelines run it last.
  }];
}

def VerifyFullyLowered : Pass<"verify-fully-lowered"> {
  let summary = "Fail on anything a lowering left unconverted";
  let description = [{
    A lint for the end of a lowering, so that what `mlir-translate` would
    refuse (or miscompile) is reported here, at the op, with a non-zero
    exit. It reports every op that is not

    * in host code: an LLVM dialect op, `builtin.module`, `gpu.binary`,
      `gpu.module` or `gpu.launch_func` (which the GPU translation
      handles);
    * inside a `gpu.module` (kernels): an op of the `llvm`, `nvvm` or
      `rocdl` dialect.

    `builtin.unrealized_conversion_cast` is reported only where nothing
    else is: a cast is normally left behind by another unconverted op,
    which is the one to fix. Run on a `gpu.module` it checks that module's
    kernels only. Both lowering pipelines run it on the kernels before they
    are serialized and on the whole module last.

    Example: `vector.transfer_read` left in host code gives
    `'vector.transfer_read' op was not lowered to the LLVM dialect (host
    code)`.
  }];
}

#endif // SDFGSTREAM_TRANSFORMS_PASSES_TD
