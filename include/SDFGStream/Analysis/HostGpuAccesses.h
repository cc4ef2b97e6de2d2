//===- HostGpuAccesses.h - What each op does to buffers, and where -*- C++ -*-//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The access model of sdfg-insert-host-syncs: for one op of a program's host
// code, which buffers the host reads or writes right there, which ones GPU
// work enqueued on a stream reads or writes later, and which streams the op
// synchronizes or orders after one another. Calls are answered from a
// summary of the callee (which arguments and globals it reads or writes on
// the host, which only through GPU work on its stream), solved over the
// whole module to a fixpoint, so recursion is fine.
//
// What counts as an access:
//   * GPU ops on a stream (upstream gpu ops whose async dependency is a
//     stream token, library nodes with a stream): copies read their source
//     and write their destination, memsets write, kernels read the buffers
//     they are passed and write those their body may write (gpu.func or
//     gpu.launch body, followed through views; anything not known is a
//     write), other GPU ops read and write every buffer operand;
//   * host ops: the Read, Write and Free effects they declare on buffer
//     values (so memref.dim, extract_strided_metadata and building views are
//     no access), and a read and write of every buffer operand for ops that
//     declare nothing; a return from the program reads the host-visible
//     buffers it returns;
//   * calls: the callee's summary; a body-less declaration, or a callee that
//     cannot be resolved, reads and writes every buffer argument on the host
//     (and through GPU work on the streams it is passed, if any). A callee
//     that returns with a stream idle (getExitSyncs) synchronizes it: its
//     work there is done, and so is the caller's before the call.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_HOSTGPUACCESSES_H
#define SDFGSTREAM_ANALYSIS_HOSTGPUACCESSES_H

#include "SDFGStream/Analysis/BufferAliasAnalysis.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir {
namespace sdfg {

/// One access to a buffer, by its roots.
struct BufferAccess {
  BufferAliasAnalysis::RootSet roots;
  bool write;
};

/// A GPU access enqueued on a stream (a canonical stream value).
struct StreamAccess {
  Value stream;
  BufferAccess access;
};

/// What one op does: host accesses happen at the op, GPU accesses are
/// enqueued by it, `synced` streams are idle after it (before its own GPU
/// work: an sdfg.sync), `syncedAfter` streams are idle after it with its own
/// GPU work on them done (a call of a callee that syncs them before it
/// returns: its GPU work still has to be ordered after what it conflicts
/// with), and each (waiting, waitedOn) pair orders later work of `waiting`
/// after the work enqueued so far on `waitedOn`.
struct OpAccesses {
  SmallVector<BufferAccess, 2> host;
  SmallVector<StreamAccess, 2> gpu;
  SmallVector<Value, 1> synced;
  SmallVector<Value, 1> syncedAfter;
  SmallVector<std::pair<Value, Value>, 1> streamWaits;
};

/// Access bits of a summary.
enum AccessBits : uint8_t {
  HostRead = 1,
  HostWrite = 2,
  GpuRead = 4,
  GpuWrite = 8,
};

/// Access bits of the buffers a function is given, of globals, and of
/// memory it cannot name.
struct SummaryAccesses {
  SmallVector<uint8_t> arguments;
  llvm::SmallDenseMap<Attribute, uint8_t, 4> globals;
  uint8_t unknown = 0;
  bool operator==(const SummaryAccesses &other) const;
  bool operator!=(const SummaryAccesses &other) const {
    return !(*this == other);
  }
};

/// What a program or function may do to the buffers it is given and to
/// globals, wherever in its body (and its callees) it does it: on the host,
/// and through GPU work on the stream the call runs on (the inherited
/// bits), or on another stream it is given (`otherStreams`: GPU bits by the
/// index of the `!sdfg.stream` parameter). GPU work on the function's own
/// allocations counts as work on unknown memory when the allocation leaves
/// it (its address stored, packed or turned into an integer): the caller
/// may reach it.
struct ProgramSummary : SummaryAccesses {
  SmallVector<std::pair<unsigned, SummaryAccesses>, 1> otherStreams;
  bool operator==(const ProgramSummary &other) const;
  /// The accesses on the `!sdfg.stream` parameter `index` (created empty).
  SummaryAccesses &onOtherStream(unsigned index);
};

/// The streams a callee leaves idle when it returns (synchronized after all
/// work on them, the caller's earlier work included), as it is written: the
/// stream the call runs on, and `!sdfg.stream` parameters by index.
struct CalleeExitSyncs {
  bool callStream = false;
  SmallVector<unsigned, 1> streamParameters;
};

/// Answers "what does this op access" for the host code of every program
/// of a module.
class HostGpuAccesses {
public:
  /// Computes the summaries of every function-like op of `module` (outside
  /// kernel modules).
  explicit HostGpuAccesses(Operation *module);
  ~HostGpuAccesses();

