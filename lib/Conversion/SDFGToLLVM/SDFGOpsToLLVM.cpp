//===- SDFGOpsToLLVM.cpp - The sdfg ops on the host, to LLVM -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Patterns and type conversions of the sdfg dialect's host ops, shared by
// convert-sdfg-to-llvm and the dialect's ConvertToLLVMPatternInterface (so
// that another compiler's convert-to-llvm lowers them too). A stream is the
// caller's stream pointer; upstream's gpu patterns take it as the single
// async dependency of every GPU op.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/SDFGToLLVM/SDFGToLLVM.h"

#include "Patterns.h"
#include "RuntimeCalls.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {

/// `sdfg.init_streams`: every slot is the caller's stream pointer; with
/// `concurrent`, slot 0 is and the runtime forks the others from it
/// (sdfgrtForkStreams fills an array of the slots' stream pointers, the
/// caller's stream in each if it fails).
struct InitStreamsLowering : public ConvertOpToLLVMPattern<InitStreamsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(InitStreamsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    size_t count = op.getSlots().size();
    if (!op.getConcurrent() || count < 2) {
      SmallVector<Value> slots(count, adaptor.getExternal());
      rewriter.replaceOp(op, slots);
      return success();
    }
    Location loc = op.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto arrayType = LLVM::LLVMArrayType::get(ptrType, count);
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                         rewriter.getI64IntegerAttr(1));
    // The op is in the entry block (its verifier says so): one stack slot.
    Value array =
        LLVM::AllocaOp::create(rewriter, loc, ptrType, arrayType, one);
    Value countValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI32Type(),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(count)));
    if (failed(emitRuntimeCall(rewriter, op, RuntimeEntry::sdfgrtForkStreams,
                               {adaptor.getExternal(), countValue, array})))
      return failure();
    SmallVector<Value> slots = {adaptor.getExternal()};
    for (size_t k = 1; k < count; ++k) {
      Value address = LLVM::GEPOp::create(
          rewriter, loc, ptrType, arrayType, array,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(k)});
      slots.push_back(LLVM::LoadOp::create(rewriter, loc, ptrType, address));
    }
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
      if (failed(emitRuntimeCall(rewriter, op,
                                 RuntimeEntry::mgpuStreamSynchronize, stream)))
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
            rewriter, op, RuntimeEntry::sdfgrtStreamWaitStream,
            ValueRange{adaptor.getStream(), adaptor.getWaitedOn()})))
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
    if (failed(emitRuntimeCall(rewriter, op,
                               RuntimeEntry::sdfgrtCheckDevicePointer,
                               {pointer, adaptor.getStream(), argument})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// `sdfg.timer_begin`: open a timed call, then a begin event per stream.
struct TimerBeginLowering : public ConvertOpToLLVMPattern<TimerBeginOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TimerBeginOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value name = programNamePointer(rewriter, op, op.getName());
    FailureOr<Value> call =
        emitRuntimeCall(rewriter, op, RuntimeEntry::sdfgrtTimerBegin, name);
    if (failed(call))
      return failure();
    for (Value stream : adaptor.getStreams())
      if (failed(emitRuntimeCall(rewriter, op,
                                 RuntimeEntry::sdfgrtTimerRecordBegin,
                                 {*call, stream})))
        return failure();
    rewriter.replaceOp(op, *call);
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
      if (failed(emitRuntimeCall(rewriter, op,
                                 RuntimeEntry::sdfgrtTimerRecordEnd,
                                 {adaptor.getTimer(), stream})))
        return failure();
    if (failed(emitRuntimeCall(rewriter, op, RuntimeEntry::sdfgrtTimerEnd,
                               adaptor.getTimer())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::sdfg::populateSDFGToLLVMTypeConversions(
    LLVMTypeConverter &converter) {
  converter.addConversion([](StreamType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  converter.addConversion([](TimerType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
}

void mlir::sdfg::populateGpuHostMemorySpaceConversions(
    LLVMTypeConverter &converter) {
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
}

void mlir::sdfg::populateSDFGToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  populateCopyAndSetPatterns(converter, patterns);
  populateAllocPatterns(converter, patterns);
  patterns.add<InitStreamsLowering, StreamTokenLowering, SyncLowering,
               TimerBeginLowering, TimerEndLowering, CheckDeviceLowering,
               StreamWaitLowering>(converter);
}

namespace {
/// convert-to-llvm's hook: the sdfg ops are illegal, lowered as above.
/// Not the memory-space conversions: kernel lowerings (convert-gpu-to-nvvm)
/// take every dialect's patterns and type conversions too, and kernels keep
/// their address spaces.
struct SDFGToLLVMInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;
  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    target.addIllegalDialect<SDFGDialect>();
    target.addDynamicallyLegalOp<gpu::LaunchFuncOp>(
        [&converter](gpu::LaunchFuncOp op) { return converter.isLegal(op); });
    populateSDFGToLLVMTypeConversions(converter);
    populateSDFGToLLVMConversionPatterns(converter, patterns);
    // Upstream gives the gpu dialect's host ops no interface of their own
    // (only gpu-to-llvm lowers them): the launches and host registrations
    // come from here too, each with the stream it depends on.
    populateGpuToLLVMConversionPatterns(converter, patterns);
  }
};
} // namespace

void mlir::sdfg::registerConvertSDFGToLLVMInterface(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, SDFGDialect *dialect) {
    dialect->addInterfaces<SDFGToLLVMInterface>();
  });
}
