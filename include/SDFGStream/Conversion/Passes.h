//===- Passes.h - SDFGStream conversion passes and pipelines ----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_CONVERSION_PASSES_H
#define SDFGSTREAM_CONVERSION_PASSES_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace sdfg {

#define GEN_PASS_DECL
#include "SDFGStream/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "SDFGStream/Conversion/Passes.h.inc"

/// Options of the lowering pipelines `sdfg-lower-to-cuda` and
/// `sdfg-lower-to-rocm`.
struct LowerToGpuPipelineOptions
    : public PassPipelineOptions<LowerToGpuPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture to compile kernels for (default: "
                     "sm_90 for CUDA, gfx90a for ROCm)")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel binary format: fatbin (CUDA default), bin "
                     "(cubin / hsaco; ROCm default) or isa (PTX / AMDGCN "
                     "assembly, compiled when first loaded)")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("Toolkit path for the kernel compiler (CUDA: where "
                     "bin/ptxas lives; ROCm: where amdgcn/bitcode and "
                     "llvm/bin/ld.lld live)")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("Kernel optimization level"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> syncCall{
      *this, "sync-call",
      llvm::cl::desc("Make calls synchronous (make-sync-call)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> checkDevices{
      *this, "check-devices",
      llvm::cl::desc("Fail a call whose GPU buffers are on another device "
                     "than its stream (check-argument-devices)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> timers{
      *this, "timers",
      llvm::cl::desc("Time each call on its streams (instrument-timers)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> testOmitHostSyncs{
      *this, "test-omit-host-syncs",
      llvm::cl::desc("Test only: insert no host syncs (insert-host-syncs "
                     "test-omit-syncs), for the negative controls of the "
                     "GPU hazard tests"),
      llvm::cl::init(false)};
};

/// The GPU vendor a pipeline lowers to. Everything else is shared.
enum class GpuVendor { CUDA, ROCm };

/// Adds the whole lowering of SDFGStream programs to `pm`: library node
/// expansion, the external stream, host code to the LLVM dialect on the
/// caller's stream, kernels to NVVM/ROCDL binaries, and a final
/// verify-stream-discipline.
void buildLowerToGpuPipeline(OpPassManager &pm, GpuVendor vendor,
                             const LowerToGpuPipelineOptions &options);

/// Registers `sdfg-lower-to-cuda` and `sdfg-lower-to-rocm`.
void registerLowerToGpuPipelines();

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_CONVERSION_PASSES_H
