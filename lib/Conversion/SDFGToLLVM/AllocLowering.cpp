//===- AllocLowering.cpp - gpu.alloc and gpu.dealloc on the stream --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The runtime allocates on the op's stream and returns a generic pointer;
// the memref's descriptor holds it in the memref's address space (an
// addrspacecast, where upstream emits a bitcast that does not verify for
// `memref<..., 1>`), and gpu.dealloc hands it back as a generic pointer.
// `host_shared` becomes mgpuMemAlloc's flag: managed memory, which the
// runtime documents as not stream-ordered (refused during a capture).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "RuntimeCalls.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {

struct AllocLowering : public OnStreamPattern<gpu::AllocOp> {
  using OnStreamPattern::OnStreamPattern;
  LogicalResult
  matchAndRewrite(gpu::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(op, adaptor.getAsyncDependencies());
    MemRefType type = op.getType();
    if (!stream || !isConvertibleAndHasIdentityMaps(type) ||
        !adaptor.getSymbolOperands().empty())
      return rewriter.notifyMatchFailure(op, "not on a stream or not dense");
    Location loc = op.getLoc();
    SmallVector<Value> shape, strides;
    Value sizeBytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             shape, strides, sizeBytes);
    Value hostShared = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI8Type(),
        rewriter.getI8IntegerAttr(op.getHostShared() ? 1 : 0));
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    FailureOr<Value> allocated =
        emitRuntimeCall(rewriter, op, RuntimeEntry::mgpuMemAlloc,
                        {sizeBytes, stream, hostShared});
    if (failed(allocated))
      return failure();
    Value pointer = *allocated;
    Type elementPtrType = getElementPtrType(type);
    if (elementPtrType != ptrType)
      pointer =
          LLVM::AddrSpaceCastOp::create(rewriter, loc, elementPtrType, pointer);
    // The runtime's allocations are aligned for any element type.
    Value descriptor = createMemRefDescriptor(loc, type, pointer, pointer,
                                              shape, strides, rewriter);
    rewriter.replaceOp(op, {descriptor, stream});
    return success();
  }
};

struct DeallocLowering : public OnStreamPattern<gpu::DeallocOp> {
  using OnStreamPattern::OnStreamPattern;
  LogicalResult
  matchAndRewrite(gpu::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(op, adaptor.getAsyncDependencies());
    if (!stream)
      return rewriter.notifyMatchFailure(op, "not on a stream");
    Location loc = op.getLoc();
    Value pointer = MemRefDescriptor(adaptor.getMemref()).allocatedPtr(rewriter,
                                                                       loc);
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    if (pointer.getType() != ptrType)
      pointer = LLVM::AddrSpaceCastOp::create(rewriter, loc, ptrType, pointer);
    if (failed(emitRuntimeCall(rewriter, op, RuntimeEntry::mgpuMemFree,
                               {pointer, stream})))
      return failure();
    rewriter.replaceOp(op, stream);
    return success();
  }
};

} // namespace

void mlir::sdfg::populateAllocPatterns(LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<AllocLowering, DeallocLowering>(converter);
}
