//===- BufferAliasAnalysis.cpp - What memory a buffer value may be --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// An inclusion-based (Andersen-style) solution over the buffer values of one
// program: every value gets its base roots, every op or branch that makes a
// buffer from buffers adds an edge, and the root sets are propagated along
// the edges to a fixpoint. MLIR's LocalAliasAnalysis answers one query at a
// time and stops at function arguments and block arguments it cannot
// follow; here every value of a program is answered at once, arguments and
// globals get identities that a call summary can name, and unknown ops are
// followed conservatively (their buffer results may be any of their buffer
// operands). An address that leaves the values followed here (stored into
// memory, packed into an aggregate, an integer passed where it is not
// followed) escapes: its buffer may be accessed by any kernel and any opaque
// host code (HostGpuAccesses). The queries on the solution are in
// BufferAliasQueries.cpp.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/BufferAliasAnalysis.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::sdfg;

bool mlir::sdfg::isBufferType(Type type) {
  return isa<BaseMemRefType, LLVM::LLVMPointerType>(type);
}

bool mlir::sdfg::isGpuMemorySpace(Attribute memorySpace) {
  if (!memorySpace)
    return false;
  if (auto integer = dyn_cast<IntegerAttr>(memorySpace))
    return integer.getInt() == 1;
  return isa<gpu::AddressSpaceAttr>(memorySpace);
}

MemoryKind mlir::sdfg::getMemoryKind(Type type) {
  if (auto memref = dyn_cast<BaseMemRefType>(type))
    return isGpuMemorySpace(memref.getMemorySpace()) ? MemoryKind::Device
                                                     : MemoryKind::HostVisible;
  if (auto pointer = dyn_cast<LLVM::LLVMPointerType>(type))
    return pointer.getAddressSpace() == 1 ? MemoryKind::Device
                                          : MemoryKind::HostVisible;
  return MemoryKind::HostVisible;
}

/// Merges sorted `from` into sorted `into`; returns true if it grew.
static bool mergeInto(BufferAliasAnalysis::RootSet &into,
                      ArrayRef<unsigned> from) {
  bool changed = false;
  for (unsigned root : from) {
    auto it = llvm::lower_bound(into, root);
    if (it != into.end() && *it == root)
      continue;
    into.insert(it, root);
    changed = true;
  }
  return changed;
}

BufferAliasAnalysis::BufferAliasAnalysis(FunctionOpInterface program) {
  Root unknownRoot{RootKind::Unknown, MemoryKind::HostVisible, {}, {}};
  unknown.push_back(addRoot(unknownRoot));
  compute(program);
}

unsigned BufferAliasAnalysis::addRoot(Root root) {
  roots.push_back(root);
  return roots.size() - 1;
}

unsigned BufferAliasAnalysis::getGlobalRoot(Attribute symbol,
                                            MemoryKind memory) {
  auto [it, inserted] = globalRoots.try_emplace(symbol, 0);
  if (inserted)
    it->second = addRoot({RootKind::Global, memory, {}, symbol});
  return it->second;
}

/// The memory an allocating op gives.
static MemoryKind getAllocationKind(Operation *op, Value result) {
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return alloc.getHostShared() ? MemoryKind::HostVisible
                                 : MemoryKind::Device;
  return getMemoryKind(result.getType());
}

