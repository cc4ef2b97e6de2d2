//===- Pipelines.cpp - sdfg-lower-to-cuda and sdfg-lower-to-rocm ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// One lowering for both vendors. What differs is a small target description:
// how to attach the kernel target and which kernel dialect to lower to.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {
/// What a vendor adds to the shared pipeline.
struct GpuTargetDescription {
  StringRef defaultChip;
  StringRef defaultFormat;
  /// Attaches the kernel compilation target to every gpu.module.
  void (*attachTarget)(OpPassManager &pm, StringRef chip, unsigned optLevel);
  /// Lowers the kernels of a gpu.module to the vendor's LLVM dialect.
  void (*lowerKernels)(OpPassManager &kernelPm, StringRef chip);
};
} // namespace

static const GpuTargetDescription &getTargetDescription(GpuVendor vendor) {
  static const GpuTargetDescription cuda = {
      "sm_90", "fatbin",
      [](OpPassManager &pm, StringRef chip, unsigned optLevel) {
        GpuNVVMAttachTargetOptions options;
        options.chip = chip.str();
        options.optLevel = optLevel;
        pm.addPass(createGpuNVVMAttachTarget(options));
      },
      [](OpPassManager &kernelPm, StringRef) {
        kernelPm.addPass(createConvertGpuOpsToNVVMOps());
      }};
  static const GpuTargetDescription rocm = {
      "gfx90a", "bin",
      [](OpPassManager &pm, StringRef chip, unsigned optLevel) {
        GpuROCDLAttachTargetOptions options;
        options.chip = chip.str();
        options.optLevel = optLevel;
        pm.addPass(createGpuROCDLAttachTarget(options));
      },
      [](OpPassManager &kernelPm, StringRef chip) {
        ConvertGpuOpsToROCDLOpsOptions options;
        options.chipset = chip.str();
        options.runtime = gpu::amd::Runtime::HIP;
        kernelPm.addPass(createConvertGpuOpsToROCDLOps(options));
      }};
  return vendor == GpuVendor::CUDA ? cuda : rocm;
}

void mlir::sdfg::buildLowerToGpuPipeline(
    OpPassManager &pm, GpuVendor vendor,
    const LowerToGpuPipelineOptions &options) {
  const GpuTargetDescription &target = getTargetDescription(vendor);
  std::string chip = options.chip.empty() ? target.defaultChip.str()
                                          : options.chip.getValue();
  std::string format = options.format.empty() ? target.defaultFormat.str()
                                              : options.format.getValue();

  // Streams: every GPU op of every program on the caller's stream (the
  // stream pass is idempotent, so inputs may or may not have run it).
  pm.addPass(createExpandLibraryNodes());
  pm.addPass(createAddExternalGpuStream());
  InsertHostSyncsOptions syncOptions;
  syncOptions.testOmitSyncs = options.testOmitHostSyncs;
  pm.addPass(createInsertHostSyncs(syncOptions));
  if (options.syncCall)
    pm.addPass(createMakeSyncCall());
  if (options.checkDevices)
    pm.addPass(createCheckArgumentDevices());
  if (options.timers)
    pm.addPass(createInstrumentTimers());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertSDFGToFunc());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Structured code to branches and plain arithmetic, host and kernels.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());

  // Kernels.
  target.attachTarget(pm, chip, options.optLevel);
  target.lowerKernels(pm.nest<gpu::GPUModuleOp>(), chip);
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // Host code on the caller's stream, then the kernel binaries.
  pm.addPass(createConvertSDFGToLLVM());
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = format;
  binaryOptions.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createVerifyStreamDiscipline());
}

void mlir::sdfg::registerLowerToGpuPipelines() {
  PassPipelineRegistration<LowerToGpuPipelineOptions>(
      "sdfg-lower-to-cuda",
      "Lower SDFGStream programs to LLVM + CUDA kernels, every GPU operation "
      "on the caller's stream",
      [](OpPassManager &pm, const LowerToGpuPipelineOptions &options) {
        buildLowerToGpuPipeline(pm, GpuVendor::CUDA, options);
      });
  PassPipelineRegistration<LowerToGpuPipelineOptions>(
      "sdfg-lower-to-rocm",
      "Lower SDFGStream programs to LLVM + ROCm/HIP kernels, every GPU "
      "operation on the caller's stream",
      [](OpPassManager &pm, const LowerToGpuPipelineOptions &options) {
        buildLowerToGpuPipeline(pm, GpuVendor::ROCm, options);
      });
}
