//===- TargetDescription.cpp - Checks shared by the GPU vendors -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A chip the LLVM backend does not know would otherwise pass every MLIR pass
// and abort in instruction selection (LLVM ERROR: Cannot select); a format
// gpu-module-to-binary does not know makes it report an error and still
// succeed; a target feature it does not know is only a warning of LLVM's
// ("not a recognized feature ... ignoring feature"). All are refused here,
// before the pipeline is built.
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

/// The subtarget description of the generic processor of `tripleName`
/// (created for it, so that asking about a chip or a feature prints no
/// warning of its own); null, with the reason in `error`, if LLVM has no
/// backend for it.
static std::unique_ptr<llvm::MCSubtargetInfo>
genericSubtarget(llvm::StringRef tripleName, std::string &error) {
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
  std::string reason;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, reason);
  if (!target) {
    error = "(LLVM has no " + tripleName.str() + " backend: " + reason + ")";
    return nullptr;
  }
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      target->createMCSubtargetInfo(triple, "", ""));
}

/// Whether the LLVM backend of `triple` knows processor `chip`; the
/// processors it knows are listed in `known` otherwise.
static bool isKnownChip(llvm::StringRef tripleName, llvm::StringRef chip,
                        std::string &known) {
  std::unique_ptr<llvm::MCSubtargetInfo> info =
      genericSubtarget(tripleName, known);
  if (info && info->isCPUStringValid(chip))
    return true;
  if (!info)
    return false;
  SmallVector<std::string> names;
  for (const llvm::SubtargetSubTypeKV &kv : info->getAllProcessorDescriptions())
    names.push_back(kv.Key);
  known = llvm::join(names, ", ");
  return false;
}

/// The first entry of the comma-separated `features` that is not `+name` or
/// `-name` of a feature the LLVM backend of `triple` knows (LLVM itself only
/// warns and ignores it); empty if all are. The known ones are listed in
/// `known` then.
static std::string unknownFeature(llvm::StringRef tripleName,
                                  llvm::StringRef features,
                                  std::string &known) {
  std::unique_ptr<llvm::MCSubtargetInfo> info =
      genericSubtarget(tripleName, known);
  if (!info)
    return features.str();
  SmallVector<llvm::StringRef> entries;
  features.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef entry : entries) {
    llvm::StringRef name = entry.trim();
    bool signed_ = name.consume_front("+") || name.consume_front("-");
    if (signed_ && llvm::any_of(info->getAllProcessorFeatures(),
                                [&](const llvm::SubtargetFeatureKV &kv) {
                                  return name == kv.Key;
                                }))
      continue;
    SmallVector<std::string> names;
    for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures())
      names.push_back(kv.Key);
    known = llvm::join(names, ", ");
    return entry.trim().str();
  }
  return "";
}

LogicalResult
TargetDescription::verifyOptions(const LowerToGpuPipelineOptions &options,
                                 std::string &error) const {
  TargetChoice choice = choose(options);
  if (!llvm::is_contained(formats(), choice.format)) {
    error = pipelineName() + ": unknown format '" + choice.format +
            "' (expected one of: " + llvm::join(formats(), ", ") + ")";
    return failure();
  }
  if (choice.optLevel > 3) {
    error = pipelineName() +
            ": opt-level must be 0 to 3, "
            "not " +
            std::to_string(choice.optLevel);
    return failure();
  }
  std::string known;
  if (!isKnownChip(triple(), choice.chip, known)) {
    error = pipelineName() + ": unknown chip '" + choice.chip + "' for " +
            triple().str() + " (known: " + known + ")";
    return failure();
  }
  std::string feature = unknownFeature(triple(), choice.features, known);
  if (!feature.empty()) {
    error = pipelineName() + ": unknown target feature '" + feature + "' for " +
            triple().str() +
            " (expected +name or -name, name one of: " + known + ")";
    return failure();
  }
  if (!options.toolkit.empty() &&
      !llvm::sys::fs::is_directory(options.toolkit.getValue())) {
    error = pipelineName() + ": toolkit '" + options.toolkit.getValue() +
            "' is not a directory";
    return failure();
  }
  return verifyToolkit(choice, error);
}

ArrayRef<const TargetDescription *> mlir::sdfg::getTargetDescriptions() {
  static const TargetDescription *const descriptions[] = {
#define SDFGSTREAM_GPU_TARGET(Vendor, Option, Runtime)                         \
  &get##Vendor##TargetDescription(),
#include "SDFGStream/Pipelines/Targets.def"
  };
  return descriptions;
}

ArrayRef<GpuVendor> mlir::sdfg::getGpuVendors() {
  static const GpuVendor vendors[] = {
#define SDFGSTREAM_GPU_TARGET(Vendor, Option, Runtime) GpuVendor::Vendor,
#include "SDFGStream/Pipelines/Targets.def"
  };
  return vendors;
}

StringRef mlir::sdfg::getGpuVendorOptionName(GpuVendor vendor) {
  switch (vendor) {
#define SDFGSTREAM_GPU_TARGET(Vendor, Option, Runtime)                         \
  case GpuVendor::Vendor:                                                      \
    return Option;
#include "SDFGStream/Pipelines/Targets.def"
  }
  llvm_unreachable("a GpuVendor outside Targets.def");
}

StringRef TargetDescription::name() const {
  switch (vendor()) {
#define SDFGSTREAM_GPU_TARGET(Vendor, Option, Runtime)                         \
  case GpuVendor::Vendor:                                                      \
    return #Vendor;
#include "SDFGStream/Pipelines/Targets.def"
  }
  llvm_unreachable("a GpuVendor outside Targets.def");
}

StringRef TargetDescription::optionName() const {
  return getGpuVendorOptionName(vendor());
}

const TargetDescription &mlir::sdfg::getTargetDescription(GpuVendor vendor) {
  const TargetDescription *target =
      getTargetDescriptions()[static_cast<size_t>(vendor)];
  assert(target->vendor() == vendor &&
         "a target file's vendor() is not its Targets.def entry");
  return *target;
}

const TargetDescription *mlir::sdfg::lookupTargetDescription(StringRef name) {
  for (const TargetDescription *target : getTargetDescriptions())
    if (target->optionName() == name)
      return target;
  return nullptr;
}
