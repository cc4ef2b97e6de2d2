//===- GraphModeChecks.h - What graph mode needs of a program ---*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The two checks convert-sdfg-to-func makes before it opens a program's
// calls in graph mode (sdfgrtBeginGraphCall): where recorded work must be
// flushed before the program leaves the runtime, and whether its
// allocations escape the call, which makes it run eagerly instead.
// Private to lib/Conversion/SDFGToFunc.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_CONVERSION_SDFGTOFUNC_GRAPHMODECHECKS_H
#define SDFGSTREAM_LIB_CONVERSION_SDFGTOFUNC_GRAPHMODECHECKS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace sdfg {

/// In graph mode, work a call records runs only when its segment is
/// launched; code that leaves the runtime (a call of a body-less function:
/// a kernel library built elsewhere enqueuing its own work on the stream, a
/// host function reading what a kernel wrote) must see it done or queued
/// first. Inserts sdfgrtFlushGraphWork() (nothing outside a graph-mode
/// call) before every call in host code of `module` whose callee has no
/// body here and is no runtime entry, or cannot be resolved. Fails, with an
/// error, where the module declares sdfgrtFlushGraphWork otherwise.
LogicalResult insertGraphFlushes(ModuleOp module);

/// Whether a GPU allocation of `function`, or of a function it calls,
/// leaves the call through something other than a GPU op's operand: its
/// address stored (an out-pointer), packed or turned into an integer
/// (BufferAliasAnalysis's escapes). Graph mode keeps a program's
/// allocations for its next call, which would then hand out the same
/// buffer again; such a program runs eagerly.
bool allocationsEscape(FunctionOpInterface function);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_CONVERSION_SDFGTOFUNC_GRAPHMODECHECKS_H
