//===- BufferAliasAnalysis.h - What memory a buffer value may be -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The one place that decides which memory a buffer value (a memref of any
// kind, ranked or unranked, or an LLVM pointer) may be, and whether two of
// them may overlap. Used by sdfg-insert-host-syncs (and its call summaries) and
// by every pass that asks "what memory is this value".
//
// Each buffer value of a program gets a set of roots, the places its memory
// may come from:
//   * an allocation (memref.alloc/alloca, gpu.alloc, any result an op
//     declares an Allocate effect on), with the kind of memory it gives;
//   * a global (memref.get_global / llvm.mlir.addressof), by symbol: two
//     uses of the same global have the same root;
//   * an argument of the program, by index;
//   * unknown memory (a call result, a pointer made from an integer, a
//     buffer loaded from memory, ...).
// Roots flow through every op that makes a buffer from buffers (views,
// casts of every kind, reshapes, arith.select, ...: any op whose result is a
// buffer and whose operands include buffers), through block arguments of
// branches and through the results and block arguments of region ops
// (RegionBranchOpInterface). The sets are solved to a fixpoint, so loops of
// block arguments are fine.
//
// Two roots may alias when they are the same, when one is unknown memory,
// or when both are arguments, or an argument and a global, of the same
// memory class (host-visible or GPU-only): a caller may pass one buffer
// twice, or a global. An argument marked `llvm.noalias` aliases nothing but
// itself and unknown memory (a pointer of unknown origin may be based on
// it: an accessor's result, say). A GPU-only argument (memory space 1 or
// #gpu.address_space<global>) never aliases a host-visible one: memory that
// both sides may use (managed, host-registered, host-mapped) must be passed
// in the default memory space.
//
// A buffer's address may also leave as an integer
// (memref.extract_aligned_pointer_as_index, llvm.ptrtoint) and reach a C
// function or a kernel that dereferences it. Integers made from such an
// address (through casts, arithmetic, selects: any op with integer results
// whose operands carry addresses) carry the roots of the buffers they came
// from (getAddressRoots), so that the callee's or kernel's access is one of
// those buffers. Block arguments and region results do not pass them on.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_ANALYSIS_BUFFERALIASANALYSIS_H
#define SDFGSTREAM_ANALYSIS_BUFFERALIASANALYSIS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class AsmState;

namespace sdfg {

/// Which side can touch a buffer's memory.
enum class MemoryKind {
  /// GPU memory the host cannot address (gpu.alloc, GPU memory spaces).
  Device,
  /// Memory the host can address: host memory (which may also be mapped
  /// for or registered with the GPU), managed and host_shared memory, and
  /// anything not known to be device memory.
  HostVisible,
};

/// Returns true for the types that carry a buffer: memrefs (ranked or
/// unranked) and LLVM pointers.
bool isBufferType(Type type);

/// Returns true if `memorySpace` is a GPU-only memory space: integer 1 or
/// `#gpu.address_space<global|workgroup|private>`.
bool isGpuMemorySpace(Attribute memorySpace);

/// The memory kind a buffer type says, from its memory space.
MemoryKind getMemoryKind(Type type);

/// The roots of every buffer value of one program, and which may alias.
class BufferAliasAnalysis {
public:
  using RootSet = SmallVector<unsigned, 2>;

  enum class RootKind { Unknown, Allocation, Global, Argument };
  struct Root {
    RootKind kind;
    MemoryKind memory;
    /// The allocated value, the global's symbol (a StringAttr) or null.
    Value allocation;
    Attribute global;
    /// The argument number, and whether it is marked llvm.noalias.
    unsigned argument = 0;
    bool noAlias = false;
  };

  /// Analyzes the host code of `program` (kernel bodies are not visited).
  explicit BufferAliasAnalysis(FunctionOpInterface program);

  /// The roots of `value`; unknown memory for values the analysis did not
  /// see (and never empty for a buffer).
  const RootSet &getRoots(Value value) const;
  const Root &getRoot(unsigned id) const { return roots[id]; }
  /// The root of global `symbol` (created on first use).
  unsigned getGlobalRoot(Attribute symbol, MemoryKind memory);
  /// The root that stands for unknown memory.
  static constexpr unsigned kUnknownRoot = 0;

  bool mayAlias(unsigned a, unsigned b) const;
  bool mayAlias(ArrayRef<unsigned> a, ArrayRef<unsigned> b) const;

  /// The roots of the buffers whose address integer `value` may be made
  /// from; empty for an integer that carries no address (or is no integer).
  const RootSet &getAddressRoots(Value value) const;

  /// The roots of the buffers whose address escapes: leaves the values the
  /// analysis follows, by being stored into memory (a pointer table, a
  /// stack slot), packed into an aggregate (`llvm.insertvalue`, a cast of a
  /// memref descriptor to a struct) or, as an integer, passed through a
  /// block argument or region result, stored or returned. Any kernel and
  /// any opaque host code (an unknown or external callee) may access them
  /// (see escapesAt).
  const RootSet &getEscapedRoots() const { return escaped; }

  /// Returns true if the address `use` holds (a buffer, or an integer or
  /// aggregate made from one) leaves what an analysis following buffers
  /// through views and branches sees: it is stored into memory (the
  /// operand is a value an op writes to another operand's memory), packed
  /// into an aggregate or converted to an integer or an aggregate. Applies
  /// to host and device code alike.
  static bool escapesAt(OpOperand &use);

  /// Returns true if the host can never address `value`'s memory: every
  /// root is GPU-only memory, whatever the view's type (a GPU view of a
  /// host buffer, or of an unknown one, is memory the host touches).
  bool isDeviceOnly(Value value) const;

  /// Prints root `id` for a reader: "unknown", "alloc %0", "global @g",
  /// "arg 1" (" noalias"), with " device" for GPU-only memory.
  void printRoot(unsigned id, raw_ostream &os, AsmState &asmState) const;

  /// The number of roots (ids are below it).
  unsigned getNumRoots() const { return roots.size(); }

private:
  unsigned addRoot(Root root);
  void compute(FunctionOpInterface program);

  SmallVector<Root> roots;
  DenseMap<Value, RootSet> valueRoots;
  DenseMap<Value, RootSet> addressRoots;
  DenseMap<Attribute, unsigned> globalRoots;
  RootSet unknown;
  RootSet escaped;
};

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_ANALYSIS_BUFFERALIASANALYSIS_H
