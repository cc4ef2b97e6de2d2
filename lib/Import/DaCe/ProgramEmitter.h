//===- ProgramEmitter.h - One SDFG into one sdfg.sdfg program ---*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The state shared by the parts of the importer that build one program:
// the control flow (ControlFlowEmitter.cpp), a state's dataflow
// (DataflowEmitter.cpp), tasklets and memlets (TaskletEmitter.cpp), and
// expressions (ExpressionEmitter.cpp). Values are carried with the C++ type
// DaCe's generated code would give them (CValue), because DaCe compiles
// every expression string as C++: an int32 divided by an int32 truncates, a
// float multiplied by 0.5 is computed in double.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_PROGRAMEMITTER_H
#define SDFGSTREAM_LIB_IMPORT_DACE_PROGRAMEMITTER_H

#include "SDFGModel.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"
#include "SDFGStream/Import/DaCe.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

namespace mlir {
namespace sdfg {
namespace dace {

/// A value and the C++ type it has in DaCe's generated code. Integer
/// symbols and indices are `index` values (signed 64-bit in C++ terms).
struct CValue {
  Value value;
  /// Unsigned integer (MLIR's integer types are signless).
  bool isUnsigned = false;
  explicit operator bool() const { return static_cast<bool>(value); }
  Type getType() const { return value.getType(); }
};

/// Where a container lives in the program being built.
struct Container {
  Container() = default;
  Container(const DataDesc *desc, Value memref, Value value = {})
      : desc(desc), memref(memref), value(value) {}

  const DataDesc *desc = nullptr;
  /// The memref (for a non-transient Scalar the program writes: a rank-0
  /// copy of the argument).
  Value memref;
  /// A non-transient Scalar the program only reads: its value, which
  /// kernels capture like any other value.
  Value value;
  bool onGpu() const { return desc->storage == Storage::GPUGlobal; }
};

/// A tasklet connector bound to memory (a memlet of several elements or a
/// dynamic one): subscripts index from `base`, in the dimensions of size
/// other than one.
struct ArrayConnector {
  Value memref;
  const DataDesc *desc = nullptr;
  SmallVector<Value> base;
  SmallVector<unsigned> freeDims;
};

class ProgramEmitter {
public:
  ProgramEmitter(const SDFGModel &model, const ImportOptions &options,
                 std::function<Location(llvm::StringRef)> locate,
                 OpBuilder &moduleBuilder);

  /// Builds the program; returns null after reporting an error.
  SDFGOp emit();
  /// Emits the SDFG's control flow at the builder's position, its
  /// containers and free symbols bound already (a nested SDFG's body);
  /// `terminate` ends its last block.
  LogicalResult emitBody(llvm::function_ref<void(Location)> terminate);

  //===--------------------------------------------------------------------===//
  // Diagnostics and locations
  //===--------------------------------------------------------------------===//
  Location loc(llvm::StringRef path) { return locate(path); }
  InFlightDiagnostic error(llvm::StringRef path);
  InFlightDiagnostic error(Location location);
  bool hasFailed() const { return hadError; }

