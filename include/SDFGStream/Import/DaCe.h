//===- DaCe.h - Import DaCe SDFG files into the sdfg dialect ----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The entry points of the DaCe importer: a `.sdfg` (JSON) or `.sdfgz`
// (gzip-compressed JSON) file as DaCe 0.14 to 2.0 saves it becomes a module
// of `sdfg.sdfg` programs that the stream passes and the lowering pipelines
// take as they are. docs/dace-import.md describes the mapping.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_IMPORT_DACE_H
#define SDFGSTREAM_IMPORT_DACE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <memory>

namespace mlir {
namespace sdfg {
namespace dace {

/// What DaCe's configuration would decide; the defaults are DaCe's.
struct ImportOptions {
  /// DaCe's `compiler.cuda.max_concurrent_streams`: 0 gives every
  /// independent part of a state its own stream slot, N > 0 reuses slots
  /// modulo N, -1 puts all GPU work on slot 0.
  int64_t maxConcurrentStreams = 0;
  /// DaCe's `compiler.cuda.default_block_size`, for GPU maps without
  /// `gpu_block_size`.
  std::array<int64_t, 3> defaultBlockSize = {32, 1, 1};
};

/// Returns the JSON text of an SDFG file's contents: `buffer` itself, or its
/// gzip-decompressed contents when it starts with the gzip magic bytes (a
/// `.sdfgz`). The result keeps `buffer`'s identifier (the file name).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
decompressSDFGFile(std::unique_ptr<llvm::MemoryBuffer> buffer);

/// The start of the error importSDFG reports when the module it built does
/// not verify: a bug in the importer, never in the input (the fuzzer treats
/// it as a crash).
inline constexpr llvm::StringLiteral importerBugMessage =
    "internal error: the imported module does not verify";

/// Imports the SDFG file held by buffer `bufferId` of `sourceMgr` (JSON
/// text, already decompressed; 0: the main buffer). Errors are reported through the context's
/// diagnostic engine, located in the file (line and column of the JSON
/// element, the element's SDFG names and ids in the message); returns null
/// after an error. The module verifies.
OwningOpRef<ModuleOp> importSDFG(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context,
                                 const ImportOptions &options = {},
                                 unsigned bufferId = 0);

/// Registers the `import-dace-sdfg` translation (sdfg-translate) with its
/// options (`--dace-max-concurrent-streams`, `--dace-default-block-size`).
void registerImportDaCeSDFGTranslation();

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_IMPORT_DACE_H
