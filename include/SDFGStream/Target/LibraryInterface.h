//===- LibraryInterface.h - What a program library tells its callers -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TARGET_LIBRARYINTERFACE_H
#define SDFGSTREAM_TARGET_LIBRARYINTERFACE_H

#include "SDFGStream/Target/CInterface.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace sdfg {

/// How the library is built, as far as its callers need to know.
struct LibraryInterfaceOptions {
  /// Calls synchronize the caller's stream before they return
  /// (`sdfg-compile --sync-call`).
  bool syncCall = false;
};

/// The manifest of `programs`, the public programs of `module`
/// (collectCPrograms, after sdfg-add-external-gpu-stream): for each, its
/// entries, its parameters (name, kind, element type, shape, layout, memory)
/// and whether a call synchronizes the host with its streams or makes
/// stream-ordered allocations. The format is documented in docs/python.md
/// ("Where signatures come from: the manifest").
FailureOr<llvm::json::Value>
buildManifest(ModuleOp module, ArrayRef<CProgram> programs,
              const LibraryInterfaceOptions &options);

/// Writes the LLVM IR that `sdfg-compile` builds into a program library
/// next to the programs: one packed entry per program (`int32_t
/// _sdfgstream_packed_<name>(void **args)`, the form a caller that knows the
/// signature only at run time can call: an XLA FFI handler, ctypes), calling
/// the program's C entry with the IR types the lowering gives it, and
/// `const char *sdfgstreamManifest(void)`, the manifest as JSON text.
LogicalResult translateToLibraryInterface(
    ModuleOp module, const LibraryInterfaceOptions &options,
    llvm::raw_ostream &os);

/// Registers the `sdfg-to-manifest` and `sdfg-to-library-interface`
/// translations.
void registerLibraryInterfaceTranslations();

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_TARGET_LIBRARYINTERFACE_H