  //===--------------------------------------------------------------------===//
  // Expressions (ExpressionEmitter.cpp)
  //===--------------------------------------------------------------------===//
  /// Names visible to an expression besides symbols: tasklet connectors
  /// and locals, and array connectors.
  struct Scope {
    llvm::StringMap<CValue> values;
    llvm::StringMap<ArrayConnector> arrays;
  };
  /// Emits `expr` at the builder's position. `scope` may be null (symbolic
  /// expressions and interstate code see symbols and containers only).
  CValue emitExpression(const PyExpr &expr, llvm::StringRef path,
                            Scope *scope = nullptr);
  /// Emits a symbolic expression as an `index`.
  Value emitIndex(const SymExpr &expr);
  Value emitIndex(const PyExpr &expr, llvm::StringRef path);
  /// Emits a condition as an i1.
  Value emitCondition(const SymExpr &expr, Scope *scope = nullptr);
  /// C++'s implicit conversion of `value` to `type` (signless `type`;
  /// `toUnsigned` for unsigned integers).
  CValue convert(CValue value, Type type, bool toUnsigned,
                     Location location);
  CValue toBool(CValue value, Location location);
  /// Combines `a` and `b` as the wcr lambda `wcr` does (DaCe's reduction
  /// types; any other lambda is emitted as its expression).
  CValue emitWcrCombine(const SymExpr &wcr, CValue a, CValue b);
  /// The arith atomic kind of a wcr lambda, if it is one of DaCe's
  /// detected reductions and the element type has it.
  std::optional<arith::AtomicRMWKind> atomicKind(const SymExpr &wcr,
                                                 Type elementType,
                                                 bool isUnsigned);

  //===--------------------------------------------------------------------===//
  // Dataflow (DataflowEmitter.cpp, TaskletEmitter.cpp)
  //===--------------------------------------------------------------------===//
  /// Emits the dataflow of `state` at the builder's position.
  LogicalResult emitState(const ControlFlowBlock &state);
  LogicalResult emitTasklet(const State &state, const Node &tasklet,
                            bool inKernel);
  /// Allocates the transients that live for the whole call (`state` null)
  /// or for one execution of `state`, appending them to `allocated` (the
  /// buffer and whether it is GPU memory).
  LogicalResult
  allocateTransients(const ControlFlowBlock *state,
                     SmallVectorImpl<std::pair<Value, bool>> &allocated);
  void freeTransients(ArrayRef<std::pair<Value, bool>> allocated,
                      Location location);
  /// Allocates one transient at the builder's position; returns the array
  /// (with DaCe's layout) and sets `buffer` to the allocation to free.
  Value allocate(const DataDesc &desc, bool inKernel, Value *buffer = nullptr);
  /// A view of the box `subset` (the whole container if null) of a
  /// container, with the dimensions of size one dropped; `keptDims` (if
  /// given) receives the container dimensions the view keeps.
  Value boxView(const Container &container, const Subset *subset,
                Location location,
                SmallVectorImpl<unsigned> *keptDims = nullptr);
  /// The number of elements of one dimension of a range.
  Value rangeSize(const RangeDim &dim, Location location);
  /// A Reduce library node (ReduceEmitter.cpp); over some axes only
  /// (PartialReduce.cpp), reading the view `source` into `target`.
  LogicalResult emitReduce(const State &state, const Node &reduce);
  /// A NestedSDFG node (NestedSDFGEmitter.cpp): a call of a program of its
  /// own on the host, inlined inside a kernel.
  LogicalResult emitNestedSDFG(const State &state, const Node &node);
  LogicalResult emitPartialReduce(const Node &reduce, Value source,
                                  ArrayRef<bool> reduced, Value target,
                                  bool onGpu, bool isUnsigned);
  /// The start value of a Reduce node with an identity, as `type`.
  Value reduceIdentity(const Node &reduce, Type type);
  /// Puts a GPU op on the stream slot of `owner` and counts the slot.
  void setSlot(Operation *op, const Node &owner);
  /// Indices of the first element of `subset` in `container` (its DaCe
  /// offset applied).
  SmallVector<Value> subsetStart(const Subset &subset, const DataDesc &desc);
  /// Indices into `container` from DaCe indices (offset applied).
  SmallVector<Value> applyOffset(ArrayRef<Value> indices,
                                 const DataDesc &desc);
  /// Whether a memlet subset is one element (start == end in every
  /// dimension).
  static bool isSingleElement(const Subset &subset);

  //===--------------------------------------------------------------------===//
  // Shared state
  //===--------------------------------------------------------------------===//
  const SDFGModel &model;
  const ImportOptions &options;
  std::function<Location(llvm::StringRef)> locate;
  OpBuilder builder;
  MLIRContext *context;

