//===- SDFGTypes.h - Types of the sdfg dialect ------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGTYPES_H
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "SDFGStream/Dialect/SDFG/IR/SDFGOpsTypes.h.inc"

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGTYPES_H
