//===- Pipelines.cpp - sdfg-lower-to-cuda and sdfg-lower-to-rocm ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// One lowering for both vendors, a superset of upstream's
// gpu-lower-to-nvvm-pipeline (mlir/lib/Dialect/GPU/Pipelines) built from the
// same passes: nvgpu, vector, affine, scf, arith, index, math, ub and
// memref on host and kernels, kernels to NVVM/ROCDL and a binary, and the
// host on the caller's stream (convert-sdfg-to-llvm instead of
// gpu-to-llvm). What differs per vendor is a small target description
// (TargetDescription.h); what a lowering leaves unconverted is an error
// (sdfg-verify-fully-lowered), and bad options are refused before anything
// runs.
//
//===----------------------------------------------------------------------===//

#include "TargetDescription.h"

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Pipelines/Passes.h"
#include "SDFGStream/Pipelines/Pipelines.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sdfg;

LogicalResult mlir::sdfg::verifyLowerToGpuPipelineOptions(
    GpuVendor vendor, const LowerToGpuPipelineOptions &options,
    std::string &error) {
  return getTargetDescription(vendor).verifyOptions(options, error);
}

void mlir::sdfg::buildLowerToGpuPipeline(
    OpPassManager &pm, GpuVendor vendor,
    const LowerToGpuPipelineOptions &options) {
  const TargetDescription &target = getTargetDescription(vendor);
  TargetChoice choice = target.choose(options);

  // Kernels that a producer targeted at the other vendor (or brought
  // compiled for it) are refused before anything is lowered.
  VerifyKernelTargetsOptions targetOptions;
  targetOptions.vendor = target.optionName().str();
  pm.addPass(createVerifyKernelTargets(targetOptions));

  // Streams: every GPU op of every program on the caller's stream (the
  // stream pass is idempotent, so inputs may or may not have run it).
  pm.addPass(createExpandLibraryNodes());
  AddExternalGpuStreamOptions streamOptions;
  streamOptions.concurrentStreams = options.concurrentStreams;
  streamOptions.serializeAsync = options.serializeAsync;
  streamOptions.testOmitStreamWaits = options.testOmitStreamWaits;
  pm.addPass(createAddExternalGpuStream(streamOptions));
  InsertHostSyncsOptions syncOptions;
  syncOptions.testOmitSyncs = options.testOmitHostSyncs;
  pm.addPass(createInsertHostSyncs(syncOptions));
  if (options.syncCall)
    pm.addPass(createMakeSyncCall());
  if (options.checkDevices)
    pm.addPass(createCheckArgumentDevices());
  if (options.timers)
    pm.addPass(createInstrumentTimers());
  // Folding only, while kernels are still gpu.launch bodies: a
  // gpu.all_reduce directly in a launch body is uniform then (its folder
  // says so), which is the only form the kernel lowerings take. Upstream's
  // pipeline gets this fold from its first pass, convert-nvgpu-to-nvvm.
  GreedyRewriteConfig foldOnly;
  foldOnly.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  pm.addPass(createCanonicalizerPass(foldOnly, /*disabledPatterns=*/{},
                                     /*enabledPatterns=*/{"fold-only"}));
  pm.addPass(createGpuKernelOutliningPass());
  ConvertSDFGToFuncOptions funcOptions;
  funcOptions.graphMode = options.graphMode;
  funcOptions.testOmitGraphModeChecks = options.testOmitGraphModeChecks;
  pm.addPass(createConvertSDFGToFunc(funcOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Vendor dialects used on the host as well as in kernels (nvgpu's TMA
  // descriptors), then structured code to branches and plain arithmetic,
  // host and kernels: vector transfers to loops first, as upstream does.
  // Views (subview, collapse/expand_shape, ...) become reinterpret_casts
  // whose dynamic offsets and sizes are affine.apply ops, so
  // expand-strided-metadata runs before lower-affine, as upstream's does.
  target.lowerVendorDialects(pm, choice);
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(arith::createArithExpandOpsPass());
  // A failed call leaves at once (branches: after the structured control
  // flow is gone).
  if (!options.testOmitFailureExits)
    pm.addPass(createInsertFailureExits());

  // Kernels, checked for leftovers while their locations are still there.
  target.attachTarget(pm, choice);
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  target.lowerKernels(kernels, choice, options);
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  kernels.addPass(createVerifyFullyLowered());
  kernels.addPass(createStripDebugInfoPass());

  // Host code on the caller's stream, then the kernel binaries.
  pm.addPass(createConvertVectorToLLVMPass());
  ConvertSDFGToLLVMOptions hostOptions;
  hostOptions.hostBarePtrCallConv = options.hostBarePtrCallConv;
  hostOptions.kernelBarePtrCallConv = options.kernelBarePtrCallConv;
  pm.addPass(createRecordLocations());
  pm.addPass(createConvertSDFGToLLVM(hostOptions));
  target.buildBinaries(pm, choice, options);
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createVerifyStreamDiscipline());
  pm.addPass(createVerifyFullyLowered());
}

/// Registers the pipeline of `target`, whose options are checked before it
/// is built, so that a bad option is an error (and a non-zero exit) rather
/// than a pipeline that fails later or not at all.
static void registerPipeline(const TargetDescription &target) {
  GpuVendor vendor = target.vendor();
  registerPassPipeline(
      target.pipelineName(), target.pipelineDescription(),
      [vendor](OpPassManager &pm, StringRef text,
               function_ref<LogicalResult(const Twine &)> errorHandler) {
        LowerToGpuPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::string error;
        if (failed(verifyLowerToGpuPipelineOptions(vendor, options, error)))
          return errorHandler(error);
        buildLowerToGpuPipeline(pm, vendor, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> printOptions) {
        printOptions(LowerToGpuPipelineOptions());
      });
}

void mlir::sdfg::registerLowerToGpuPipelines() {
  for (const TargetDescription *target : getTargetDescriptions())
    registerPipeline(*target);
  registerSDFGStreamPipelinesPasses();
}
