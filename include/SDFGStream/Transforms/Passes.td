//===- Passes.td - SDFGStream transformation passes --------*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TRANSFORMS_PASSES_TD
#define SDFGSTREAM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AddExternalGpuStream : Pass<"sdfg-add-external-gpu-stream", "ModuleOp"> {
  let summary = "Run every program with GPU work on a stream passed in by "
                "the caller";
  let description = [{
    Finds every `sdfg.sdfg` and `func.func` that has GPU work, directly or
    through calls to programs and functions that have it, and makes all of
    that work run on one stream that the caller passes at run time:

    * appends a `!sdfg.stream` argument as the last argument, marked
      `{sdfg.external_stream = "<argument-name>"}` (a program whose last
      argument already is a `!sdfg.stream` gets that one marked, and so
      does one whose `sdfg.init_streams` is written from an argument in any
      position, where its callers then pass theirs; one whose
      launches run on an argument as their async object,
      `gpu.launch_func <%s : !llvm.ptr>` as flang's CUF lowering writes it,
      gets that argument as the caller's stream, and such functions may
      call each other passing it on, as a CUF module's subroutines do;
      body-less `target(gpu)` programs get the argument too);
    * inserts `sdfg.init_streams` at entry, applying that stream to the
      program's stream slots;
    * rewrites every upstream `gpu` op that is enqueued on a stream
      (`gpu.launch_func`, `gpu.launch`, `gpu.memcpy`, `gpu.memset`,
      `gpu.alloc`, `gpu.dealloc`, ...) into its async form whose only async
      dependency is the stream of its slot (`sdfg.stream_slot`, default 0)
      through `sdfg.stream_token`. Ops written in sync form and in
      async-token form (e.g. the output of `gpu-async-region`) are both
      handled: `gpu.wait async` becomes the slot's token and a blocking
      `gpu.wait` becomes an `sdfg.sync` of every awaited stream, so after
      lowering nothing creates, waits on or destroys another stream; an op
      whose dependencies come from several streams runs on one of them
      after an `sdfg.stream_wait` on each other one;
    * turns a `memref.copy` in host code to or from a buffer in a GPU memory
      space (as bufferization with memory spaces emits it; lowered as it is,
      it would be a host memcpy through a device pointer) into a
      `gpu.memcpy` on the stream;
    * passes the stream of the call's slot on to called programs and
      functions with GPU work, at any depth, and to library nodes, whose
      implementation takes the stream whenever it is expanded.

    Concurrent slots (opt-in: the `concurrent-streams` option, or the
    `sdfg.concurrent_streams` attribute that a code generator sets on a
    program with more than one slot): the program's `sdfg.init_streams` is
    `concurrent`, so slot 0 is the caller's stream and every other slot a
    stream of the runtime's pool forked from it at entry. Then an
    `sdfg.stream_wait` goes before each op whose GPU work uses what work on
    another slot produced, or overwrites or frees what it still uses
    (buffers by BufferAliasAnalysis; kernels by what their bodies write;
    stream-ordered allocations count as writes), none between independent
    work, and before each return slot 0 waits for every slot with work it
    is not ordered after yet (the join), so that to the caller the call is
    still one ordered unit on its stream. Each wait is an event record and
    wait on the GPU, never a host sync.

    Token chains (the async form upstream's `gpu-async-region` writes, and
    producers that state concurrency with tokens): in a program without
    slots of its own, each GPU op with a token and no async dependencies
    (`gpu.wait async`, mostly) starts a chain, and each chain gets a slot,
    concurrent as above: the first the caller's stream, the others forked
    from it at entry. An op depending on tokens of several chains waits for
    the other chains' streams first (a `gpu.wait async [%a, %b]` joins
    them), a blocking `gpu.wait` syncs the host with the chains it names,
    and every chain is joined back into the caller's stream before each
    return. No wait is added between chains for buffers they share: the
    tokens say what is ordered (two kernels of two chains may need to run at
    once). A chain that a blocking `gpu.wait` of its own block finished
    frees its slot for the chains that start after that wait (in that
    block, or after the region op that holds it). With
    `serialize-async=true` every chain runs on the caller's stream, in
    program order.

    `async.execute` regions with GPU work run in place first, in program
    order, on the caller's thread (no thread pool): `async.await` of a
    region's value is what the region yielded, of its token nothing;
    dependencies, values passed between regions, nested regions and groups
    of regions are handled; anything else in the async form (awaiting what
    no region of the program makes, a region's index in its group used) is
    an error at the op. A chain a region starts is a chain as above.

    Programs and functions without GPU work are left exactly as they were.
    GPU work in another kind of function (`llvm.func`) is an error at the
    op: such a function cannot be given the stream.
    The pass is idempotent: a second run changes nothing. A caller that
    wants the call to be synchronous adds `sdfg-make-sync-call`; a blocking GPU
    op that the host reads the result of needs `sdfg.sync` (or
    `gpu.wait`) before the read.

    Example (`--sdfg-add-external-gpu-stream`):

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
           /*default=*/
           "::mlir::sdfg::SDFGDialect::getDefaultExternalStreamName().str()",
           "Name of the stream argument (kept in its sdfg.external_stream "
           "attribute; it names the parameter of the compiled program)">,
    Option<"concurrentStreams", "concurrent-streams", "bool",
           /*default=*/"false",
           "Run the stream slots of every program with more than one "
           "concurrently (as the sdfg.concurrent_streams attribute does for "
           "one program)">,
    Option<"serializeAsync", "serialize-async", "bool", /*default=*/"false",
           "Run every token chain of a program in upstream's async form on "
           "the caller's one stream, instead of a concurrent slot each">,
    Option<"testOmitStreamWaits", "test-omit-stream-waits", "bool",
           /*default=*/"false",
           "Test only: do not order ops after their dependencies on other "
           "streams (no sdfg.stream_wait, no join of concurrent slots), for "
           "the negative controls of the joined-streams and concurrent-slots "
           "GPU tests">
  ];
  let dependentDialects = [
    "::mlir::sdfg::SDFGDialect", "::mlir::gpu::GPUDialect"
  ];
}

