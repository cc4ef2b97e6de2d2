//===- Passes.h - Passes and pipelines of the toy DSL -----------*- C++ -*-===//
//
// Part of the toy-dsl example of embedding SDFGStream.
//
//===----------------------------------------------------------------------===//

#ifndef TOYDSL_PASSES_H
#define TOYDSL_PASSES_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace toy_dsl {

#define GEN_PASS_DECL
#include "ToyDSL/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ToyDSL/Passes.h.inc"

/// Options of `toy-dsl-to-gpu-on-caller-stream`.
struct ToyDSLPipelineOptions
    : public PassPipelineOptions<ToyDSLPipelineOptions> {
  PassOptions::Option<bool> syncCall{
      *this, "sync-call",
      llvm::cl::desc("Return only once the caller's stream has finished the "
                     "call's GPU work (sdfg-make-sync-call)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> streamName{
      *this, "stream-name",
      llvm::cl::desc("Name of the stream parameter every program gets"),
      llvm::cl::init("stream")};
};

/// The DSL's programs on the caller's stream, still in the `gpu` and `sdfg`
/// dialects: toy-dsl-to-sdfg, then SDFGStream's library node expansion,
/// sdfg-add-external-gpu-stream, sdfg-insert-host-syncs and (sync-call)
/// sdfg-make-sync-call.
void buildToyDSLToGpuOnCallerStreamPipeline(
    OpPassManager &pm, const ToyDSLPipelineOptions &options);

/// Registers `toy-dsl-to-gpu-on-caller-stream` and `toy-dsl-to-cuda` /
/// `toy-dsl-to-rocm` (toy-dsl-to-sdfg, then SDFGStream's whole lowering).
/// The DSL's own lowering to LLVM (PTX kernels): SDFGStream's stream
/// passes, then upstream's passes with convert-to-llvm for the host, which
/// lowers the sdfg ops through the sdfg dialect's interface.
void buildToyDSLOwnLoweringPipeline(OpPassManager &pm,
                                    const ToyDSLPipelineOptions &options);

void registerToyDSLPipelines();

} // namespace toy_dsl
} // namespace mlir

#endif // TOYDSL_PASSES_H
