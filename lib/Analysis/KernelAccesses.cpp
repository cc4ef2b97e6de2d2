//===- KernelAccesses.cpp - What kernels write, and which device globals --===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The kernel write analysis follows a buffer through the kernel body
// (views, branches, region ops) and stops at the first op that may write
// it; an op that declares no effects is taken to write. Device globals are
// found through the symbols device code and the device functions it calls
// use.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/HostGpuAccesses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sdfg;

/// Returns true if `op` may write `value` (one of its operands).
static bool mayWriteOperand(Operation *op, Value value) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()) &&
           (!e.getValue() || e.getValue() == value);
  });
}

/// Returns true if code in `scope` may write the memory of `buffer` (through
/// `buffer` itself or anything made from it in `scope`).
bool mlir::sdfg::regionMayWrite(Region &scope, Value buffer) {
  llvm::SetVector<Value> reached;
  reached.insert(buffer);
  auto reach = [&](ValueRange values) {
    for (Value value : values)
      if (isBufferType(value.getType()))
        reached.insert(value);
  };
  for (unsigned i = 0; i < reached.size(); ++i) {
    Value value = reached[i];
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (!scope.isAncestor(user->getParentRegion()))
        continue;
      // Written, or its address leaves what is followed here (spilled to a
      // stack slot and reloaded, turned into an integer and back, packed
      // into a struct, passed to a call): it may be written.
      if (mayWriteOperand(user, value) ||
          BufferAliasAnalysis::escapesAt(use) || isa<CallOpInterface>(user))
        return true;
      reach(user->getResults());
      if (auto branch = dyn_cast<BranchOpInterface>(user))
        for (Block *successor : branch->getSuccessors())
          reach(successor->getArguments());
      if (isa<RegionBranchTerminatorOpInterface>(user)) {
        Operation *parent = user->getParentOp();
        reach(parent->getResults());
        for (Region &region : parent->getRegions())
          if (!region.empty())
            reach(region.front().getArguments());
      }
      for (Region &region : user->getRegions())
        if (!region.empty())
          reach(region.front().getArguments());
    }
  }
  return false;
}

bool HostGpuAccesses::kernelMayWrite(Operation *kernel, unsigned index) {
  auto [it, inserted] = kernelWrites.try_emplace({kernel, index}, true);
  if (!inserted)
    return it->second;
  auto function = dyn_cast<FunctionOpInterface>(kernel);
  if (!function || function.isExternal() ||
      index >= function.getNumArguments())
    return true;
  bool writes = regionMayWrite(function.getFunctionBody(),
                           function.getArgument(index));
  kernelWrites[{kernel, index}] = writes;
  return writes;
}

SmallVector<std::pair<Attribute, bool>>
HostGpuAccesses::deviceGlobalsOf(Region &region) {
  SmallVector<std::pair<Attribute, bool>> globals;
  SmallVector<Region *> worklist{&region};
  DenseSet<Region *> visited{&region};
  while (!worklist.empty()) {
    Region *current = worklist.pop_back_val();
    current->walk([&](Operation *op) {
      SymbolRefAttr symbol;
      if (auto get = dyn_cast<memref::GetGlobalOp>(op))
        symbol = get.getNameAttr();
      else if (auto address = dyn_cast<LLVM::AddressOfOp>(op))
        symbol = address.getGlobalNameAttr();
      if (symbol) {
        Operation *global =
            symbolTables.lookupNearestSymbolFrom(op, symbol);
        auto module = global ? global->getParentOfType<gpu::GPUModuleOp>()
                             : gpu::GPUModuleOp();
        if (!module)
          return;
        Attribute name = SymbolRefAttr::get(
            module.getNameAttr(),
            {FlatSymbolRefAttr::get(cast<SymbolOpInterface>(global)
                                        .getNameAttr())});
        bool write = regionMayWrite(*current, op->getResult(0));
        auto it = llvm::find_if(globals, [&](auto &entry) {
          return entry.first == name;
        });
        if (it == globals.end())
          globals.push_back({name, write});
        else
          it->second |= write;
        return;
      }
      // Device functions the code calls.
      if (auto call = dyn_cast<CallOpInterface>(op))
        if (auto callee = dyn_cast_or_null<FunctionOpInterface>(
                call.resolveCallableInTable(&symbolTables)))
          if (!callee.isExternal() &&
              visited.insert(&callee.getFunctionBody()).second)
            worklist.push_back(&callee.getFunctionBody());
    });
  }
  return globals;
}
