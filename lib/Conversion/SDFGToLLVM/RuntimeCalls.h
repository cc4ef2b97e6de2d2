//===- RuntimeCalls.h - Helpers of the host lowering ------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the patterns of convert-sdfg-to-llvm (and convert-sdfg-to-func)
// share: the pointers and descriptors the runtime takes. The calls
// themselves are made through SDFGStream/Conversion/RuntimeEntries.h,
// which this header includes. Private to lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_CONVERSION_SDFGTOLLVM_RUNTIMECALLS_H
#define SDFGSTREAM_LIB_CONVERSION_SDFGTOLLVM_RUNTIMECALLS_H

#include "SDFGStream/Conversion/RuntimeEntries.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace sdfg {

/// A pointer to the NUL-terminated name of the program `name`, which the
/// runtime keys per-program state by (timers, graph mode): one private
/// constant per program in the module of `op`, made on first use.
Value programNamePointer(OpBuilder &builder, Operation *op, StringRef name);

/// The aligned pointer of a memref descriptor as the runtime takes it: a
/// generic (address space 0) pointer.
Value alignedGenericPointer(OpBuilder &builder, Location loc,
                            MemRefDescriptor descriptor);

/// The address of the first element of the view `descriptor` of `type` (its
/// aligned pointer advanced by its offset), as a generic pointer.
Value viewGenericPointer(OpBuilder &builder, Location loc,
                         const LLVMTypeConverter &converter, MemRefType type,
                         MemRefDescriptor descriptor);

/// A pointer to a copy of the memref descriptor `descriptor` (the layout of
/// MLIR's StridedMemRefType) that the runtime reads. The stack slot is
/// allocated once, in the entry block of the enclosing function, so a copy
/// in a loop does not grow the stack.
Value descriptorOnStack(OpBuilder &builder, Location loc, Value descriptor);

/// Whether every view of `type` is one dense block of elements in row-major
/// order, so that it can be copied or set as a byte range from its first
/// element; false where the layout does not prove it.
bool isContiguous(MemRefType type);

/// The number of elements of the view `descriptor` of `type`.
Value elementCount(OpBuilder &builder, Location loc,
                   const LLVMTypeConverter &converter, MemRefType type,
                   MemRefDescriptor descriptor);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_CONVERSION_SDFGTOLLVM_RUNTIMECALLS_H
