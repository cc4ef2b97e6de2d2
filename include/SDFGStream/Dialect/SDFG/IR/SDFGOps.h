//===- SDFGOps.h - Operations of the sdfg dialect ---------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGOPS_H
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGOPS_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGEnums.h.inc"

#include "SDFGStream/Dialect/SDFG/IR/SDFGInterfaces.h.inc"

#define GET_OP_CLASSES
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h.inc"

namespace mlir {
namespace sdfg {

/// Returns true if `op` is host-side GPU work: an upstream `gpu` op that is
/// enqueued on a stream (launches, copies, memsets, allocations, waits) or a
/// stream op of this dialect. Ops inside kernels are not host work.
bool isHostGpuWork(Operation *op);

/// Returns the number of stream slots `program` declares: the `streams` field
/// of an `sdfg.sdfg`, the `sdfg.num_streams` attribute of any other function
/// (default 1).
int64_t getNumStreamSlots(FunctionOpInterface program);

/// Returns true if `a` and `b` are known to be the same run-time stream: the
/// same value, or two slots of one `sdfg.init_streams` that is not
/// `concurrent`.
bool isSameStream(Value a, Value b);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGOPS_H
