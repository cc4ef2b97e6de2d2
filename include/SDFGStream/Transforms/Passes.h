//===- Passes.h - SDFGStream transformation passes --------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TRANSFORMS_PASSES_H
#define SDFGSTREAM_TRANSFORMS_PASSES_H

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace sdfg {

#define GEN_PASS_DECL
#include "SDFGStream/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "SDFGStream/Transforms/Passes.h.inc"

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_TRANSFORMS_PASSES_H
