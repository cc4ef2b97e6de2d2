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

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace sdfg {

/// `gpu.memcpy` and `gpu.memset` on any strided view and of any element
/// type up to 64 bits, on the op's stream. They take precedence over
/// upstream's patterns, which ignore the offset of a copy's destination
/// and refuse non-identity layouts.
void populateCopyAndSetPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);

/// Whether `type` is an element type that `gpu.memset` can set on a stream
/// (integers and floats of up to 64 bits).
bool isSettableElementType(Type type);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_CONVERSION_SDFGTOLLVM_PATTERNS_H
