//===- SDFGDialect.td - The sdfg dialect definition --------*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGDIALECT_TD
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGDIALECT_TD

include "mlir/IR/OpBase.td"

def SDFG_Dialect : Dialect {
  let name = "sdfg";
  let cppNamespace = "::mlir::sdfg";
  let summary = "SDFG-style GPU programs that run on a caller-provided stream";
  let description = [{
    The `sdfg` dialect models a generated GPU program in the style of DaCe's
    Stateful DataFlow multiGraphs: an `sdfg.sdfg` op is a program whose body
    is a control-flow graph. Each block is a *state*; the branches between
    blocks (upstream `cf.br` / `cf.cond_br`) are *interstate edges* whose
    conditions and symbol assignments (block arguments) are computed by host
    code written with upstream `arith`, `memref` and `cf` ops.

    GPU work inside a program is written with the upstream `gpu` dialect
    (`gpu.launch_func`, `gpu.launch`, `gpu.memcpy`, `gpu.memset`, `gpu.alloc`,
    `gpu.dealloc`, kernels in a `gpu.module`). The dialect adds what is needed
    to run all of that work on a stream that the *caller* owns:

    * `!sdfg.stream`, a GPU stream handle (`cudaStream_t` / `hipStream_t`);
    * `sdfg.init_streams`, which applies the external stream to the
      program's stream slots;
    * `sdfg.stream_token`, which lets an upstream `gpu` op depend on (and
      therefore be enqueued on) a stream;
    * `sdfg.sync`, which synchronizes the host with a list of streams, and
      `sdfg.stream_wait`, which orders one stream after another on the GPU;
    * `sdfg.call` and library nodes (`sdfg.reduce`), which pass the stream
      on to nested programs;
    * `!sdfg.timer`, `sdfg.timer_begin` and `sdfg.timer_end`, which time a
      call on the program's own streams (`sdfg-instrument-timers`);
    * `sdfg.check_device`, which fails a call whose GPU buffer lives on
      another device than its stream (`sdfg-check-argument-devices`).

    Array storage: a memref in the `#gpu.address_space<global>` memory space
    lives in GPU global memory; a memref in the default memory space lives
    in host memory.

    Discardable attributes understood by the dialect:

    * `sdfg.stream_slot = K : i64` on a GPU op, `sdfg.call` or library node
      names the stream slot the op runs on (default 0);
    * `sdfg.external_stream = "name"`, an argument attribute, marks the
      program argument that carries the caller's stream (one per program;
      the passes put it last, a stream adopted from a `gpu.launch_func` async
      object stays where it is);
    * `sdfg.num_streams = N : i64` gives a `func.func` N stream slots
      (default 1, at most 1024; `sdfg.sdfg` has its own `streams` field);
    * `sdfg.concurrent_streams` (a unit attribute) on an `sdfg.sdfg` or
      `func.func` with more than one stream slot asks for concurrent slots:
      slot 0 is the caller's stream, the others run on streams of the
      runtime's pool, forked from and joined back to the caller's stream
      (`sdfg-add-external-gpu-stream` makes its `sdfg.init_streams` concurrent);
    * `sdfg.token_chains` (a unit attribute) on a program with concurrent
      slots says that its slots are its token chains
      (`sdfg-add-external-gpu-stream` sets it where it derives them): the
      program's tokens order the slots, so no wait is added between them
      for buffers they share, only the join before each return;
    * `sdfg.graph_mode` (a unit attribute) on an `sdfg.sdfg` or `func.func`
      program asks for graph mode: `convert-sdfg-to-func` opens its calls
      with `sdfgrtBeginGraphCall`, and the runtime launches the GPU work
      between host syncs as cached CUDA graphs (docs/guide.md, Graph mode);
    * `sdfg.program` marks a `func.func` that is a program call, as
      `convert-sdfg-to-func` makes it: it returns the call's status (one
      `i32`) and brackets its body with `sdfgrtBeginCall`/`sdfgrtEndCall`.
  }];
  // The dialect's discardable attributes (documented above), each with a
  // generated helper (SDFGDialect::StreamSlotAttrHelper, ...) that names,
  // reads and sets it. Not `sdfg.external_stream`: it is an argument
  // attribute, kept in the function's `arg_attrs` and read with
  // FunctionOpInterface::getArgAttr, while a generated helper reads and
  // sets an attribute of the op itself (where the verifier rejects this
  // one). Its one spelling is getExternalStreamAttrName below.
  let discardableAttrs = (ins
    "::mlir::IntegerAttr":$stream_slot,
    "::mlir::IntegerAttr":$num_streams,
    "::mlir::UnitAttr":$concurrent_streams,
    "::mlir::UnitAttr":$token_chains,
    "::mlir::UnitAttr":$graph_mode,
    "::mlir::UnitAttr":$program
  );
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
  let extraClassDeclaration = [{
    /// The argument attribute marking the caller's stream argument (not a
    /// discardable attribute of an op: see discardableAttrs above). Every
    /// use names it through this.
    static constexpr ::llvm::StringLiteral getExternalStreamAttrName() {
      return ::llvm::StringLiteral("sdfg.external_stream");
    }
    /// The argument attribute that keeps an argument's name in the program
    /// it was imported from (a DaCe container or symbol): the printed IR
    /// and the C header use it.
    static constexpr ::llvm::StringLiteral getArgNameAttrName() {
      return ::llvm::StringLiteral("sdfg.arg_name");
    }
    /// The name of the caller's stream argument unless one is chosen.
    static constexpr ::llvm::StringLiteral getDefaultExternalStreamName() {
      return ::llvm::StringLiteral("external_gpu_stream");
    }
    /// The most stream slots a program may declare. Passes make one value
    /// per slot (`sdfg.init_streams`), so the count must stay small; 1024
    /// is far more than the streams a program can use concurrently.
    static constexpr int64_t getMaxStreamSlots() { return 1024; }
  }];
}

class SDFG_Op<string mnemonic, list<Trait> traits = []>
    : Op<SDFG_Dialect, mnemonic, traits>;

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGDIALECT_TD
