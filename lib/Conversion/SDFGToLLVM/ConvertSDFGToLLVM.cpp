//===- ConvertSDFGToLLVM.cpp - Host code to LLVM on the caller's stream ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Upstream gpu-to-llvm passes an op's single async dependency to the runtime
// as the stream. sdfg-add-external-gpu-stream made that dependency the caller's
// stream, so this pass only has to make `!sdfg.stream` an `!llvm.ptr`, turn
// the stream ops into that pointer, and refuse everything that upstream
// would lower by inventing a stream.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Conversion/SDFGToLLVM/SDFGToLLVM.h"

#include "Patterns.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_CONVERTSDFGTOLLVM
#include "SDFGStream/Conversion/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct ConvertSDFGToLLVM
    : public sdfg::impl::ConvertSDFGToLLVMBase<ConvertSDFGToLLVM> {
  using ConvertSDFGToLLVMBase::ConvertSDFGToLLVMBase;
  void runOnOperation() override;
};
} // namespace

/// Checks that every GPU op on the host runs on a stream the way upstream's
/// patterns honour: async, with the stream token as its one dependency.
/// Upstream would lower anything else by creating a stream (or treating the
/// caller's stream as an event), so it is rejected here, with the reason.
static LogicalResult verifyOnStream(Operation *op) {
  if (isa<gpu::WaitOp>(op))
    return op->emitOpError()
           << "would synchronize or destroy a stream when lowered; run "
              "sdfg-add-external-gpu-stream first (it turns waits into "
              "sdfg.sync)";
  auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op);
  if (!asyncOp)
    return success();
  if (isa<gpu::LaunchOp>(op))
    return op->emitOpError() << "must be outlined (gpu-kernel-outlining) "
                                "before lowering";
  if (asyncOp.getAsyncDependencies().size() != 1 || !asyncOp.getAsyncToken())
    return op->emitOpError()
           << "is not on a stream (it needs exactly one async dependency, "
              "the stream, and an async token); run "
              "sdfg-add-external-gpu-stream first";
  if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
    for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands()))
      if (isa<UnrankedMemRefType>(operand.getType()))
        return op->emitOpError()
               << "passes an unranked memref (kernel operand #" << index
               << ") to a kernel: the kernel would read its descriptor from "
                  "the host's stack, after the asynchronous launch may have "
                  "returned (and from host memory at all only where the GPU "
                  "can address it); cast it to a ranked memref before the "
                  "launch";
  if (auto memset = dyn_cast<gpu::MemsetOp>(op)) {
    Type type = memset.getValue().getType();
    if (!isSettableElementType(type))
      return op->emitOpError() << "sets " << type
                               << " values; only integers, floats and "
                                  "indices of up to 64 bits can be set on a "
                                  "stream";
  }
  return success();
}

/// Upstream's func.call lowering copies a call's per-argument attributes
/// one to one, but a memref argument becomes several LLVM arguments (MLIR 22
/// then crashes printing or verifying the llvm.call). Call-site attributes
/// are hints the callee's own argument attributes repeat: drop them where
/// arguments or results are expanded.
static void dropCallSiteAttrsOfExpandedArguments(ModuleOp module) {
  module.walk([](CallOpInterface call) {
    auto isExpanded = [](Type type) {
      return isa<BaseMemRefType>(type);
    };
    if (llvm::any_of(call->getOperandTypes(), isExpanded) ||
        llvm::any_of(call->getResultTypes(), isExpanded)) {
      call.removeArgAttrsAttr();
      call.removeResAttrsAttr();
    }
  });
}

