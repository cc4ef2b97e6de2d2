//===- TargetDescription.cpp - Checks shared by the GPU vendors -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A chip the LLVM backend does not know would otherwise pass every MLIR pass
// and abort in instruction selection (LLVM ERROR: Cannot select); a format
// gpu-module-to-binary does not know makes it report an error and still
// succeed. Both are refused here, before the pipeline is built.
//
//===----------------------------------------------------------------------===//

#include "TargetDescription.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

using namespace mlir;
using namespace mlir::sdfg;

TargetChoice
TargetDescription::choose(const LowerToGpuPipelineOptions &options) const {
  TargetChoice choice;
  choice.chip =
      options.chip.empty() ? defaultChip().str() : options.chip.getValue();
  choice.format =
      options.format.empty() ? defaultFormat().str() : options.format.getValue();
  choice.features = options.features;
  choice.toolkit = options.toolkit;
  choice.optLevel = options.optLevel;
  return choice;
}

void TargetDescription::buildBinaries(
    OpPassManager &pm, const TargetChoice &choice,
    const LowerToGpuPipelineOptions &options) const {
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = choice.format;
  binaryOptions.toolkitPath = choice.toolkit;
  binaryOptions.cmdOptions = options.compilerOptions;
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
}

/// Whether the LLVM backend of `triple` knows processor `chip`; the
/// processors it knows are listed in `known` otherwise.
static bool isKnownChip(llvm::StringRef tripleName, llvm::StringRef chip,
                        std::string &known) {
  static bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(tripleName);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    known = "(LLVM has no " + tripleName.str() + " backend: " + error + ")";
    return false;
  }
  // Created for the generic processor, so that asking about `chip` prints
  // no warning of its own.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  if (info && info->isCPUStringValid(chip))
    return true;
  SmallVector<std::string> names;
  if (info)
    for (const llvm::SubtargetSubTypeKV &kv : info->getAllProcessorDescriptions())
      names.push_back(kv.Key);
  known = llvm::join(names, ", ");
  return false;
}

LogicalResult
TargetDescription::verifyOptions(const LowerToGpuPipelineOptions &options,
                                 std::string &error) const {
  TargetChoice choice = choose(options);
  if (!llvm::is_contained(formats(), choice.format)) {
    error = "sdfg-lower-to-" + name().lower() + ": unknown format '" +
            choice.format + "' (expected one of: " +
            llvm::join(formats(), ", ") + ")";
    return failure();
  }
  if (choice.optLevel > 3) {
    error = "sdfg-lower-to-" + name().lower() + ": opt-level must be 0 to 3, "
            "not " + std::to_string(choice.optLevel);
    return failure();
  }
  std::string known;
  if (!isKnownChip(triple(), choice.chip, known)) {
    error = "sdfg-lower-to-" + name().lower() + ": unknown chip '" +
            choice.chip + "' for " + triple().str() + " (known: " + known +
            ")";
    return failure();
  }
  if (!options.toolkit.empty() &&
      !llvm::sys::fs::is_directory(options.toolkit.getValue())) {
    error = "sdfg-lower-to-" + name().lower() + ": toolkit '" +
            options.toolkit.getValue() + "' is not a directory";
    return failure();
  }
  return verifyToolkit(choice, error);
}

const TargetDescription &mlir::sdfg::getTargetDescription(GpuVendor vendor) {
  return vendor == GpuVendor::CUDA ? getCudaTargetDescription()
                                   : getRocmTargetDescription();
}