def MakeSyncCall : Pass<"sdfg-make-sync-call", "ModuleOp"> {
  let summary = "Synchronize the program's streams before it returns";
  let description = [{
    Makes calls of programs synchronous: before every return of a program
    that takes the caller's stream (run `sdfg-add-external-gpu-stream` first),
    inserts one `sdfg.sync` that synchronizes each distinct stream of the
    program's slots once. All slots carry the caller's stream, so that is one
    `cudaStreamSynchronize` of the caller's stream: never a device-wide
    synchronization, and never a wait on another stream's work. Concurrent
    slots are joined into slot 0 before each return, so there too the one
    sync is of the caller's stream. A return that such a sync already
    precedes, with only host code between them that calls nothing (the
    host read `sdfg-insert-host-syncs` synced for), gets no second one.

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

    When the node already runs on a stream (`sdfg-add-external-gpu-stream` ran
    before), the nested program takes that stream as its last argument and
    all of its GPU work runs on it; otherwise the nested program is a plain
    program that a later `sdfg-add-external-gpu-stream` threads like any other.
  }];
  let dependentDialects = [
    "::mlir::sdfg::SDFGDialect", "::mlir::gpu::GPUDialect",
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def InsertHostSyncs : Pass<"sdfg-insert-host-syncs", "ModuleOp"> {
  let summary = "Synchronize a stream exactly where host code would race "
                "with its GPU work";
  let description = [{
    Once `sdfg-add-external-gpu-stream` has made GPU work asynchronous, host
    code that accesses memory which GPU work on a stream may still read or write
    must first synchronize that stream. This pass inserts `sdfg.sync` of exactly
    those streams before each such access, on every path, and nowhere else. It
    solves one dense forward data-flow problem per program (MLIR's data-flow
    framework; the lattice is documented in
    `SDFGStream/Analysis/PendingGpuWork.h`): which (stream, buffer, read or
    write) GPU accesses may still be pending at each point.

    * Hazards: a host read waits for pending GPU writes of memory that may
      alias it; a host write or free also waits for pending GPU reads (the
      source of an H2D copy, memory a kernel reads).
    * Aliases: buffers (ranked and unranked memrefs, LLVM pointers) are
      followed through every op that makes a buffer from buffers, branches
      and region ops; arguments may alias each other and globals unless
      marked `llvm.noalias`; GPU memory spaces never alias host memory;
      whether the host can touch a buffer is decided by the buffer, not by
      the memory space of the view in hand.
    * What is an access: the Read/Write/Free effects an op declares on a
      buffer (metadata and views are none), every buffer operand of an op
      that declares nothing, returning host-visible memory; GPU ops on a
      stream read and write on that stream (copies read their source and
      write their destination, kernels write what their body may write).
    * Calls: decided by a summary of the callee (which arguments and
      globals it accesses on the host, which only through GPU work on the
      stream or on another `!sdfg.stream` it is given, GPU work on its own
      allocations whose address leaves it, which streams it ends
      synchronized), solved over the module to a fixpoint; callees are
      placed first; a declaration accesses every buffer it is given on the
      host.
    * Escapes: a buffer whose address is stored, packed, or leaves as an
      integer the analysis does not follow may be accessed by every kernel
      and every opaque host op.
    * Detached regions: after an `async.execute` its body's GPU work is
      pending and none of its syncs count (it may not have run yet).
    * Control flow: control-flow graphs (irreducible ones too) and every
      `RegionBranchOpInterface` op; any other region op (e.g.
      `omp.parallel`) makes the host accesses nested in it, so their sync
      goes before it, and its regions start from that state joined with the
      GPU work nested in it.

    Minimality: one sync serves every later access until new GPU work is
    queued; a loop whose host accesses conflict with work pending on entry
    but with none of its own GPU work gets one sync before the loop
    (structured loops) or on its entry edges (natural loops of a state
    machine; a new state on an edge that also leads elsewhere). Existing
    syncs are taken into account: a second run changes nothing.
  }];
  let options = [
    Option<"testOmitSyncs", "test-omit-syncs", "bool", /*default=*/"false",
           "Test only: analyze, but insert no sync (the negative control of "
           "the GPU hazard tests: the same program with its syncs withheld)">
  ];
  let dependentDialects = ["::mlir::sdfg::SDFGDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def InsertFailureExits : Pass<"sdfg-insert-failure-exits", "ModuleOp"> {
  let summary = "Leave a program call at its first failing operation, "
                "freeing what it took";
  let description = [{
    A program call stops at its first failure: before any host code runs
    after an operation that can fail the call (a GPU op, an `sdfg` op with
    effects, a call of a runtime entry that can fail, of a function that
    can, of a program, or an indirect call), this pass adds a check of the
    call's status (`sdfgrtCallStatus`) and a branch that leaves the
    function at once, so that no later host code runs on results the failed
    operation never produced (a loop waiting for a flag the GPU never copied
    back ends, a loop bound is never read from a skipped copy). A run of GPU
    ops with only pure ops between them gets one check, after its last op:
    the runtime skips the rest of a failed call's GPU work, so nothing of
    the run after the failing op runs either. A call or region op that can
    fail is checked right after it.

    * A program (`sdfg.program`) leaves through `sdfgrtEndCall` and returns
      the call's status; the outermost end of a failed call frees, on its
      own stream, every GPU allocation the call made and did not free
      (nested programs and library nodes included).
    * Any other function that can fail returns `ub.poison` values; its
      callers check the status right after the call and leave too, so a
      failure returns through every caller.
    * Host buffers that the function allocated (`memref.alloc`), has not
      freed on any path to the failing operation and does not hand on
      (returned, passed through a branch, registered with the GPU) are
      freed on the way out.

    Outside a program call the status is always 0 and nothing changes.
    Operations nested in a region other than the function body (e.g. in
    `memref.alloca_scope`) are checked after the op that holds them (until
    then the runtime skips the call's later GPU operations). Runs on
    control-flow-graph form (after `convert-scf-to-cf`) before the host
    lowering; a second run changes nothing.

    Example:

    ```mlir
    %t = gpu.memcpy async [%s] %host, %dev : memref<1xi32>, memref<1xi32, 1>
    ```

    becomes

    ```mlir
    %t = gpu.memcpy async [%s] %host, %dev : memref<1xi32>, memref<1xi32, 1>
    %status = call @sdfgrtCallStatus() : () -> i32
    %failed = arith.cmpi ne, %status, %c0_i32 : i32
    cf.cond_br %failed weights([1, 2047]), ^exit, ^continue
    ```

    (`%c0_i32` is made once, at the function's entry.)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::ub::UBDialect"];
}

def CheckArgumentDevices : Pass<"sdfg-check-argument-devices", "ModuleOp"> {
  let summary = "Check at run time that GPU buffers are on the stream's device";
  let description = [{
    A caller's stream belongs to one device; buffers in GPU memory passed
    with it must be on that device too, or a kernel faults on them (on a
    multi-GPU node, an easy mistake: data on device 0, a stream created on
    device 1). In every public program that takes the caller's stream (run
    `sdfg-add-external-gpu-stream` first), this pass inserts right after
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

def InstrumentTimers : Pass<"sdfg-instrument-timers", "ModuleOp"> {
  let summary = "Time each call of a program on its own streams";
  let description = [{
    Measures the GPU time of programs with events recorded on the program's
    own streams: in every program that takes the caller's stream (run
    `sdfg-add-external-gpu-stream` first), inserts right after
    `sdfg.init_streams`

    ```mlir
    %timer = sdfg.timer_begin "<program>" on %slot0, %slot1, ...
    ```

    and before every return (before the syncs `sdfg-make-sync-call` placed
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

def VerifyStreamDiscipline : Pass<"sdfg-verify-stream-discipline", "ModuleOp"> {
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
      `mgpuStreamSynchronize`, ...), direct CUDA / HIP call that takes a
      stream (`cudaStreamSynchronize`, `cuStreamSynchronize`,
      `cuLaunchKernel`, `cudaLaunchKernel`, `cudaMemcpyAsync`,
      `cuMemcpyHtoDAsync`, `hipModuleLaunchKernel`, `hipMemcpyAsync`, ...)
      or `gpu.launch_func` whose stream is a null or constant pointer or is
      loaded from a global (`llvm.mlir.addressof` -> `llvm.load`), and
      every `gpu.launch_func` without a stream (its translation creates,
      synchronizes and destroys one);
    * CUDA / HIP copy or memset without a stream (`cudaMemcpy`,
      `cuMemcpyHtoD`, `cuMemsetD32`, `hipMemcpy`, ...): it runs on the
      default stream;
    * event call made on something that is not an event
      (`mgpuEventSynchronize` / `mgpuEventDestroy` of a stream: upstream's
      lowering of `gpu.wait` on a stream it did not create).
    * call to an `mgpu*` or `sdfgrt*` function that the SDFGStream runtime
      does not implement (the event API, upstream's `mgpuCreateSparseEnv`,
      a misspelt entry): the program would fail to link or
      load;
    * call to a runtime entry through a declaration with another signature
      than the runtime's (an upstream lowering whose ABI changed, a
      hand-written declaration): the arguments would be passed wrongly.

    The runtime's entries and their signatures are listed once, in
    `include/SDFGStream/Runtime/RuntimeEntries.def`, which the lowering
    declares them from (`SDFGStream/Conversion/RuntimeEntries.h`) and the
    runtime's C declarations and exports are checked against.

    Versioned driver symbols (`cuMemcpyHtoDAsync_v2`) and per-thread
    default stream variants (`_ptsz`, `_ptds`, HIP's `_spt`) are checked
    like their plain names. Both lowering pipelines run it last.
  }];
}

def VerifyFullyLowered : Pass<"sdfg-verify-fully-lowered"> {
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
