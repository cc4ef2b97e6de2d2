//===- VerifyKernelTargets.cpp - Kernels targeted for another vendor ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// nvvm-attach-target and rocdl-attach-target append their target to a
// gpu.module's list; gpu-module-to-binary then serializes the module once
// per target. A module that a producer had already targeted at the other
// vendor is thus serialized for it too, from IR lowered for this one, and
// the backend aborts the process (LLVM ERROR: Cannot select, unsupported
// calling convention); a gpu.binary object of the other vendor fails only
// when the runtime loads it. Both are reported here, at the op, before the
// lowering starts.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_VERIFYKERNELTARGETS
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct VerifyKernelTargets
    : public sdfg::impl::VerifyKernelTargetsBase<VerifyKernelTargets> {
  using VerifyKernelTargetsBase::VerifyKernelTargetsBase;
  void runOnOperation() override;
};

/// What the lowering for one vendor can build and load.
struct Vendor {
  StringRef name, targetName, pipeline, otherPipeline;
  bool (*owns)(Attribute target);
};
} // namespace

static const Vendor kCuda = {
    "CUDA", "#nvvm.target", "sdfg-lower-to-cuda", "sdfg-lower-to-rocm",
    [](Attribute target) { return isa<NVVM::NVVMTargetAttr>(target); }};
static const Vendor kRocm = {
    "ROCm", "#rocdl.target", "sdfg-lower-to-rocm", "sdfg-lower-to-cuda",
    [](Attribute target) { return isa<ROCDL::ROCDLTargetAttr>(target); }};

/// What to suggest for a foreign target: the other pipeline where it is
/// the other vendor's, nothing where it is neither's (SPIR-V, XeVM).
static std::string suggestion(const Vendor &vendor, Attribute target) {
  const Vendor &other = &vendor == &kCuda ? kRocm : kCuda;
  if (other.owns(target))
    return "; lower it with " + vendor.otherPipeline.str() +
           " or leave the target out";
  return "; leave the target out";
}

/// The object of `binary` that its translation embeds (#gpu.select_object,
/// also the default: the first object, the one at an index, or the one of a
/// target); null where that is not known here (another offloading handler,
/// a target no object has: the translation reports that itself).
static gpu::ObjectAttr selectedObject(gpu::BinaryOp binary) {
  ArrayAttr objects = binary.getObjectsAttr();
  Attribute handler = binary.getOffloadingHandlerAttr();
  auto select = dyn_cast_or_null<gpu::SelectObjectAttr>(handler);
  if (handler && !select)
    return nullptr;
  Attribute which = select ? select.getTarget() : Attribute();
  if (!which)
    return objects.empty() ? nullptr
                           : dyn_cast<gpu::ObjectAttr>(objects[0]);
  if (auto index = dyn_cast<IntegerAttr>(which)) {
    int64_t i = index.getInt();
    return i >= 0 && i < static_cast<int64_t>(objects.size())
               ? dyn_cast<gpu::ObjectAttr>(objects[i])
               : nullptr;
  }
  for (Attribute object : objects)
    if (auto objectAttr = dyn_cast<gpu::ObjectAttr>(object);
        objectAttr && objectAttr.getTarget() == which)
      return objectAttr;
  return nullptr;
}

void VerifyKernelTargets::runOnOperation() {
  if (vendor != "cuda" && vendor != "rocm") {
    getOperation().emitError()
        << "sdfg-verify-kernel-targets: vendor must be cuda or rocm, not '"
        << vendor << "'";
    return signalPassFailure();
  }
  const Vendor &expected = vendor == "cuda" ? kCuda : kRocm;
  bool failed = false;
  getOperation().walk([&](Operation *op) {
    if (auto module = dyn_cast<gpu::GPUModuleOp>(op)) {
      ArrayAttr targets = module.getTargetsAttr();
      for (Attribute target : targets ? targets.getValue()
                                      : ArrayRef<Attribute>()) {
        if (expected.owns(target))
          continue;
        failed = true;
        module.emitOpError()
            << "has the target " << target << ", which the "
            << expected.name << " lowering (" << expected.pipeline
            << ") cannot build: it builds " << expected.targetName
            << " only" << suggestion(expected, target);
      }
      return WalkResult::skip();
    }
    if (auto binary = dyn_cast<gpu::BinaryOp>(op)) {
      gpu::ObjectAttr object = selectedObject(binary);
      if (object && !expected.owns(object.getTarget())) {
        failed = true;
        binary.emitOpError()
            << "embeds an object built for " << object.getTarget()
            << ", which the " << expected.name
            << " runtime cannot load: it loads objects of "
            << expected.targetName << " only";
      }
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  if (failed)
    signalPassFailure();
}