  /// Symbols in scope: integers as index values, others as their type.
  llvm::StringMap<CValue> symbols;
  /// Containers allocated or passed in so far.
  llvm::StringMap<Container> containers;
  /// Whether the builder is inside a kernel (gpu.launch body).
  bool inKernel = false;
  /// Map parameters of the enclosing GPU kernel (write-conflict test).
  SmallVector<std::string> kernelParams;
  /// Stream slot of each GPU node of the state being emitted (node id).
  llvm::DenseMap<int64_t, int64_t> nodeSlots;
  int64_t numSlots = 0;
  bool usesGpu = false;
  /// Where each transient lives: absent = the whole call, a state = one
  /// execution of that state. Transients in `scopeLocal` live in the map
  /// scopes that use them (per iteration, per thread in a kernel).
  llvm::StringMap<const ControlFlowBlock *> transientHomes;
  llvm::StringSet<> scopeLocal;
  /// Containers some access node writes (has an in-edge into).
  llvm::StringSet<> writtenScalars;
  /// The state and node being emitted, named in a note under every error.
  const ControlFlowBlock *currentState = nullptr;
  const Node *currentNode = nullptr;

private:
  friend class ControlFlowEmitter;
  bool hadError = false;
};

/// Writes `value` to one element of `target`, resolving write conflicts as
/// `memlet` asks (TaskletEmitter.cpp).
LogicalResult storeElement(ProgramEmitter &e, const Container &target,
                           ArrayRef<Value> indices, CValue value,
                           const Memlet &memlet, bool inKernel,
                           Location location);

/// Copies the box `from` into `to` (views of the same shape) element by
/// element, as code inside a kernel copies and as DaCe copies between
/// element types, converting each element as C++ assigns it
/// (NestedSDFGInline.cpp); the flags say which side holds unsigned integers.
LogicalResult copyElements(ProgramEmitter &e, Value from, Value to,
                           Location location, bool fromUnsigned = false,
                           bool toUnsigned = false);

/// Emits the code of a Python tasklet (TaskletCode.cpp): `scope` holds its
/// input connectors and array connectors, `outputTypes` the element types
/// of its single-element output connectors; the names the code assigns are
/// added to `assigned`.
LogicalResult emitTaskletCode(ProgramEmitter &e, const State &state,
                              const Node &tasklet, bool inKernel,
                              ProgramEmitter::Scope &scope,
                              const llvm::StringMap<Type> &outputTypes,
                              llvm::StringSet<> &assigned);

/// The memref type of a container (signless element type, the GPU address
/// space for GPU_Global, static sizes where the shape is a literal, a
/// strided layout where the strides are not row-major).
MemRefType containerType(const DataDesc &desc, MLIRContext *context);

/// The element type as memrefs and arith hold it (unsigned -> signless).
Type signlessType(Type type);

/// DaCe's C calling convention: non-transient arrays by name, then
/// non-transient scalars and free symbols by name.
struct Argument {
  std::string name;
  const DataDesc *desc = nullptr; // null for a symbol
  Type symbolType;
};
std::vector<Argument> programArguments(const SDFGModel &model);
/// The symbols an SDFG needs from its caller by DaCe's rule
/// (dace/sdfg/sdfg.py::SDFG.used_symbols with all_symbols=False): read
/// anywhere but in the shapes of its non-transient arrays, and not defined
/// inside.
llvm::StringSet<> usedSymbols(const SDFGModel &model);

/// Assigns DaCe's CUDA stream numbers to the GPU nodes of a state
/// (dace/codegen/targets/cuda.py::CUDACodeGen._compute_cudastreams) and
/// returns the number of streams the state uses.
int64_t assignStreams(const SDFGModel &model, const State &state,
                      int64_t maxConcurrentStreams,
                      llvm::DenseMap<int64_t, int64_t> &slots);

} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_PROGRAMEMITTER_H
