//===- RuntimeCalls.cpp - Helpers of the host lowering --------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCalls.h"

#include "llvm/Support/MathExtras.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::sdfg;

Value mlir::sdfg::programNamePointer(OpBuilder &builder, Operation *op,
                                    StringRef name) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string base = ("__sdfgrt_program_" + name).str();
  std::string text = (name + Twine('\0')).str();
  // The program's constant, or a fresh name if the module uses this one
  // for something else.
  std::string symbol = base;
  LLVM::GlobalOp global;
  for (unsigned suffix = 0;; ++suffix) {
    Operation *existing = module.lookupSymbol(symbol);
    global = dyn_cast_or_null<LLVM::GlobalOp>(existing);
    if (!existing || (global && global.getConstant() &&
                      global.getValueAttr() ==
                          builder.getStringAttr(text)))
      break;
    symbol = base + "_" + std::to_string(suffix);
  }
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
    global = LLVM::GlobalOp::create(builder, op->getLoc(), type,
                                    /*isConstant=*/true,
                                    LLVM::Linkage::Private, symbol,
                                    builder.getStringAttr(text));
  }
  return LLVM::AddressOfOp::create(builder, op->getLoc(), global);
}

Value mlir::sdfg::alignedGenericPointer(OpBuilder &builder, Location loc,
                                        MemRefDescriptor descriptor) {
  Value pointer = descriptor.alignedPtr(builder, loc);
  Type ptrType = LLVM::LLVMPointerType::get(builder.getContext());
  if (pointer.getType() != ptrType)
    pointer = LLVM::AddrSpaceCastOp::create(builder, loc, ptrType, pointer);
  return pointer;
}

Value mlir::sdfg::viewGenericPointer(OpBuilder &builder, Location loc,
                                     const LLVMTypeConverter &converter,
                                     MemRefType type,
                                     MemRefDescriptor descriptor) {
  // An identity layout has offset 0 by definition; a static offset is
  // folded into the address computation, a dynamic one read at run time.
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (!type.getLayout().isIdentity() &&
      succeeded(type.getStridesAndOffset(strides, offset))) {
    if (offset != 0) {
      Value aligned = descriptor.alignedPtr(builder, loc);
      Type elementType = converter.convertType(type.getElementType());
      Value pointer;
      if (!ShapedType::isDynamic(offset) && llvm::isInt<32>(offset)) {
        // A constant index of the GEP itself (GEP constants are 32-bit).
        pointer = LLVM::GEPOp::create(
            builder, loc, aligned.getType(), elementType, aligned,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
      } else {
        // Dynamic, or a static offset too large for a GEP constant.
        Value index =
            ShapedType::isDynamic(offset)
                ? descriptor.offset(builder, loc)
                : LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                           builder.getI64IntegerAttr(offset))
                      .getResult();
        pointer = LLVM::GEPOp::create(builder, loc, aligned.getType(),
                                      elementType, aligned, index);
      }
      Type ptrType = LLVM::LLVMPointerType::get(builder.getContext());
      if (pointer.getType() != ptrType)
        pointer = LLVM::AddrSpaceCastOp::create(builder, loc, ptrType, pointer);
      return pointer;
    }
  }
  return alignedGenericPointer(builder, loc, descriptor);
}

Value mlir::sdfg::descriptorOnStack(OpBuilder &builder, Location loc,
                                    Value descriptor) {
  Type ptrType = LLVM::LLVMPointerType::get(builder.getContext());
  Value slot;
  {
    OpBuilder::InsertionGuard guard(builder);
    Operation *function =
        builder.getInsertionBlock()->getParentOp();
    while (function && !isa<FunctionOpInterface>(function))
      function = function->getParentOp();
    if (function)
      builder.setInsertionPointToStart(
          &cast<FunctionOpInterface>(function).getFunctionBody().front());
    Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                         builder.getI64IntegerAttr(1));
    slot = LLVM::AllocaOp::create(builder, loc, ptrType, descriptor.getType(),
                                  one);
  }
  LLVM::StoreOp::create(builder, loc, descriptor, slot);
  return slot;
}

bool mlir::sdfg::isContiguous(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  // Row-major and dense: from the innermost dimension out, each stride is
  // the product of the sizes inside it. Dimensions of size 1 have no
  // neighbours to be dense with; the outermost size may be dynamic.
  int64_t expected = 1;
  for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
    int64_t size = type.getDimSize(dim);
    if (size == 1)
      continue;
    if (strides[dim] != expected)
      return false;
    if (ShapedType::isDynamic(size)) {
      // Only the outermost non-unit dimension may be dynamic.
      for (int64_t outer = dim - 1; outer >= 0; --outer)
        if (type.getDimSize(outer) != 1)
          return false;
      return true;
    }
    expected *= size;
  }
  return true;
}

Value mlir::sdfg::elementCount(OpBuilder &builder, Location loc,
                               const LLVMTypeConverter &converter,
                               MemRefType type, MemRefDescriptor descriptor) {
  Type indexType = converter.getIndexType();
  if (type.hasStaticShape())
    return LLVM::ConstantOp::create(
        builder, loc, indexType,
        builder.getIntegerAttr(indexType, type.getNumElements()));
  Value count;
  for (int64_t dim = 0, rank = type.getRank(); dim < rank; ++dim) {
    Value size = descriptor.size(builder, loc, dim);
    count = count ? LLVM::MulOp::create(builder, loc, count, size).getResult()
                  : size;
  }
  return count;
}
