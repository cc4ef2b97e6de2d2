//===- BufferAliasQueries.cpp - What the alias analysis answers -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The queries of BufferAliasAnalysis on the roots it solved
// (BufferAliasAnalysis.cpp): the roots of a value or an address integer,
// whether two root sets may alias, whether a value is GPU-only memory, and
// a root as a reader sees it.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/BufferAliasAnalysis.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::sdfg;

const BufferAliasAnalysis::RootSet &
BufferAliasAnalysis::getAddressRoots(Value value) const {
  static const RootSet none;
  auto it = addressRoots.find(value);
  return it == addressRoots.end() ? none : it->second;
}

const BufferAliasAnalysis::RootSet &
BufferAliasAnalysis::getRoots(Value value) const {
  auto it = valueRoots.find(value);
  if (it == valueRoots.end() || it->second.empty())
    return unknown;
  return it->second;
}

bool BufferAliasAnalysis::mayAlias(unsigned a, unsigned b) const {
  if (a == b)
    return true;
  const Root &ra = roots[a], &rb = roots[b];
  // Unknown memory may be anything, also memory based on a noalias
  // argument (a pointer an accessor function returned for it).
  if (ra.kind == RootKind::Unknown || rb.kind == RootKind::Unknown)
    return true;
  if ((ra.kind == RootKind::Argument && ra.noAlias) ||
      (rb.kind == RootKind::Argument && rb.noAlias))
    return false;
  auto external = [](const Root &root) {
    return root.kind == RootKind::Argument || root.kind == RootKind::Global;
  };
  // Arguments may be the same buffer as each other or as a global, within
  // one memory class; distinct allocations and distinct globals never are.
  return ra.memory == rb.memory && external(ra) && external(rb) &&
         !(ra.kind == RootKind::Global && rb.kind == RootKind::Global);
}

bool BufferAliasAnalysis::mayAlias(ArrayRef<unsigned> a,
                                   ArrayRef<unsigned> b) const {
  for (unsigned x : a)
    for (unsigned y : b)
      if (mayAlias(x, y))
        return true;
  return false;
}

bool BufferAliasAnalysis::isDeviceOnly(Value value) const {
  // Every buffer it may be must be GPU memory, whatever the view's type: a
  // view in a GPU memory space of host memory (memref.memory_space_cast of
  // a host buffer mapped for the GPU) is memory the host reads and writes,
  // and so is a view of an unknown buffer; gpu.alloc in the default memory
  // space is GPU memory.
  return llvm::all_of(getRoots(value), [&](unsigned root) {
    return roots[root].memory == MemoryKind::Device;
  });
}

void BufferAliasAnalysis::printRoot(unsigned id, raw_ostream &os,
                                    AsmState &asmState) const {
  const Root &root = roots[id];
  switch (root.kind) {
  case RootKind::Unknown:
    os << "unknown";
    return;
  case RootKind::Allocation:
    os << "alloc";
    if (root.allocation) {
      os << " ";
      root.allocation.printAsOperand(os, asmState);
    }
    break;
  case RootKind::Global:
    if (auto name = dyn_cast_if_present<StringAttr>(root.global))
      os << "global @" << name.getValue();
    else
      os << "global " << root.global;
    break;
  case RootKind::Argument:
    os << "arg " << root.argument << (root.noAlias ? " noalias" : "");
    break;
  }
  if (root.memory == MemoryKind::Device)
    os << " device";
}
