//===- TargetDescription.h - What a GPU vendor adds to the lowering -*- C++
//-*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The lowering pipeline is shared; a vendor describes only its defaults,
// how its options are checked, where its toolkit is, which passes lower
// its dialects and kernels, and which kernel targets are its own
// (CUDA/CudaTarget.cpp, ROCm/RocmTarget.cpp); the vendors are listed once,
// in SDFGSTREAM_GPU_TARGETS (Targets.def). Private to lib/Pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_PIPELINES_TARGETDESCRIPTION_H
#define SDFGSTREAM_LIB_PIPELINES_TARGETDESCRIPTION_H

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Pipelines/Pipelines.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
namespace sdfg {

/// The options with the vendor's defaults filled in.
struct TargetChoice {
  std::string chip, features, format, toolkit;
  unsigned optLevel;
};

class TargetDescription {
public:
  virtual ~TargetDescription() = default;

  /// The vendor this describes (the public API's name for it).
  virtual GpuVendor vendor() const = 0;
  /// The vendor's Targets.def name ("CUDA", "ROCm"), for messages.
  llvm::StringRef name() const;
  /// The vendor as options name it ("cuda", "rocm", from Targets.def): its
  /// pipeline is sdfg-lower-to-<this>, sdfg-verify-kernel-targets'
  /// vendor=<this>.
  llvm::StringRef optionName() const;
  /// The registered pipeline's description.
  virtual llvm::StringRef pipelineDescription() const = 0;
  /// How the vendor's kernel targets are written, for messages
  /// ("#nvvm.target").
  virtual llvm::StringRef kernelTargetName() const = 0;
  /// Whether `target`, a gpu.module target or a gpu.object's, is the
  /// vendor's: what its lowering can build and its runtime load.
  virtual bool ownsKernelTarget(Attribute target) const = 0;
  /// sdfg-lower-to-<optionName>.
  std::string pipelineName() const {
    return ("sdfg-lower-to-" + optionName()).str();
  }
  /// The LLVM target triple of the kernels.
  virtual llvm::StringRef triple() const = 0;
  virtual llvm::StringRef defaultChip() const = 0;
  virtual llvm::StringRef defaultFormat() const = 0;
  /// The binary formats gpu-module-to-binary can produce for the vendor.
  virtual llvm::ArrayRef<llvm::StringRef> formats() const = 0;

  /// The options with defaults filled in (the toolkit found where it was
  /// not given).
  virtual TargetChoice choose(const LowerToGpuPipelineOptions &options) const;

  /// Fails, with the reason in `error`, for options that cannot work: an
  /// unknown format or chip, an optimization level above 3, a toolkit that
  /// does not exist or lacks what the format needs.
  LogicalResult verifyOptions(const LowerToGpuPipelineOptions &options,
                              std::string &error) const;

  /// Lowers vendor dialect ops that also appear in host code.
  virtual void lowerVendorDialects(OpPassManager &pm,
                                   const TargetChoice &choice) const = 0;
  /// Attaches the kernel compilation target to every gpu.module.
  virtual void attachTarget(OpPassManager &pm,
                            const TargetChoice &choice) const = 0;
  /// Lowers the kernels of a gpu.module to the vendor's LLVM dialect.
  virtual void lowerKernels(OpPassManager &kernelPm, const TargetChoice &choice,
                            const LowerToGpuPipelineOptions &options) const = 0;
  /// Serializes the kernels (gpu-module-to-binary and what the vendor's
  /// format needs after it).
  virtual void buildBinaries(OpPassManager &pm, const TargetChoice &choice,
                             const LowerToGpuPipelineOptions &options) const;

protected:
  /// Vendor checks beyond the shared ones (the toolkit's contents).
  virtual LogicalResult verifyToolkit(const TargetChoice &choice,
                                      std::string &error) const = 0;
};

/// Every vendor's description, in Targets.def's order: each vendor's target
/// file (CUDA/CudaTarget.cpp, ROCm/RocmTarget.cpp) defines
/// get<Vendor>TargetDescription() for its entry of SDFGSTREAM_GPU_TARGETS
/// (cmake/modules/SDFGStreamGpuTargets.cmake).
llvm::ArrayRef<const TargetDescription *> getTargetDescriptions();

const TargetDescription &getTargetDescription(GpuVendor vendor);

/// The description whose optionName() is `name`, or null.
const TargetDescription *lookupTargetDescription(llvm::StringRef name);

/// get<Vendor>TargetDescription(): each vendor's, in its target file.
#define SDFGSTREAM_GPU_TARGET(Vendor, Option, Runtime)                         \
  const TargetDescription &get##Vendor##TargetDescription();
#include "SDFGStream/Pipelines/Targets.def"

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_PIPELINES_TARGETDESCRIPTION_H
