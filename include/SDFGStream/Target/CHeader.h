//===- CHeader.h - C header of compiled programs ----------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TARGET_CHEADER_H
#define SDFGSTREAM_TARGET_CHEADER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace sdfg {

/// Writes a C header that declares the entry point of every public program
/// in `module` as the ahead-of-time build exports it: memrefs as pointers to
/// strided memref descriptors, symbols and scalars by value, the caller's
/// stream last as `void *`, and an `int32_t` status result. Programs must
/// have gone through sdfg-add-external-gpu-stream.
LogicalResult translateToCHeader(ModuleOp module, llvm::raw_ostream &os);

/// Registers the `sdfg-to-c-header` translation.
void registerToCHeaderTranslation();

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_TARGET_CHEADER_H
