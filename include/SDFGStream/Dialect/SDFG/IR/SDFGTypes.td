//===- SDFGTypes.td - Types of the sdfg dialect ------------*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGTYPES_TD
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGTYPES_TD

include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.td"
include "mlir/IR/AttrTypeBase.td"

def SDFG_StreamType : TypeDef<SDFG_Dialect, "Stream"> {
  let mnemonic = "stream";
  let summary = "A GPU stream handle owned by the caller";
  let description = [{
    An opaque GPU stream: `cudaStream_t` on CUDA, `hipStream_t` on HIP. It
    lowers to a pointer (`!llvm.ptr`, `void *` in C). The value 0 is the
    default stream.

    Example:

    ```mlir
    sdfg.sdfg @p(%A: memref<64xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"})
        target(gpu, streams = 1) {
      %slot = sdfg.init_streams %s -> !sdfg.stream
      sdfg.sync %slot
      sdfg.return
    }
    ```
  }];
}

def SDFG_TimerType : TypeDef<SDFG_Dialect, "Timer"> {
  let mnemonic = "timer";
  let summary = "One timed call of a program";
  let description = [{
    The handle of one timed call, made by `sdfg.timer_begin` and closed by
    `sdfg.timer_end` (see `sdfg-instrument-timers`). It lowers to the runtime's
    call handle (`!llvm.ptr`, `void *` in C).

    Example:

    ```mlir
    %timer = sdfg.timer_begin "stencil" on %slots#0 // : !sdfg.timer
    sdfg.timer_end %timer on %slots#0
    ```
  }];
}

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGTYPES_TD
