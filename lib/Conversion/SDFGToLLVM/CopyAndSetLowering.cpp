//===- CopyAndSetLowering.cpp - gpu.memcpy and gpu.memset on any view ----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Upstream's gpu-to-llvm copies from the aligned pointers of both memrefs and
// checks the layout of the source only, so a copy into a subview with an
// offset writes to the start of the underlying buffer, and a copy or memset
// of a strided view does not legalize. These patterns address the first
// element of each view (aligned pointer plus offset). A view that is not
// provably dense goes to the runtime with its descriptor, which splits the
// copy into 2D copies on the stream (sdfgrtMemcpyStrided,
// sdfgrtMemsetStrided); so does a 64-bit memset, which no vendor has.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "RuntimeCalls.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::sdfg;

/// The bits of each element as stored in memory: the LLVM data layout pads
/// an integer of up to 8 bits to a byte and wider ones to a power of two.
static unsigned storageBits(unsigned width) {
  return width <= 8 ? 8 : llvm::PowerOf2Ceil(width);
}

static unsigned valueBits(Type type, const LLVMTypeConverter &converter) {
  if (isa<IndexType>(type))
    return converter.getIndexTypeBitwidth();
  return type.getIntOrFloatBitWidth();
}

bool mlir::sdfg::isSettableElementType(Type type) {
  if (isa<IndexType>(type))
    return true;
  return isa<IntegerType, FloatType>(type) &&
         storageBits(type.getIntOrFloatBitWidth()) <= 64;
}

namespace {

struct MemcpyLowering : public OnStreamPattern<gpu::MemcpyOp> {
  using OnStreamPattern::OnStreamPattern;
  LogicalResult
  matchAndRewrite(gpu::MemcpyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(op, adaptor.getAsyncDependencies());
    if (!stream)
      return rewriter.notifyMatchFailure(op, "not on a stream");
    auto srcType = cast<MemRefType>(op.getSrc().getType());
    auto dstType = cast<MemRefType>(op.getDst().getType());
    Location loc = op.getLoc();
    Value elementBytes =
        getSizeInBytes(loc, srcType.getElementType(), rewriter);
    const LLVMTypeConverter &converter = *getTypeConverter();
    MemRefDescriptor src(adaptor.getSrc()), dst(adaptor.getDst());
    FailureOr<Value> call;
    if (isContiguous(srcType) && isContiguous(dstType)) {
      // The shapes agree (verifier); a static one gives a constant count.
      MemRefType shaped = srcType.hasStaticShape() ? srcType : dstType;
      Value count = elementCount(rewriter, loc, converter, shaped,
                                 shaped == srcType ? src : dst);
      Value bytes = LLVM::MulOp::create(rewriter, loc, count, elementBytes);
      call = emitRuntimeCall(
          rewriter, op, RuntimeEntry::mgpuMemcpy,
          {viewGenericPointer(rewriter, loc, converter, dstType, dst),
           viewGenericPointer(rewriter, loc, converter, srcType, src), bytes,
           stream});
    } else {
      call =
          emitRuntimeCall(rewriter, op, RuntimeEntry::sdfgrtMemcpyStrided,
                          {indexConstant(rewriter, loc, srcType.getRank()),
                           descriptorOnStack(rewriter, loc, adaptor.getDst()),
                           descriptorOnStack(rewriter, loc, adaptor.getSrc()),
                           elementBytes, stream});
    }
    if (failed(call))
      return failure();
    rewriter.replaceOp(op, stream);
    return success();
  }
};

struct MemsetLowering : public OnStreamPattern<gpu::MemsetOp> {
  using OnStreamPattern::OnStreamPattern;
  LogicalResult
  matchAndRewrite(gpu::MemsetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(op, adaptor.getAsyncDependencies());
    Type valueType = op.getValue().getType();
    if (!stream || !isSettableElementType(valueType))
      return rewriter.notifyMatchFailure(op, "not on a stream or too wide");
    const LLVMTypeConverter &converter = *getTypeConverter();
    Location loc = op.getLoc();
    unsigned width = valueBits(valueType, converter);
    unsigned bits = storageBits(width);

    // The element's bit pattern as the unsigned integer that fills memory.
    Value pattern = adaptor.getValue();
    if (!isa<IntegerType>(pattern.getType()))
      pattern = LLVM::BitcastOp::create(rewriter, loc,
                                        rewriter.getIntegerType(width),
                                        pattern);
    auto widen = [&](unsigned to) {
      if (cast<IntegerType>(pattern.getType()).getWidth() < to)
        pattern = LLVM::ZExtOp::create(rewriter, loc,
                                       rewriter.getIntegerType(to), pattern);
    };

    auto dstType = cast<MemRefType>(op.getDst().getType());
    MemRefDescriptor dst(adaptor.getDst());
    FailureOr<Value> call;
    if (isContiguous(dstType) && bits <= 32) {
      widen(bits);
      RuntimeEntry entry = bits == 8    ? RuntimeEntry::sdfgrtMemset8
                           : bits == 16 ? RuntimeEntry::mgpuMemset16
                                        : RuntimeEntry::mgpuMemset32;
      call = emitRuntimeCall(
          rewriter, op, entry,
          {viewGenericPointer(rewriter, loc, converter, dstType, dst), pattern,
           elementCount(rewriter, loc, converter, dstType, dst), stream});
    } else {
      widen(64);
      call = emitRuntimeCall(
          rewriter, op, RuntimeEntry::sdfgrtMemsetStrided,
          {indexConstant(rewriter, loc, dstType.getRank()),
           descriptorOnStack(rewriter, loc, adaptor.getDst()),
           indexConstant(rewriter, loc, bits / 8), pattern, stream});
    }
    if (failed(call))
      return failure();
    rewriter.replaceOp(op, stream);
    return success();
  }
};

} // namespace

void mlir::sdfg::populateCopyAndSetPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<MemcpyLowering, MemsetLowering>(converter);
}
