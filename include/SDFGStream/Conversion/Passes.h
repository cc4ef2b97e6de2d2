//===- Passes.h - SDFGStream conversion passes ------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_CONVERSION_PASSES_H
#define SDFGSTREAM_CONVERSION_PASSES_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace sdfg {

#define GEN_PASS_DECL
#include "SDFGStream/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "SDFGStream/Conversion/Passes.h.inc"

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_CONVERSION_PASSES_H
