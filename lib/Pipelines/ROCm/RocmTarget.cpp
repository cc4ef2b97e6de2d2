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

#include "../TargetDescription.h"

#include "SDFGStream/Pipelines/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
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

/// The LLVM tool `name` (ld.lld, llvm-mc) for code objects: the toolkit's,
/// where gpu-module-to-binary would look, else that of the LLVM that MLIR
/// comes from, else the first in PATH; empty if none.
static std::string findLlvmTool(StringRef toolkit, StringRef name) {
  SmallString<128> inToolkit(toolkit);
  llvm::sys::path::append(inToolkit, "llvm", "bin", name);
  SmallString<128> inLlvm(SDFGSTREAM_LLVM_TOOLS_DIR);
  llvm::sys::path::append(inLlvm, name);
  if (!toolkit.empty() && llvm::sys::fs::can_execute(inToolkit))
    return inToolkit.str().str();
  if (llvm::sys::fs::can_execute(inLlvm))
    return inLlvm.str().str();
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(name))
    return *found;
  return "";
}

/// Whether gpu-module-to-binary can make code objects itself (it runs
/// <toolkit>/llvm/bin/ld.lld and nothing else).
static bool toolkitHasLinker(StringRef toolkit) {
  SmallString<128> lld(toolkit);
  llvm::sys::path::append(lld, "llvm", "bin", "ld.lld");
  return !toolkit.empty() && llvm::sys::fs::can_execute(lld);
}

static bool hasDeviceLibraries(StringRef toolkit) {
  SmallString<128> bitcode(toolkit);
  llvm::sys::path::append(bitcode, "amdgcn", "bitcode");
  return llvm::sys::fs::is_directory(bitcode);
}

namespace {
class RocmTarget : public TargetDescription {
public:
  GpuVendor vendor() const override { return GpuVendor::ROCm; }
  StringRef pipelineDescription() const override {
    return "Lower SDFGStream programs to LLVM + ROCm/HIP kernels, every GPU "
           "operation on the caller's stream";
  }
  StringRef kernelTargetName() const override { return "#rocdl.target"; }
  bool ownsKernelTarget(Attribute target) const override {
    return isa<ROCDL::ROCDLTargetAttr>(target);
  }
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
    // Before convert-gpu-to-rocdl, whose cf.assert lowering is the host's.
    kernelPm.addPass(createConvertKernelAssertsToTraps());
    ConvertGpuOpsToROCDLOpsOptions gpuOptions;
    gpuOptions.chipset = choice.chip;
    gpuOptions.runtime = gpu::amd::Runtime::HIP;
    gpuOptions.useBarePtrCallConv = options.kernelBarePtrCallConv;
    kernelPm.addPass(createConvertGpuOpsToROCDLOps(gpuOptions));
  }

  /// A code object is made from the assembly by sdfg-assemble-amdgpu-kernels
  /// where the toolkit has no linker of its own (Debian).
  void buildBinaries(OpPassManager &pm, const TargetChoice &choice,
                     const LowerToGpuPipelineOptions &options) const override {
    if (choice.format != "bin" || toolkitHasLinker(choice.toolkit))
      return TargetDescription::buildBinaries(pm, choice, options);
    TargetChoice assembly = choice;
    assembly.format = "isa";
    TargetDescription::buildBinaries(pm, assembly, options);
    AssembleAmdgpuKernelsOptions tools;
    tools.llvmMc = findLlvmTool(choice.toolkit, "llvm-mc");
    tools.ldLld = findLlvmTool(choice.toolkit, "ld.lld");
    pm.addPass(createAssembleAmdgpuKernels(tools));
  }

protected:
  /// Kernels link the device libraries (ocml, ockl, ...), whatever the
  /// format; code objects need ld.lld and llvm-mc.
  LogicalResult verifyToolkit(const TargetChoice &choice,
                              std::string &error) const override {
    if (choice.format == "bin" && !toolkitHasLinker(choice.toolkit))
      for (StringRef tool : {"ld.lld", "llvm-mc"})
        if (findLlvmTool(choice.toolkit, tool).empty()) {
          error = "sdfg-lower-to-rocm: format=bin needs " + tool.str() +
                  ", which is neither in the toolkit (llvm/bin), nor in " +
                  SDFGSTREAM_LLVM_TOOLS_DIR + ", nor in PATH";
          return failure();
        }
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

const TargetDescription &mlir::sdfg::getROCmTargetDescription() {
  static const RocmTarget target;
  return target;
}
