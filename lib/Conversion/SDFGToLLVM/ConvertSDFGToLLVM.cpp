//===- ConvertSDFGToLLVM.cpp - Host code to LLVM on the caller's stream ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Upstream gpu-to-llvm passes an op's single async dependency to the runtime
// as the stream. add-external-gpu-stream made that dependency the caller's
// stream, so this pass only has to make `!sdfg.stream` an `!llvm.ptr`, turn
// the stream ops into that pointer, and refuse everything that upstream
// would lower by inventing a stream.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/Passes.h"

#include "Patterns.h"
#include "RuntimeCalls.h"

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
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
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

/// `sdfg.init_streams`: every slot is the caller's stream pointer.
struct InitStreamsLowering : public ConvertOpToLLVMPattern<InitStreamsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(InitStreamsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> slots(op.getSlots().size(), adaptor.getExternal());
    rewriter.replaceOp(op, slots);
    return success();
  }
};

/// `sdfg.stream_token`: the token is the stream pointer itself, which is
/// what upstream's gpu patterns take as the stream.
struct StreamTokenLowering : public ConvertOpToLLVMPattern<StreamTokenOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(StreamTokenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getStream());
    return success();
  }
};

/// `sdfg.sync`: synchronize each stream (never the device).
struct SyncLowering : public ConvertOpToLLVMPattern<SyncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(SyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value stream : adaptor.getStreams())
      if (failed(emitRuntimeCall(rewriter, op, "mgpuStreamSynchronize",
                                 stream)))
        return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// `sdfg.stream_wait`: an event recorded on one stream, waited for on the
/// other (failures go to the call's status like every runtime call's).
struct StreamWaitLowering : public ConvertOpToLLVMPattern<StreamWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(StreamWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(emitRuntimeCall(
            rewriter, op, "sdfgrtStreamWaitStream",
            ValueRange{adaptor.getStream(), adaptor.getWaitedOn()},
            rewriter.getI32Type())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// `sdfg.check_device`: the runtime compares the buffer's device with the
/// stream's.
struct CheckDeviceLowering : public ConvertOpToLLVMPattern<CheckDeviceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(CheckDeviceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pointer = alignedGenericPointer(
        rewriter, loc, MemRefDescriptor(adaptor.getBuffer()));
    Value argument = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI32Type(), op.getArgumentAttr());
    if (failed(emitRuntimeCall(rewriter, op, "sdfgrtCheckDevicePointer",
                               {pointer, adaptor.getStream(), argument})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The NUL-terminated name of a timed program, one private constant per
/// program, shared by its timer ops.
static Value programNamePointer(ConversionPatternRewriter &rewriter,
                                Operation *op, StringRef name) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string symbol = ("__sdfgrt_timer_" + name).str();
  std::string text = (name + Twine('\0')).str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(symbol);
  if (!global) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), text.size());
    global = LLVM::GlobalOp::create(rewriter, op->getLoc(), type,
                                    /*isConstant=*/true,
                                    LLVM::Linkage::Private, symbol,
                                    rewriter.getStringAttr(text));
  }
  return LLVM::AddressOfOp::create(rewriter, op->getLoc(), global);
}

/// `sdfg.timer_begin`: open a timed call, then a begin event per stream.
struct TimerBeginLowering : public ConvertOpToLLVMPattern<TimerBeginOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TimerBeginOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    FailureOr<LLVM::LLVMFuncOp> begin = LLVM::lookupOrCreateFn(
        rewriter, op->getParentOfType<ModuleOp>(), "sdfgrtTimerBegin",
        {ptrType}, ptrType);
    if (failed(begin))
      return op.emitOpError() << "cannot declare sdfgrtTimerBegin";
    Value name = programNamePointer(rewriter, op, op.getName());
    Value call =
        LLVM::CallOp::create(rewriter, op.getLoc(), *begin, name).getResult();
    for (Value stream : adaptor.getStreams())
      if (failed(emitRuntimeCall(rewriter, op, "sdfgrtTimerRecordBegin",
                                 {call, stream})))
        return failure();
    rewriter.replaceOp(op, call);
    return success();
  }
};

