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
// lowering starts. Which targets are a vendor's is its target description's
// to say (TargetDescription::ownsKernelTarget).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Pipelines/Passes.h"

#include "TargetDescription.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_VERIFYKERNELTARGETS
#include "SDFGStream/Pipelines/Passes.h.inc"
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
} // namespace

/// What to suggest for a foreign target: the pipeline of the vendor that
/// owns it, nothing where no vendor's description does (SPIR-V, XeVM).
static std::string suggestion(Attribute target) {
  for (const TargetDescription *other : getTargetDescriptions())
    if (other->ownsKernelTarget(target))
      return "; lower it with " + other->pipelineName() +
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
  const TargetDescription *expected = lookupTargetDescription(vendor);
  if (!expected) {
    std::string known;
    for (const TargetDescription *target : getTargetDescriptions())
      known += (known.empty() ? "" : " or ") + target->optionName().str();
    getOperation().emitError() << "sdfg-verify-kernel-targets: vendor must be "
                               << known << ", not '" << vendor << "'";
    return signalPassFailure();
  }
  bool failed = false;
  getOperation().walk([&](Operation *op) {
    if (auto module = dyn_cast<gpu::GPUModuleOp>(op)) {
      ArrayAttr targets = module.getTargetsAttr();
      for (Attribute target : targets ? targets.getValue()
                                      : ArrayRef<Attribute>()) {
        if (expected->ownsKernelTarget(target))
          continue;
        failed = true;
        module.emitOpError()
            << "has the target " << target << ", which the " << expected->name()
            << " lowering (" << expected->pipelineName()
            << ") cannot build: it builds " << expected->kernelTargetName()
            << " only" << suggestion(target);
      }
      return WalkResult::skip();
    }
    if (auto binary = dyn_cast<gpu::BinaryOp>(op)) {
      gpu::ObjectAttr object = selectedObject(binary);
      if (object && !expected->ownsKernelTarget(object.getTarget())) {
        failed = true;
        binary.emitOpError()
            << "embeds an object built for " << object.getTarget()
            << ", which the " << expected->name()
            << " runtime cannot load: it loads objects of "
            << expected->kernelTargetName() << " only";
      }
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  if (failed)
    signalPassFailure();
}
