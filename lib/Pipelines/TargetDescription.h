//===- TargetDescription.h - What a GPU vendor adds to the lowering -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The lowering pipeline is shared; a vendor describes only its defaults,
// how its options are checked, where its toolkit is, and which passes lower
// its dialects and kernels (CudaTarget.cpp, RocmTarget.cpp). Private to
// lib/Pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_CONVERSION_PIPELINES_TARGETDESCRIPTION_H
#define SDFGSTREAM_LIB_CONVERSION_PIPELINES_TARGETDESCRIPTION_H

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

  /// "CUDA" or "ROCm", for messages.
  virtual llvm::StringRef name() const = 0;
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

const TargetDescription &getTargetDescription(GpuVendor vendor);
const TargetDescription &getCudaTargetDescription();
const TargetDescription &getRocmTargetDescription();

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_CONVERSION_PIPELINES_TARGETDESCRIPTION_H
