//===- VerifyFullyLowered.cpp - Fail on ops a lowering left behind --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A partial conversion leaves what it cannot convert in place and succeeds;
// without this check such an op (a host vector.transfer_read, an
// async.execute, a cast between a converted and an unconverted value)
// surfaces only in mlir-translate, far from its source. Here it is an error
// at the op, naming it, so sdfg-opt exits non-zero.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include <optional>

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_VERIFYFULLYLOWERED
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct VerifyFullyLowered
    : public sdfg::impl::VerifyFullyLoweredBase<VerifyFullyLowered> {
  using VerifyFullyLoweredBase::VerifyFullyLoweredBase;
  void runOnOperation() override;
};
} // namespace

/// The vendor dialects a kernel module may use: those of its targets (a
/// module compiled for ROCDL cannot run NVVM intrinsics, and the ROCDL
/// backend would crash on them), both when it has none yet.
struct KernelDialects {
  bool nvvm = true, rocdl = true;
};

static KernelDialects kernelDialects(gpu::GPUModuleOp module) {
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets || targets.empty())
    return {};
  KernelDialects allowed{false, false};
  for (Attribute target : targets) {
    allowed.nvvm |= isa<NVVM::NVVMTargetAttr>(target);
    allowed.rocdl |= isa<ROCDL::ROCDLTargetAttr>(target);
  }
  return allowed;
}

static bool isLoweredKernelOp(Operation *op, KernelDialects allowed) {
  Dialect *dialect = op->getDialect();
  return isa<gpu::GPUModuleOp>(op) || isa<LLVM::LLVMDialect>(dialect) ||
         (allowed.nvvm && isa<NVVM::NVVMDialect>(dialect)) ||
         (allowed.rocdl && isa<ROCDL::ROCDLDialect>(dialect));
}

/// The first attribute of `op` that belongs to a vendor dialect the kernel
/// module is not compiled for (`nvvm.kernel` on a function of a module
/// compiled for ROCDL gives it a calling convention the AMDGPU backend
/// aborts on), if any.
static std::optional<NamedAttribute> foreignVendorAttr(Operation *op,
                                                       KernelDialects allowed) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    Dialect *dialect = attr.getNameDialect();
    if ((!allowed.nvvm && isa_and_nonnull<NVVM::NVVMDialect>(dialect)) ||
        (!allowed.rocdl && isa_and_nonnull<ROCDL::ROCDLDialect>(dialect)))
      return attr;
  }
  return std::nullopt;
}

static bool isLoweredHostOp(Operation *op) {
  return isa<ModuleOp, gpu::GPUModuleOp, gpu::BinaryOp, gpu::LaunchFuncOp>(
             op) ||
         isa<LLVM::LLVMDialect>(op->getDialect());
}

/// The kernel module `op` is in (or is), if any.
static gpu::GPUModuleOp kernelModuleOf(Operation *op) {
  if (auto module = dyn_cast<gpu::GPUModuleOp>(op))
    return module;
  return op->getParentOfType<gpu::GPUModuleOp>();
}

void VerifyFullyLowered::runOnOperation() {
  SmallVector<Operation *> leftovers, casts;
  getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    gpu::GPUModuleOp kernels = kernelModuleOf(op);
    if (kernels ? isLoweredKernelOp(op, kernelDialects(kernels))
                : isLoweredHostOp(op))
      return WalkResult::advance();
    (isa<UnrealizedConversionCastOp>(op) ? casts : leftovers).push_back(op);
    // What is inside an unconverted op is that op's problem.
    return WalkResult::skip();
  });
  // Vendor attributes of the other vendor on lowered kernel ops.
  bool foreign = false;
  getOperation()->walk([&](gpu::GPUModuleOp kernels) {
    KernelDialects allowed = kernelDialects(kernels);
    kernels.walk([&](Operation *op) {
      std::optional<NamedAttribute> attr = foreignVendorAttr(op, allowed);
      if (!attr)
        return;
      foreign = true;
      op->emitOpError() << "has the " << (allowed.nvvm ? "ROCDL" : "NVVM")
                        << " attribute '" << attr->getName().getValue()
                        << "' in a kernel module compiled for "
                        << (allowed.nvvm ? "NVVM" : "ROCDL")
                        << "; it means nothing there (and the backend may "
                           "abort on it)";
    });
  });
  for (Operation *op : leftovers.empty() ? casts : leftovers) {
    gpu::GPUModuleOp kernels = kernelModuleOf(op);
    if (!kernels) {
      op->emitOpError() << "was not lowered to the LLVM dialect (host code)";
      continue;
    }
    KernelDialects allowed = kernelDialects(kernels);
    if (isa<NVVM::NVVMDialect>(op->getDialect()))
      op->emitOpError() << "is an NVVM operation in a kernel compiled for "
                           "ROCDL; it has no AMD GPU equivalent";
    else if (isa<ROCDL::ROCDLDialect>(op->getDialect()))
      op->emitOpError() << "is a ROCDL operation in a kernel compiled for "
                           "NVVM; it has no NVIDIA GPU equivalent";
    else
      op->emitOpError() << "was not lowered to the LLVM"
                        << (allowed.nvvm ? ", NVVM" : "")
                        << (allowed.rocdl ? ", ROCDL" : "")
                        << " dialect (kernel code)";
  }
  if (!leftovers.empty() || !casts.empty() || foreign)
    signalPassFailure();
}