/// `sdfg.timer_end`: an end event per stream, then close the call.
struct TimerEndLowering : public ConvertOpToLLVMPattern<TimerEndOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TimerEndOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value stream : adaptor.getStreams())
      if (failed(emitRuntimeCall(rewriter, op, "sdfgrtTimerRecordEnd",
                                 {adaptor.getTimer(), stream})))
        return failure();
    if (failed(emitRuntimeCall(rewriter, op, "sdfgrtTimerEnd",
                               adaptor.getTimer())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
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
              "add-external-gpu-stream first (it turns waits into "
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
              "the stream, and an async token); run add-external-gpu-stream "
              "first";
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

/// Text of a GPU op's location as the runtime prints it: `file:line:col`
/// where there is one, the printed location otherwise.
static std::string locationText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    os << fileLoc.getFilename().getValue() << ':' << fileLoc.getLine() << ':'
       << fileLoc.getColumn();
  else
    loc.print(os);
  return text;
}

/// Before each host GPU op, tell the runtime where it comes from, so that an
/// error names the op's source location. All texts live in one
/// deduplicated, NUL-separated byte array; each call passes a pointer into
/// it. One global and one declaration keep this linear in the module size.
static void recordLocations(ModuleOp module) {
  SmallVector<std::pair<Operation *, uint64_t>> sites;
  llvm::StringMap<uint64_t> offsets;
  std::string table;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (!isa<gpu::AsyncOpInterface, gpu::HostRegisterOp,
             gpu::HostUnregisterOp, gpu::SetDefaultDeviceOp, SyncOp,
             StreamWaitOp, TimerBeginOp, TimerEndOp, CheckDeviceOp>(op))
      return WalkResult::advance();
    std::string text = locationText(op->getLoc());
    auto [it, inserted] = offsets.try_emplace(text, table.size());
    if (inserted) {
      table += text;
      table.push_back('\0');
    }
    sites.emplace_back(op, it->second);
    return WalkResult::advance();
  });
  if (sites.empty())
    return;

  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto i8Type = IntegerType::get(context, 8);
  auto tableType = LLVM::LLVMArrayType::get(i8Type, table.size());
  OpBuilder builder(context);
  auto global = LLVM::GlobalOp::create(
      builder, loc, tableType, /*isConstant=*/true, LLVM::Linkage::Private,
      "__sdfgrt_locations", builder.getStringAttr(table));
  // Renamed if the module already has a symbol of that name.
  SymbolTable(module).insert(global, module.getBody()->begin());
  builder.setInsertionPointToStart(module.getBody());
  FailureOr<LLVM::LLVMFuncOp> callee =
      LLVM::lookupOrCreateFn(builder, module, "sdfgrtSetLocation", {ptrType},
                             LLVM::LLVMVoidType::get(context));
  if (failed(callee))
    return;

  for (auto [op, offset] : sites) {
    builder.setInsertionPoint(op);
    Value base = LLVM::AddressOfOp::create(builder, op->getLoc(), global);
    Value text = LLVM::GEPOp::create(
        builder, op->getLoc(), ptrType, tableType, base,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(offset)});
    LLVM::CallOp::create(builder, op->getLoc(), *callee, text);
  }
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
  if (checked.wasInterrupted())
    return signalPassFailure();
  dropCallSiteAttrsOfExpandedArguments(module);
  recordLocations(module);

  LowerToLLVMOptions options(context);
  options.useBarePtrCallConv = hostBarePtrCallConv;
  LLVMTypeConverter converter(context, options);
  converter.addConversion([](StreamType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  converter.addConversion([](TimerType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  // A TMA descriptor made on the host (nvgpu.tma.create.descriptor, lowered
  // by convert-nvgpu-to-nvvm) is the runtime's device pointer to it.
  converter.addConversion([](nvgpu::TensorMapDescriptorType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  // On the host a GPU buffer is a plain pointer; kernels keep their address
  // spaces (the NVVM/ROCDL lowering maps them).
  populateGpuMemorySpaceAttributeConversions(
      converter, [](gpu::AddressSpace) -> unsigned { return 0; });
  // The same for numbered memory spaces (memref<4xf32, 1> is GPU memory):
  // the runtime takes plain pointers, and upstream's gpu.dealloc lowering
  // passes an addrspace(1) pointer to mgpuMemFree uncast otherwise.
  converter.addTypeAttributeConversion(
      [](BaseMemRefType,
         IntegerAttr space) -> TypeConverter::AttributeConversionResult {
        return IntegerAttr::get(IntegerType::get(space.getContext(), 64), 0);
      });

  RewritePatternSet patterns(context);
  LLVMConversionTarget target(*context);
  target.addIllegalDialect<SDFGDialect, gpu::GPUDialect>();
  target.addLegalOp<gpu::GPUModuleOp, gpu::BinaryOp>();
  target.addDynamicallyLegalOp<gpu::LaunchFuncOp>(
      [&](gpu::LaunchFuncOp op) { return converter.isLegal(op); });

  // Other dialects that know how to lower themselves (a user's, say).
  for (Dialect *dialect : context->getLoadedDialects())
    if (auto *iface = dyn_cast<ConvertToLLVMPatternInterface>(dialect))
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
  populateCopyAndSetPatterns(converter, patterns);
  populateAllocPatterns(converter, patterns);
  patterns.add<InitStreamsLowering, StreamTokenLowering, SyncLowering,
               TimerBeginLowering, TimerEndLowering, CheckDeviceLowering,
               StreamWaitLowering>(converter);

  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return signalPassFailure();
  sealHostFunctions(module);
}
