//===- Patterns.h - Pattern sets of convert-sdfg-to-llvm --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The host-side GPU patterns that replace upstream's where upstream drops
// information (view offsets, strides, memory spaces) or has no lowering.
// Private to lib/Conversion/SDFGToLLVM.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_CONVERSION_SDFGTOLLVM_PATTERNS_H
#define SDFGSTREAM_LIB_CONVERSION_SDFGTOLLVM_PATTERNS_H

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace sdfg {

/// A host GPU op that sdfg-add-external-gpu-stream put on a stream, lowered in
/// place of upstream's pattern for it.
template <typename OpTy>
struct OnStreamPattern : public ConvertOpToLLVMPattern<OpTy> {
  // Tried before upstream's pattern for the same op.
  explicit OnStreamPattern(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<OpTy>(converter, /*benefit=*/2) {}

  /// The stream of an op that sdfg-add-external-gpu-stream put on one: its
  /// single async dependency (null otherwise; verifyOnStream reported it).
  static Value streamOf(OpTy op, ValueRange dependencies) {
    if (dependencies.size() != 1 || !op.getAsyncToken())
      return {};
    return dependencies.front();
  }

  Value indexConstant(OpBuilder &builder, Location loc, int64_t value) const {
    return this->createIndexAttrConstant(builder, loc, this->getIndexType(),
                                         value);
  }
};

/// `gpu.memcpy` and `gpu.memset` on any strided view and of any element
/// type up to 64 bits, on the op's stream. They take precedence over
/// upstream's patterns, which ignore the offset of a copy's destination
/// and refuse non-identity layouts.
void populateCopyAndSetPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);

/// Whether `type` is an element type that `gpu.memset` can set on a stream
/// (integers and floats of up to 64 bits).
bool isSettableElementType(Type type);

/// `gpu.alloc` (device or host-shared) and `gpu.dealloc` on the op's stream,
/// for memrefs in any memory space: upstream's patterns bitcast the
/// runtime's generic pointer to the memref's (invalid for a numbered
/// address space) and refuse host-shared allocations on a stream.
void populateAllocPatterns(LLVMTypeConverter &converter,
                           RewritePatternSet &patterns);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_CONVERSION_SDFGTOLLVM_PATTERNS_H