  /// The alias analysis of `program` (computed once, on first use).
  BufferAliasAnalysis &getAliases(FunctionOpInterface program);

  /// The accesses of `op` itself, in the host code of `program`. A region op
  /// that no interface describes (not a RegionBranchOpInterface) also makes
  /// every access nested in it (its regions may run any number of times, in
  /// any order); a RegionBranchOpInterface op makes none itself.
  OpAccesses getAccesses(Operation *op, FunctionOpInterface program);

  /// The accesses of every host op nested in the regions of `op` (kernel
  /// bodies excluded), as if they all happened at `op`.
  OpAccesses getNestedAccesses(Operation *op, FunctionOpInterface program);

  /// The summary of `callee`.
  const ProgramSummary &getSummary(FunctionOpInterface callee);

  /// The streams `callee` leaves idle (solved once, from the callee as it
  /// is then; a callee being solved, through recursion, leaves none).
  const CalleeExitSyncs &getExitSyncs(FunctionOpInterface callee);
  /// Forgets what getExitSyncs found for `callee`, whose syncs changed.
  void forgetExitSyncs(FunctionOpInterface callee) { exitSyncs.erase(callee); }

  /// The function-like ops of the module, callees before their callers
  /// (post-order of the call graph; recursion in some order).
  ArrayRef<Operation *> getCalleesFirst() const { return calleesFirst; }

  SymbolTableCollection &getSymbolTables() { return symbolTables; }

private:
  /// The accesses of `op` without those nested in it.
  OpAccesses getOwnAccesses(Operation *op, FunctionOpInterface program);
  ProgramSummary summarize(FunctionOpInterface function);
  /// Returns true if the kernel body may write argument `index` of `kernel`.
  bool kernelMayWrite(Operation *kernel, unsigned index);
  /// The stack allocations whose automatic allocation scope is `scope`.
  ArrayRef<Value> stackAllocationsOf(Operation *scope);
  /// The module-level device globals (memref.global, llvm.mlir.global of a
  /// gpu.module: CUDA __device__ variables, CUF module variables with the
  /// DEVICE attribute) that device code in `region` (a kernel body, a
  /// gpu.launch body) and the device functions it calls use, each with
  /// whether it may be written. A global is named by its symbol qualified
  /// with its gpu.module's.
  SmallVector<std::pair<Attribute, bool>> deviceGlobalsOf(Region &region);

  SymbolTableCollection symbolTables;
  DenseMap<Operation *, std::unique_ptr<BufferAliasAnalysis>> aliases;
  DenseMap<Operation *, ProgramSummary> summaries;
  DenseMap<Operation *, CalleeExitSyncs> exitSyncs;
  SmallVector<Operation *> calleesFirst;
  DenseMap<std::pair<Operation *, unsigned>, bool> kernelWrites;
  /// The stack allocations (memref.alloca, llvm.alloca) of each automatic
  /// allocation scope, freed when it is left.
  DenseMap<Operation *, SmallVector<Value>> stackAllocations;
};

/// Calls `fn` on every op of the host code of `region` (nested regions
/// included, kernel bodies excluded), in pre-order.
void walkHostCode(Region &region, function_ref<void(Operation *)> fn);

/// Returns true if code in `scope` (a kernel body, a gpu.launch body) may
/// write the memory of `buffer`, through `buffer` itself or anything made
/// from it in `scope`.
bool regionMayWrite(Region &scope, Value buffer);

/// Returns true if `op` is device code: inside a `gpu.launch` body or a
/// `gpu.module`.
bool isDeviceCode(Operation *op);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_HOSTGPUACCESSES_H
