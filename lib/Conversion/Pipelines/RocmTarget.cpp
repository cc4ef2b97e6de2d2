//===- RocmTarget.cpp - The ROCm part of the lowering pipeline ------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// rocdl-attach-target, amdgpu-to-rocdl and gpu-to-rocdl (HIP runtime) for
// the chip, and the ROCm device libraries: where no toolkit is given they
// are looked for where ROCm installs them (ROCM_PATH, /opt/rocm) and where
// Debian's rocm-device-libs does (/usr/lib/<multiarch>/amdgcn/bitcode), so
// default options work without a hand-made toolkit tree.
//
//===----------------------------------------------------------------------===//

#include "TargetDescription.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::sdfg;

/// Where the device libraries may be, in the order they are tried.
static SmallVector<std::string> toolkitCandidates() {
  SmallVector<std::string> candidates;
  for (const char *variable : {"ROCM_PATH", "ROCM_ROOT", "ROCM_HOME"})
    if (const char *value = std::getenv(variable))
      candidates.push_back(value);
  candidates.push_back("/opt/rocm");
  // Debian and Ubuntu: /usr/lib/<arch>-linux-gnu/amdgcn/bitcode.
  llvm::Triple host(llvm::sys::getProcessTriple());
  candidates.push_back(
      ("/usr/lib/" + host.getArchName() + "-linux-gnu").str());
  candidates.push_back("/usr");
  return candidates;
}

static bool hasDeviceLibraries(StringRef toolkit) {
  SmallString<128> bitcode(toolkit);
  llvm::sys::path::append(bitcode, "amdgcn", "bitcode");
  return llvm::sys::fs::is_directory(bitcode);
}

namespace {
class RocmTarget : public TargetDescription {
public:
  StringRef name() const override { return "ROCm"; }
  StringRef triple() const override { return "amdgcn-amd-amdhsa"; }
  StringRef defaultChip() const override { return "gfx90a"; }
  StringRef defaultFormat() const override { return "bin"; }
  ArrayRef<StringRef> formats() const override {
    static const StringRef known[] = {"isa", "bin", "llvm"};
    return known;
  }

  TargetChoice choose(const LowerToGpuPipelineOptions &options) const override {
    TargetChoice choice = TargetDescription::choose(options);
    if (choice.toolkit.empty())
      for (const std::string &candidate : toolkitCandidates())
        if (hasDeviceLibraries(candidate)) {
          choice.toolkit = candidate;
          break;
        }
    return choice;
  }

  void lowerVendorDialects(OpPassManager &, const TargetChoice &) const override {
  }

  void attachTarget(OpPassManager &pm,
                    const TargetChoice &choice) const override {
    GpuROCDLAttachTargetOptions options;
    options.triple = triple().str();
    options.chip = choice.chip;
    options.features = choice.features;
    options.optLevel = choice.optLevel;
    pm.addPass(createGpuROCDLAttachTarget(options));
  }

  void lowerKernels(OpPassManager &kernelPm, const TargetChoice &choice,
                    const LowerToGpuPipelineOptions &options) const override {
    ConvertAMDGPUToROCDLPassOptions amdgpuOptions;
    amdgpuOptions.chipset = choice.chip;
    kernelPm.addPass(createConvertAMDGPUToROCDLPass(amdgpuOptions));
    ConvertGpuOpsToROCDLOpsOptions gpuOptions;
    gpuOptions.chipset = choice.chip;
    gpuOptions.runtime = gpu::amd::Runtime::HIP;
    gpuOptions.useBarePtrCallConv = options.kernelBarePtrCallConv;
    kernelPm.addPass(createConvertGpuOpsToROCDLOps(gpuOptions));
  }

protected:
  /// Kernels link the device libraries (ocml, ockl, ...), whatever the
  /// format.
  LogicalResult verifyToolkit(const TargetChoice &choice,
                              std::string &error) const override {
    if (choice.format == "llvm" || hasDeviceLibraries(choice.toolkit))
      return success();
    if (!choice.toolkit.empty()) {
      error = "sdfg-lower-to-rocm: toolkit '" + choice.toolkit +
              "' has no ROCm device libraries (amdgcn/bitcode)";
      return failure();
    }
    std::string tried;
    for (const std::string &candidate : toolkitCandidates())
      tried += (tried.empty() ? "" : ", ") + candidate;
    error = "sdfg-lower-to-rocm: no ROCm device libraries (amdgcn/bitcode) "
            "in " + tried + "; install rocm-device-libs or pass toolkit=";
    return failure();
  }
};
} // namespace

const TargetDescription &mlir::sdfg::getRocmTargetDescription() {
  static const RocmTarget target;
  return target;
}
