//===- SDFGModel.h - An SDFG file, read and defaulted -----------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The SDFG elements the importer supports, read from the JSON of any DaCe
// generation into one shape: properties a compact file omits take DaCe's
// defaults, the generations' spellings (`start_state` / `start_block`,
// typed or null connectors, `$` symbols) are unified, and every string in
// one of DaCe's small Python languages is parsed. Each element keeps its
// JSON path, so that a diagnostic can point at it. Elements the importer
// does not support are refused while reading, naming the element.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_SDFGMODEL_H
#define SDFGSTREAM_LIB_IMPORT_DACE_SDFGMODEL_H

#include "PythonExpression.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace sdfg {
namespace dace {

class JsonLocator;

/// DaCe's StorageType values the importer distinguishes.
enum class Storage {
  Default,
  Register,
  CPUHeap,
  CPUPinned,
  GPUGlobal,
  GPUShared,
};

/// DaCe's ScheduleType values the importer distinguishes.
enum class Schedule {
  Default,
  Sequential,
  CPUMulticore,
  GPUDevice,
  GPUThreadBlock,
};

/// A parsed symbolic expression or code string and where it came from.
struct Code {
  std::string text;
  std::string path;
};

struct SymExpr : Code {
  PyExprPtr expr;
};

/// A data container (`Array`, `Scalar`, or a view: `ArrayView`, `View`).
struct DataDesc {
  std::string name;
  std::string path;
  bool isScalar = false;
  /// A view of another container (bound by the memlet between its access
  /// node and the viewed one); never allocated.
  bool isView = false;
  /// The element type (`dtype`; int32 when omitted).
  Type elementType;
  std::vector<SymExpr> shape;
  std::vector<SymExpr> strides;
  std::vector<SymExpr> offset;
  bool transient = false;
  bool mayAlias = false;
  Storage storage = Storage::Default;
  /// `Scope` (the default) or another lifetime (freed at the end of the
  /// call).
  bool scopeLifetime = true;
  /// Whether `strides` were written in the file rather than defaulted.
  bool explicitStrides = false;
  /// The elements DaCe allocates (`total_size`; the shape's product when
  /// absent) and the first element's place in them (`start_offset`).
  std::optional<SymExpr> totalSize;
  int64_t startOffset = 0;
};

/// One dimension of a `Range` subset: `end` inclusive, as DaCe writes it.
struct RangeDim {
  SymExpr start, end, step;
};

/// A `Range` (or `Indices`, read as ranges of one element).
struct Subset {
  std::string path;
  std::vector<RangeDim> dims;
};

struct Memlet {
  std::string path;
  /// The container the memlet names; empty for an empty memlet.
  std::string data;
  std::optional<Subset> subset;
  std::optional<Subset> otherSubset;
  bool dynamic = false;
  /// The write-conflict resolution lambda, if any.
  std::optional<SymExpr> wcr;
  bool wcrNonatomic = false;
};

struct SDFGModel;

/// What a NestedSDFG node holds besides its connectors (ModelNested.cpp):
/// its SDFG and the inner symbols' values as outer expressions, in name
/// order (an inner symbol the mapping omits takes the outer symbol of the
/// same name).
struct NestedSDFGInfo {
  std::shared_ptr<SDFGModel> sdfg;
  std::vector<std::pair<std::string, SymExpr>> symbolMapping;
};

struct Node {
  enum class Kind { Access, MapEntry, MapExit, Tasklet, Reduce, NestedSDFG };
  Kind kind;
  int64_t id = 0;
  std::string type;
  std::string label;
  std::string path;
  // AccessNode.
  std::string data;
  bool setzero = false;
  // MapEntry / MapExit.
  std::vector<std::string> params;
  Subset range;
  Schedule schedule = Schedule::Default;
  std::vector<int64_t> gpuBlockSize;
  // Tasklet.
  Code code;
  std::vector<PyStatement> statements;
  std::vector<std::string> inConnectors, outConnectors;
  // Reduce.
  std::optional<SymExpr> reduceWcr;
  std::optional<std::vector<int64_t>> reduceAxes;
  std::optional<std::string> reduceIdentity;
  // NestedSDFG.
  std::shared_ptr<const NestedSDFGInfo> nested;
};

struct StateEdge {
  std::string path;
  int64_t src = 0, dst = 0;
  std::string srcConnector, dstConnector;
  Memlet memlet;
};

struct State {
  std::vector<Node> nodes;
  std::vector<StateEdge> edges;
  /// Index into `nodes` by node id.
  std::map<int64_t, size_t> byId;
};

struct InterstateEdge {
  std::string path;
  size_t src = 0, dst = 0;
  /// Empty text: unconditional.
  SymExpr condition;
  /// Assignments in the order they run (the file's key order).
  std::vector<std::pair<std::string, SymExpr>> assignments;
};

struct ControlFlowRegion;

/// A control-flow block: a state, a loop, a conditional, or a break /
/// continue / return.
struct ControlFlowBlock {
  enum class Kind { State, Loop, Conditional, Break, Continue, Return };
  Kind kind;
  std::string type;
  std::string label;
  std::string path;
  int64_t id = 0;
  State state;
  // LoopRegion.
  std::string loopVariable;
  std::vector<PyStatement> init, update;
  SymExpr loopCondition;
  std::string initText, updateText;
  bool inverted = false;
  bool updateBeforeCondition = true;
  std::unique_ptr<ControlFlowRegion> body;
  // ConditionalBlock: a missing condition is the else branch.
  std::vector<std::pair<std::optional<SymExpr>, std::unique_ptr<ControlFlowRegion>>>
      branches;
};

/// A control-flow graph of blocks (an SDFG, a loop body, a branch).
struct ControlFlowRegion {
  std::string path;
  std::string label;
  std::vector<ControlFlowBlock> blocks;
  std::vector<InterstateEdge> edges;
  size_t start = 0;
};

struct SDFGModel {
  std::string name;
  std::string path;
  /// Containers by name (sorted, as DaCe's argument order wants them).
  std::map<std::string, DataDesc> arrays;
  /// Declared symbols and their types.
  std::map<std::string, Type> symbols;
  ControlFlowRegion cfg;
};

/// Attaches to `diagnostic` the note that says where the element is: in
/// node `node` (if any) of state `state`, with their ids and labels, at the
/// state's position.
void attachStateNote(InFlightDiagnostic &diagnostic, Location stateLocation,
                     const ControlFlowBlock &state, const Node *node);

/// Reads the SDFG at the root of `root` (its JSON path is ""). Reports
/// errors at the element's position through `locate` and returns null.
std::unique_ptr<SDFGModel> readSDFGModel(const llvm::json::Value &root,
                                         MLIRContext *context,
                                         llvm::function_ref<Location(
                                             llvm::StringRef path)> locate,
                                         const JsonLocator &locator,
                                         llvm::StringRef text);

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_SDFGMODEL_H
