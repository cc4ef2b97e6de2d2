//===- Passes.td - Passes of the toy DSL compiler ----------*- tablegen -*-===//
//
// Part of the toy-dsl example of embedding SDFGStream.
//
//===----------------------------------------------------------------------===//

#ifndef TOYDSL_PASSES_TD
#define TOYDSL_PASSES_TD

include "mlir/Pass/PassBase.td"

def ToyDSLToSDFG : Pass<"toy-dsl-to-sdfg", "ModuleOp"> {
  let summary = "Turn the DSL's GPU procedures into SDFGStream programs";
  let description = [{
    The toy DSL's front end emits every procedure that enqueues GPU work as
    a `func.func` carrying `toy_dsl.streams = N`, the number of independent
    GPU work queues the procedure uses. SDFGStream's passes take programs,
    so this pass turns each such function into an `sdfg.sdfg` GPU program
    with N stream slots (`sdfg.stream_slot` on an op picks its queue).
    Other functions are left alone.

    A procedure must have a body, return nothing (a program writes its
    outputs into its array arguments) and not be called by other code.

    Example (`--toy-dsl-to-sdfg`):

    ```mlir
    func.func @fill(%A: memref<64xf32, 1>, %v: f32)
        attributes {toy_dsl.streams = 1 : i64} {
      gpu.memset %A, %v : memref<64xf32, 1>, f32
      return
    }
    ```

    becomes

    ```mlir
    sdfg.sdfg @fill(%A: memref<64xf32, 1>, %v: f32) target(gpu, streams = 1) {
      gpu.memset %A, %v : memref<64xf32, 1>, f32
      sdfg.return
    }
    ```
  }];
  let dependentDialects = ["::mlir::sdfg::SDFGDialect"];
}

#endif // TOYDSL_PASSES_TD
