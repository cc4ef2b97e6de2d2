//===- Pipelines.cpp - The DSL's pipelines through SDFGStream -------------===//
//
// Part of the toy-dsl example of embedding SDFGStream.
//
//===----------------------------------------------------------------------===//
//
// The DSL's own pass first, then SDFGStream's passes, created through the
// functions that SDFGStream's Passes.h declares (options included), or its
// whole lowering pipeline through buildLowerToGpuPipeline.
//
//===----------------------------------------------------------------------===//

#include "ToyDSL/Passes.h"

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Pipelines/Pipelines.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void toy_dsl::buildToyDSLToGpuOnCallerStreamPipeline(
    OpPassManager &pm, const ToyDSLPipelineOptions &options) {
  pm.addPass(createToyDSLToSDFG());
  pm.addPass(sdfg::createExpandLibraryNodes());
  sdfg::AddExternalGpuStreamOptions streamOptions;
  streamOptions.argumentName = options.streamName;
  pm.addPass(sdfg::createAddExternalGpuStream(streamOptions));
  pm.addPass(sdfg::createInsertHostSyncs());
  if (options.syncCall)
    pm.addPass(sdfg::createMakeSyncCall());
}

/// toy-dsl-to-sdfg, then sdfg-lower-to-cuda / sdfg-lower-to-rocm with the
/// same options.
void toy_dsl::buildToyDSLOwnLoweringPipeline(
    OpPassManager &pm, const ToyDSLPipelineOptions &options) {
  // The programs on the caller's stream, as SDFGStream's passes make them.
  buildToyDSLToGpuOnCallerStreamPipeline(pm, options);
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(sdfg::createConvertSDFGToFunc());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(sdfg::createInsertFailureExits());
  // The kernels, with upstream's passes.
  GpuNVVMAttachTargetOptions target;
  target.chip = "sm_90";
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertGpuOpsToNVVMOps());
  pm.nest<gpu::GPUModuleOp>().addPass(createReconcileUnrealizedCastsPass());
  // The host: upstream's convert-to-llvm, which lowers the sdfg ops and the
  // gpu ops on the stream through the sdfg dialect's interface.
  pm.addPass(sdfg::createRecordLocations());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  // What SDFGStream promises, checked.
  pm.addPass(sdfg::createVerifyStreamDiscipline());
  pm.addPass(sdfg::createVerifyFullyLowered());
}

/// toy-dsl-to-<vendor>: the DSL's own front, then SDFGStream's whole
/// lowering for `vendor`.
static void registerLoweringPipeline(sdfg::GpuVendor vendor) {
  std::string option = sdfg::getGpuVendorOptionName(vendor).str();
  PassPipelineRegistration<sdfg::LowerToGpuPipelineOptions>(
      "toy-dsl-to-" + option,
      "Compile the DSL's GPU procedures to LLVM and kernels with "
      "sdfg-lower-to-" + option + ", on the caller's stream",
      [vendor](OpPassManager &pm,
               const sdfg::LowerToGpuPipelineOptions &options) {
        pm.addPass(toy_dsl::createToyDSLToSDFG());
        sdfg::buildLowerToGpuPipeline(pm, vendor, options);
      });
}

void toy_dsl::registerToyDSLPipelines() {
  PassPipelineRegistration<ToyDSLPipelineOptions>(
      "toy-dsl-to-gpu-on-caller-stream",
      "Turn the DSL's GPU procedures into programs whose GPU work all runs "
      "on a stream the caller passes",
      buildToyDSLToGpuOnCallerStreamPipeline);
  PassPipelineRegistration<ToyDSLPipelineOptions>(
      "toy-dsl-to-llvm",
      "Compile the DSL's GPU procedures with the DSL's own lowering: "
      "SDFGStream's stream passes, upstream's kernel passes and "
      "convert-to-llvm (PTX kernels)",
      buildToyDSLOwnLoweringPipeline);
  // One per vendor SDFGStream was built for: toy-dsl-to-cuda, -rocm.
  for (sdfg::GpuVendor vendor : sdfg::getGpuVendors())
    registerLoweringPipeline(vendor);
}