/// Gives each host function definition the linkage its symbol visibility
/// means, so that a program library exports its public programs and
/// nothing else. Upstream's func-to-llvm gives every function external
/// linkage, so private programs, library-node expansions
/// (`__sdfg_reduce_add_f32_gpu`) and helpers would be exported: two objects
/// with the same expansion would not link together, and a program named
/// like a libc function would be resolved to libc. Here:
///
/// * a private or nested definition gets internal linkage: each object has
///   its own copy, invisible to the linker;
/// * a public definition (a program and its `_mlir_ciface_` entry) is
///   `dso_local`: its definition in this object is the one its own calls
///   reach, as clang's -fno-semantic-interposition does. In position-
///   independent code LLVM then calls it through a local alias, so no other
///   library or executable can interpose it, while it stays exported.
///
/// Definitions that already have another linkage (weak, linkonce, ...) and
/// declarations (runtime entries, functions of other objects) are left as
/// they are; kernels in `gpu.module`s are not host functions.
static void sealHostFunctions(ModuleOp module) {
  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    if (function.isExternal() ||
        function.getLinkage() != LLVM::Linkage::External)
      continue;
    if (function.isPublic())
      function.setDsoLocal(true);
    else
      function.setLinkage(LLVM::Linkage::Internal);
  }
}

/// With the bare-pointer calling convention a memref argument or result is
/// one pointer, which only a memref of static shape, strides and offset can
/// be (upstream's func-to-llvm then leaves any other function unconverted,
/// and its calls refer to a function that is not there). Such a signature
/// is an error at the function, naming the argument.
static LogicalResult verifyBarePointerSignatures(ModuleOp module) {
  bool failed = false;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto function = dyn_cast<func::FuncOp>(op);
    if (!function)
      return WalkResult::advance();
    FunctionType type = function.getFunctionType();
    auto check = [&](Type valueType, StringRef what, unsigned index) {
      auto memref = dyn_cast<BaseMemRefType>(valueType);
      if (!memref || LLVMTypeConverter::canConvertToBarePtr(memref))
        return;
      failed = true;
      function.emitOpError()
          << what << " #" << index << " is " << valueType
          << ", which the bare-pointer calling convention "
             "(host-bare-ptr-calling-convention) cannot pass: it passes a "
             "memref as one pointer, which only a memref of static shape, "
             "strides and offset can be";
    };
    for (auto [index, input] : llvm::enumerate(type.getInputs()))
      check(input, "argument", index);
    for (auto [index, result] : llvm::enumerate(type.getResults()))
      check(result, "result", index);
    return WalkResult::skip();
  });
  return success(!failed);
}

void ConvertSDFGToLLVM::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();

  // Host GPU ops only; kernels are lowered separately.
  WalkResult checked = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    return failed(verifyOnStream(op)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
  });
  if (checked.wasInterrupted() ||
      (hostBarePtrCallConv && failed(verifyBarePointerSignatures(module))))
    return signalPassFailure();
  dropCallSiteAttrsOfExpandedArguments(module);

  LowerToLLVMOptions options(context);
  options.useBarePtrCallConv = hostBarePtrCallConv;
  LLVMTypeConverter converter(context, options);
  populateSDFGToLLVMTypeConversions(converter);
  populateGpuHostMemorySpaceConversions(converter);
  // A TMA descriptor made on the host (nvgpu.tma.create.descriptor, lowered
  // by convert-nvgpu-to-nvvm) is the runtime's device pointer to it.
  converter.addConversion([](nvgpu::TensorMapDescriptorType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });

  RewritePatternSet patterns(context);
  LLVMConversionTarget target(*context);
  target.addIllegalDialect<SDFGDialect, gpu::GPUDialect>();
  target.addLegalOp<gpu::GPUModuleOp, gpu::BinaryOp>();
  target.addDynamicallyLegalOp<gpu::LaunchFuncOp>(
      [&](gpu::LaunchFuncOp op) { return converter.isLegal(op); });

  // Other dialects that know how to lower themselves (a user's, say); not
  // the sdfg dialect's own interface, whose patterns are added below.
  for (Dialect *dialect : context->getLoadedDialects())
    if (auto *iface = dyn_cast<ConvertToLLVMPatternInterface>(dialect))
      if (!isa<SDFGDialect>(dialect))
        iface->populateConvertToLLVMConversionPatterns(target, converter,
                                                       patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  index::populateIndexToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
  populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
  ub::populateUBToLLVMConversionPatterns(converter, patterns);
  populateGpuToLLVMConversionPatterns(converter, patterns,
                                      kernelBarePtrCallConv);
  populateSDFGToLLVMConversionPatterns(converter, patterns);

  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return signalPassFailure();
  sealHostFunctions(module);
}
