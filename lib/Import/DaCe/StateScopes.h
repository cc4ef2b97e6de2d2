//===- StateScopes.h - Map scopes and order of a state's nodes --*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// DaCe derives a state's scopes from its graph (dace/sdfg/scope.py): a node
// belongs to the map whose entry leads to it, a MapExit closes the scope of
// the nodes that lead to it. The file's `scope_dict` is derived data and
// not read.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_STATESCOPES_H
#define SDFGSTREAM_LIB_IMPORT_DACE_STATESCOPES_H

#include "SDFGModel.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace sdfg {
namespace dace {

class ProgramEmitter;

struct StateScopes {
  /// Node indices in topological order (file order among equals).
  std::vector<size_t> order;
  /// Per node index: the index of the MapEntry whose scope holds it, or -1.
  std::vector<int64_t> parent;
  /// Per MapEntry index: its MapExit's index (-1 for other nodes).
  std::vector<int64_t> exitOf;
  /// Per transient used only inside map scopes: the innermost scope that
  /// holds all its access nodes.
  llvm::StringMap<int64_t> homes;

  int64_t homeOf(llvm::StringRef name) const {
    auto it = homes.find(name);
    return it == homes.end() ? -1 : it->second;
  }
};

/// Orders and scopes the nodes of `block`'s state; reports cycles and
/// unmatched scopes at the state.
FailureOr<StateScopes> analyzeScopes(ProgramEmitter &emitter,
                                     const ControlFlowBlock &block);

/// Decides where each transient of the program lives
/// (ProgramEmitter::transientHomes, ProgramEmitter::scopeLocal).
LogicalResult placeTransients(ProgramEmitter &emitter);

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_STATESCOPES_H