/// Returns true if `op` declares that it allocates `result`.
static bool allocates(Operation *op, Value result) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffectsOnValue(result, instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

/// Whether `op` may read memory: it declares a read effect, or declares
/// nothing at all.
static bool mayReadMemory(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  return effects.hasEffect<MemoryEffects::Read>();
}

void BufferAliasAnalysis::compute(FunctionOpInterface program) {
  // Edges source -> values made from it.
  DenseMap<Value, SmallVector<Value, 2>> derived;
  auto addEdge = [&](Value from, Value to) {
    if (from != to)
      derived[from].push_back(to);
  };
  auto setUnknown = [&](Value value) {
    mergeInto(valueRoots[value], unknown);
  };
  auto bufferOperands = [](Operation *op) {
    SmallVector<Value> values;
    for (Value operand : op->getOperands())
      if (isBufferType(operand.getType()))
        values.push_back(operand);
    return values;
  };

  // Block arguments of non-entry blocks come from their predecessors'
  // branches.
  auto visitSuccessorBlockArguments = [&](Block &block) {
    for (BlockArgument argument : block.getArguments()) {
      if (!isBufferType(argument.getType()))
        continue;
      for (auto it = block.pred_begin(), e = block.pred_end(); it != e; ++it) {
        auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
        if (!branch) {
          setUnknown(argument);
          continue;
        }
        SuccessorOperands operands =
            branch.getSuccessorOperands(it.getSuccessorIndex());
        if (operands.isOperandProduced(argument.getArgNumber())) {
          setUnknown(argument);
          continue;
        }
        Value forwarded = operands[argument.getArgNumber()];
        if (forwarded)
          addEdge(forwarded, argument);
        else
          setUnknown(argument);
      }
    }
  };

  // What flows into the results and entry arguments of a region op: its
  // operands and what its regions' terminators pass on (a superset of what
  // RegionBranchOpInterface says flows to each one).
  auto regionOpSources = [&](Operation *op) {
    SmallVector<Value> sources = bufferOperands(op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(
                block.getTerminator()))
          llvm::append_range(sources, bufferOperands(terminator));
    return sources;
  };

  Region &body = program.getFunctionBody();
  for (BlockArgument argument : body.getArguments()) {
    if (!isBufferType(argument.getType()))
      continue;
    Root root{RootKind::Argument, getMemoryKind(argument.getType()), {}, {}};
    root.argument = argument.getArgNumber();
    root.noAlias = static_cast<bool>(
        program.getArgAttr(argument.getArgNumber(), "llvm.noalias"));
    valueRoots[argument].push_back(addRoot(root));
  }
  for (Block &block : llvm::drop_begin(body.getBlocks()))
    visitSuccessorBlockArguments(block);

  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value result : op->getResults()) {
      if (!isBufferType(result.getType()))
        continue;
      if (allocates(op, result)) {
        valueRoots[result].push_back(addRoot(
            {RootKind::Allocation, getAllocationKind(op, result), result, {}}));
      } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
        valueRoots[result].push_back(getGlobalRoot(
            global.getNameAttr().getAttr(), getMemoryKind(result.getType())));
      } else if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
        valueRoots[result].push_back(getGlobalRoot(
            address.getGlobalNameAttr().getAttr(), MemoryKind::HostVisible));
      } else if (isa<RegionBranchOpInterface>(op)) {
        for (Value source : regionOpSources(op))
          addEdge(source, result);
      } else if (isa<CallOpInterface>(op)) {
        setUnknown(result);
      } else {
        // A buffer made from buffers (a view, a cast, a select) is their
        // memory; one read from memory (a pointer loaded from a stack slot,
        // as -O0 host code spills them) or made by an op that says nothing
        // of its effects may be any memory.
        SmallVector<Value> sources = bufferOperands(op);
        if (sources.empty() || mayReadMemory(op))
          setUnknown(result);
        else
          for (Value source : sources)
            addEdge(source, result);
      }
    }
    // Kernel bodies are device code: nothing there is a host buffer.
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      for (Block &block : llvm::drop_begin(region.getBlocks()))
        visitSuccessorBlockArguments(block);
      bool regionBranch = isa<RegionBranchOpInterface>(op);
      SmallVector<Value> sources;
      if (regionBranch)
        sources = regionOpSources(op);
      for (BlockArgument argument : region.front().getArguments()) {
        if (!isBufferType(argument.getType()))
          continue;
        if (!regionBranch)
          setUnknown(argument);
        for (Value source : sources)
          addEdge(source, argument);
      }
    }
    return WalkResult::advance();
  });

  // Propagate to a fixpoint.
  SmallVector<Value> worklist;
  for (auto &entry : derived)
    worklist.push_back(entry.first);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    auto it = derived.find(value);
    if (it == derived.end())
      continue;
    RootSet from = valueRoots.lookup(value);
    for (Value target : it->second)
      if (mergeInto(valueRoots[target], from))
        worklist.push_back(target);
  }

  // Addresses that leave as integers, in program order (an integer is used
  // after it is made): from the buffer's roots to what is computed from them.
  program->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Kernel bodies are device code.
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    Value source;
    if (auto extract = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op))
      source = extract.getSource();
    else if (auto toInt = dyn_cast<LLVM::PtrToIntOp>(op))
      source = toInt.getArg();
    if (source) {
      mergeInto(addressRoots[op->getResult(0)], getRoots(source));
      return WalkResult::advance();
    }
    RootSet carried;
    for (Value operand : op->getOperands()) {
      auto it = addressRoots.find(operand);
      if (it != addressRoots.end())
        mergeInto(carried, it->second);
    }
    if (!carried.empty())
      for (Value result : op->getResults())
        if (result.getType().isIntOrIndex())
          mergeInto(addressRoots[result], carried);
    return WalkResult::advance();
  });

  // Escapes, in host code and kernel bodies alike: a buffer whose address is
  // stored or packed, an integer address stored, packed, returned, turned
  // back into a pointer or passed through a block argument or region result
  // (where it is not followed).
  program.getFunctionBody().walk([&](Operation *op) {
    auto launch = op->getParentOfType<gpu::LaunchOp>();
    for (OpOperand &use : op->getOpOperands()) {
      Value value = use.get();
      // In a kernel body, only the host's buffers (captured) are ours.
      if (launch && launch.getBody().isAncestor(value.getParentRegion()))
        continue;
      if (isBufferType(value.getType())) {
        if (!isa<LLVM::PtrToIntOp, memref::ExtractAlignedPointerAsIndexOp>(
                op) &&
            escapesAt(use))
          mergeInto(escaped, getRoots(value));
        continue;
      }
      auto it = addressRoots.find(value);
      if (it == addressRoots.end())
        continue;
      // Back to a pointer (llvm.inttoptr): not followed either; what is
      // reached through it is unknown memory, which this buffer may be.
      bool leaves = escapesAt(use) ||
                    isa<LLVM::InsertValueOp, LLVM::IntToPtrOp>(op) ||
                    op->hasTrait<OpTrait::IsTerminator>() ||
                    op->hasTrait<OpTrait::ReturnLike>();
      if (leaves)
        mergeInto(escaped, it->second);
    }
  });
}

bool BufferAliasAnalysis::escapesAt(OpOperand &use) {
  Operation *user = use.getOwner();
  Value value = use.get();
  // Converted to an integer or packed into an aggregate.
  if (isa<LLVM::PtrToIntOp, memref::ExtractAlignedPointerAsIndexOp>(user))
    return true;
  if (auto insert = dyn_cast<LLVM::InsertValueOp>(user))
    return insert.getValue() == value;
  if (isa<UnrealizedConversionCastOp>(user))
    return llvm::any_of(user->getResultTypes(),
                        [](Type type) { return !isBufferType(type); });
  // Stored: the op writes memory, but not through this operand.
  auto effects = dyn_cast<MemoryEffectOpInterface>(user);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  bool writesElsewhere = false, touchesThis = false;
  for (const MemoryEffects::EffectInstance &instance : instances) {
    if (instance.getValue() == value)
      touchesThis = true;
    else if (instance.getValue() &&
             isa<MemoryEffects::Write>(instance.getEffect()))
      writesElsewhere = true;
  }
  return writesElsewhere && !touchesThis;
}
