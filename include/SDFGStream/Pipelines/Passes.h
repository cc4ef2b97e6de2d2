//===- Passes.h - SDFGStream's lowering pipelines' passes -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The passes of the GPU targets (Passes.td): sdfg-verify-kernel-targets
// and the ROCm target's sdfg-assemble-amdgpu-kernels and
// convert-kernel-asserts-to-traps.
// registerLowerToGpuPipelines() (Pipelines.h) registers them too.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_PIPELINES_PASSES_H
#define SDFGSTREAM_PIPELINES_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace sdfg {

#define GEN_PASS_DECL
#include "SDFGStream/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "SDFGStream/Pipelines/Passes.h.inc"

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_PIPELINES_PASSES_H
