//===- Passes.td - SDFGStream conversion passes ------------*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_CONVERSION_PASSES_TD
#define SDFGSTREAM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSDFGToFunc : Pass<"convert-sdfg-to-func", "ModuleOp"> {
  let summary = "Turn sdfg.sdfg programs into functions with a C entry point";
  let description = [{
    Rewrites every `sdfg.sdfg` into a `func.func` of the same name that
    returns an `i32` status: 0, or the error code of the first GPU operation
    of the call that failed. `sdfg.call` becomes `func.call` (its status is
    ignored: a failure inside the nested program is still the caller's
    status) and `sdfg.return` returns the status.

    A program that takes the caller's stream brackets its body with the
    runtime's `sdfgrtBeginCall()` / `sdfgrtEndCall()`, which collect that
    status, and is marked `sdfg.program` (`sdfg-insert-failure-exits` then makes
    it leave at its first failure); a program without GPU work returns 0
    and needs no runtime.
    Public programs get `llvm.emit_c_interface`, so the compiled object
    exports `_mlir_ciface_<name>(...)`: memrefs as pointers to strided
    memref descriptors, symbols and scalars by value, the stream last as
    `void *`.

    A public `func.func` with a body is a program too: it gets
    `llvm.emit_c_interface`, and one that takes the caller's stream
    (`sdfg-add-external-gpu-stream` marked the argument) and returns nothing
    returns the call's status the same way, its `func.call`s getting the
    (ignored) `i32` result.

    Graph mode: a program marked `sdfg.graph_mode` (or every program, with
    `graph-mode=true`) opens its calls with `sdfgrtBeginGraphCall("name")`
    instead, its name a private constant string: the runtime then records
    the call's GPU work and launches it as cached CUDA graphs, one per run
    of work between host syncs (docs/guide.md, Graph mode). Nested programs
    are part of their caller's graphs.

    Example: `sdfg.sdfg @p(%A: memref<4xf32>, %s: !sdfg.stream {...})`
    becomes `func.func @p(%A: memref<4xf32>, %s: !sdfg.stream {...}) -> i32
    attributes {llvm.emit_c_interface, sdfg.num_streams = 1 : i64,
    sdfg.program}`.
  }];
  let options = [
    Option<"graphMode", "graph-mode", "bool", /*default=*/"false",
           "Open every program's calls in graph mode (as the "
           "sdfg.graph_mode attribute does for one program)">,
    Option<"testOmitGraphModeChecks", "test-omit-graph-mode-checks", "bool",
           /*default=*/"false",
           "Test only: no sdfgrtFlushGraphWork before calls that leave the "
           "runtime, and graph mode even where a GPU allocation leaves the "
           "call, for the negative controls of the graph-mode ordering "
           "tests">
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def RecordLocations : Pass<"sdfg-record-locations", "ModuleOp"> {
  let summary = "Tell the runtime the source location of each host GPU op";
  let description = [{
    Before each host GPU op (the `gpu` ops on a stream, host registration,
    `sdfg.sync`, `sdfg.stream_wait`, timers, device checks) inserts a call
    of `sdfgrtSetLocation` with the op's `file:line:col`, so that the
    runtime's error text names the op that failed. The texts are one
    deduplicated constant array; each call passes a pointer into it.

    The lowering pipelines run it right before `convert-sdfg-to-llvm`;
    another compiler's lowering (`convert-to-llvm` with the sdfg dialect's
    interface) runs it there too. Running it twice records every location
    twice (harmless, but wasted).

    Example: before `gpu.memcpy async [%t] ...` at `prog.mlir:12:5`,
    `llvm.call @sdfgrtSetLocation(%text)` with `%text` pointing at
    `"prog.mlir:12:5"`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertSDFGToLLVM : Pass<"convert-sdfg-to-llvm", "ModuleOp"> {
  let summary = "Lower host code to LLVM, every GPU op on the caller's stream";
  let description = [{
    Lowers the host side of programs that went through
    `sdfg-add-external-gpu-stream` and `convert-sdfg-to-func` to the LLVM
    dialect, in one conversion:

    * `!sdfg.stream` becomes `!llvm.ptr` (`void *`); `sdfg.init_streams`
      and `sdfg.stream_token` become that pointer, so every upstream `gpu`
      op's single async dependency *is* the caller's stream, and the
      upstream `gpu-to-llvm` patterns pass it to the `gpu.launch_func`
      async object (which the translation passes to `mgpuLaunchKernel`);
    * `gpu.alloc` becomes `mgpuMemAlloc(bytes, stream, hostShared)`
      (`host_shared`: managed memory, not stream-ordered, refused by the
      runtime during a graph capture) and `gpu.dealloc` `mgpuMemFree`; the
      pointer is cast to and from the memref's address space (numbered
      spaces such as `memref<?xf32, 1>` included);
    * `sdfg.sync` becomes `mgpuStreamSynchronize(stream)`;
    * `gpu.memcpy` and `gpu.memset` address each view from its first
      element (aligned pointer plus offset: upstream drops the offset of a
      copy's destination). Dense views become `mgpuMemcpy`,
      `sdfgrtMemset8` (also for `i1`), `mgpuMemset16` or `mgpuMemset32`;
      a view that is not provably dense, and any 64-bit memset, passes its
      memref descriptor to `sdfgrtMemcpyStrided` / `sdfgrtMemsetStrided`,
      which split it into 2D copies on the stream. Values wider than 64
      bits cannot be set;
    * `func`, `arith`, `cf`, `memref`, `index`, `math`, `ub` (and any
      dialect with a `ConvertToLLVMPatternInterface`) lower as usual; GPU
      memory spaces are plain pointers on the host;
    * host function definitions get the linkage their visibility means, so
      that an object exports its public programs only: private and nested
      ones (library-node expansions, nested programs, helpers) become
      `internal`, public ones (programs and their `_mlir_ciface_` entries)
      `dso_local`, so that symbol interposition cannot redirect their own
      calls. Declarations and definitions with another linkage (an
      `llvm.linkage` attribute) are left as they are.

    ```mlir
    func.func private @__sdfg_reduce_add_f32_gpu(...) -> i32 { ... }
    // becomes
    llvm.func internal @__sdfg_reduce_add_f32_gpu(...) -> i32
    ```

    A GPU op that is not on a stream (one that upstream would lower by
    creating, synchronizing or destroying a stream) is an error, as is any
    `gpu` op left over: nothing is left silently unconverted.

    The type conversions and patterns are exported
    (`SDFGStream/Conversion/SDFGToLLVM/SDFGToLLVM.h`), and the sdfg dialect
    implements `ConvertToLLVMPatternInterface`, so another compiler's
    `convert-to-llvm` lowers the same ops (after `sdfg-record-locations`,
    which the pipelines run before this pass, for located error texts).
  }];
  let options = [
    Option<"hostBarePtrCallConv", "host-bare-ptr-calling-convention", "bool",
           /*default=*/"false",
           "Host functions take statically shaped memrefs as bare pointers">,
    Option<"kernelBarePtrCallConv", "kernel-bare-ptr-calling-convention",
           "bool", /*default=*/"false",
           "Kernels take statically shaped memrefs as bare pointers (must "
           "match the kernel lowering's option)">
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect"
  ];
}

#endif // SDFGSTREAM_CONVERSION_PASSES_TD
