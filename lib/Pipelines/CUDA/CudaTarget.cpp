//===- CudaTarget.cpp - The CUDA part of the lowering pipeline ------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What gpu-lower-to-nvvm-pipeline runs that is CUDA's: nvgpu-to-nvvm on the
// whole module (nvgpu ops in kernels, TMA descriptors on the host),
// nvvm-attach-target, gpu-to-nvvm, math-to-llvm (the math ops that are LLVM
// intrinsics) and nvvm-to-llvm (NVVM ops that are inline PTX) in the
// kernels.
//
//===----------------------------------------------------------------------===//

#include "../TargetDescription.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {
class CudaTarget : public TargetDescription {
public:
  GpuVendor vendor() const override { return GpuVendor::CUDA; }
  StringRef pipelineDescription() const override {
    return "Lower SDFGStream programs to LLVM + CUDA kernels, every GPU "
           "operation on the caller's stream";
  }
  StringRef kernelTargetName() const override { return "#nvvm.target"; }
  bool ownsKernelTarget(Attribute target) const override {
    return isa<NVVM::NVVMTargetAttr>(target);
  }
  StringRef triple() const override { return "nvptx64-nvidia-cuda"; }
  StringRef defaultChip() const override { return "sm_90"; }
  StringRef defaultFormat() const override { return "fatbin"; }
  ArrayRef<StringRef> formats() const override {
    static const StringRef known[] = {"isa", "bin", "fatbin", "llvm"};
    return known;
  }

  void lowerVendorDialects(OpPassManager &pm,
                           const TargetChoice &) const override {
    pm.addPass(createConvertNVGPUToNVVMPass());
  }

  void attachTarget(OpPassManager &pm,
                    const TargetChoice &choice) const override {
    GpuNVVMAttachTargetOptions options;
    options.triple = triple().str();
    options.chip = choice.chip;
    options.features = choice.features;
    options.optLevel = choice.optLevel;
    // gpu-to-nvvm lowers float math (exp, log, pow, ...) to libdevice calls
    // (__nv_exp): the kernels link the toolkit's libdevice, or ptxas fails
    // on the unresolved functions.
    if (std::optional<std::string> libdevice = findLibdevice(choice.toolkit))
      options.linkLibs.push_back(*libdevice);
    pm.addPass(createGpuNVVMAttachTarget(options));
  }

  void lowerKernels(OpPassManager &kernelPm, const TargetChoice &choice,
                    const LowerToGpuPipelineOptions &options) const override {
    ConvertGpuOpsToNVVMOpsOptions gpuOptions;
    gpuOptions.useBarePtrCallConv = options.kernelBarePtrCallConv;
    // A uniform 32-bit integer gpu.subgroup_reduce is one redux.sync from
    // sm_80 on; upstream leaves it unconverted unless told the chip has it.
    gpuOptions.hasRedux = hasRedux(choice.chip);
    kernelPm.addPass(createConvertGpuOpsToNVVMOps(gpuOptions));
    // gpu-to-nvvm lowers float math to libdevice calls and leaves the math
    // ops that are LLVM intrinsics (ctlz, cttz, ctpop, ...) to others;
    // upstream's pipeline converts them only by accident, in its host pass
    // gpu-to-llvm. Here they are the kernels' own step, as gpu-to-rocdl
    // does it for ROCm.
    kernelPm.addPass(createConvertMathToLLVMPass());
    kernelPm.addPass(createConvertNVVMToLLVMPass());
  }

private:
  /// libdevice of the toolkit: `toolkit`, else the one whose ptxas is on
  /// PATH, else /usr/local/cuda.
  static std::optional<std::string> findLibdevice(StringRef toolkit) {
    SmallVector<std::string> roots;
    if (!toolkit.empty())
      roots.push_back(toolkit.str());
    if (llvm::ErrorOr<std::string> ptxas =
            llvm::sys::findProgramByName("ptxas"))
      roots.push_back(llvm::sys::path::parent_path(
                          llvm::sys::path::parent_path(*ptxas))
                          .str());
    roots.push_back("/usr/local/cuda");
    for (const std::string &root : roots) {
      SmallString<128> path(root);
      llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
      if (llvm::sys::fs::exists(path))
        return std::string(path);
    }
    return std::nullopt;
  }

  /// Whether `chip` (sm_NN, sm_NNa, ...) has redux.sync: sm_80 and later.
  static bool hasRedux(StringRef chip) {
    unsigned version = 0;
    return chip.consume_front("sm_") &&
           !chip.take_while(llvm::isDigit).getAsInteger(10, version) &&
           version >= 80;
  }

protected:
  /// cubin and fatbin need ptxas (and fatbinary) of a CUDA toolkit; PTX
  /// and LLVM IR need nothing.
  LogicalResult verifyToolkit(const TargetChoice &choice,
                              std::string &error) const override {
    if (choice.toolkit.empty() || (choice.format != "bin" &&
                                   choice.format != "fatbin"))
      return success();
    SmallString<128> ptxas(choice.toolkit);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(ptxas))
      return success();
    error = "sdfg-lower-to-cuda: format=" + choice.format + " needs ptxas, "
            "which toolkit '" + choice.toolkit + "' lacks (" +
            ptxas.str().str() + ")";
    return failure();
  }
};
} // namespace

const TargetDescription &mlir::sdfg::getCUDATargetDescription() {
  static const CudaTarget target;
  return target;
}
