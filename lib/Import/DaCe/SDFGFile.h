//===- SDFGFile.h - Positions of JSON values in an SDFG file ----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// llvm::json::parse keeps no source positions, but an error in an SDFG file
// should point at the element it is about. JsonLocator scans the text once
// and records where every object and array value starts, keyed by its path
// from the root, so that the importer can turn the path of the element it
// reads into a line and column.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_SDFGFILE_H
#define SDFGSTREAM_LIB_IMPORT_DACE_SDFGFILE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace sdfg {
namespace dace {

/// A path from the root of a JSON document: object keys and array indices
/// joined by '/', e.g. "nodes/3/attributes/_arrays/A". The root is "".
class JsonLocator {
public:
  /// Scans `text` (which must outlive the locator). Malformed text is not
  /// an error here: positions are recorded up to the first problem.
  explicit JsonLocator(llvm::StringRef text);

  /// The byte offset where the object or array value at `path` starts (its
  /// '{' or '['); for a path to a scalar value or to nothing recorded, the
  /// offset of the value at the longest recorded prefix of `path` (the root
  /// at worst, offset of the first non-blank character).
  size_t offsetOf(llvm::StringRef path) const;

  /// Line and column (both 1-based; columns count bytes) of `offset`.
  std::pair<unsigned, unsigned> lineAndColumn(size_t offset) const;

  /// The deepest nesting of objects and arrays that an SDFG file may have.
  /// llvm::json::parse and the importer descend recursively, so deeper
  /// text must be refused before either sees it; DaCe's own loader
  /// (Python's json module, bounded by Python's recursion limit of 1000)
  /// refuses such files too.
  static constexpr size_t kMaxNesting = 1000;

  /// The offset of the first object or array nested deeper than
  /// kMaxNesting, if the text has one.
  std::optional<size_t> getTooDeepOffset() const { return tooDeepOffset; }

private:
  llvm::StringRef text;
  llvm::StringMap<size_t> offsets;
  /// Offsets where lines 2, 3, ... start, so that lineAndColumn is a binary
  /// search rather than a scan when the importer locates every element.
  std::vector<size_t> lineStarts;
  std::optional<size_t> tooDeepOffset;
};

/// Appends a key or index to a path.
std::string joinJsonPath(llvm::StringRef path, llvm::StringRef key);
std::string joinJsonPath(llvm::StringRef path, size_t index);

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_SDFGFILE_H
