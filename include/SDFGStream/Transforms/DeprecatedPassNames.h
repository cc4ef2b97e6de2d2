//===- DeprecatedPassNames.h - The passes' names before the prefix -*- C++ -*-//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Every SDFGStream pass is named with the project's prefix, `sdfg-`, so that
// a compiler that embeds the library cannot collide with it (IREE and CIRCT
// prefix theirs). The names the passes had before (insert-host-syncs,
// add-external-gpu-stream, ...) stay usable for one release as deprecated
// aliases: on the command line and in textual pipelines, with the same
// options, each one warning once per process that it is deprecated.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TRANSFORMS_DEPRECATEDPASSNAMES_H
#define SDFGSTREAM_TRANSFORMS_DEPRECATEDPASSNAMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <utility>

namespace mlir {
namespace sdfg {

/// The (deprecated name, name) pairs.
llvm::ArrayRef<std::pair<llvm::StringRef, llvm::StringRef>>
getDeprecatedPassNames();

/// Registers each deprecated name as an alias of the pass now named so
/// (resolved when a pipeline is parsed: register the passes too).
void registerDeprecatedPassNames();

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_TRANSFORMS_DEPRECATEDPASSNAMES_H
