//===- SDFGDialect.h - The sdfg dialect -------------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGDIALECT_H
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOpsDialect.h.inc"

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGDIALECT_H
