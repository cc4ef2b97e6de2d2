//===- DataflowEmitter.cpp - A state's dataflow as kernels, loops, copies -===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A state's nodes run in topological order. A GPU_Device map becomes a
// gpu.launch, a host map an scf.for nest (MapEmitter.cpp). An edge between
// two access nodes is a copy of the boxes its subsets describe (gpu.memcpy
// when either side is GPU memory, memref.copy otherwise). Every GPU op
// carries the stream slot DaCe's stream assignment gives its node; the
// stream passes then place the waits between slots and the host syncs.
//
//===----------------------------------------------------------------------===//

#include "StateEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

void ProgramEmitter::setSlot(Operation *op, const Node &owner) {
  auto it = nodeSlots.find(owner.id);
  int64_t slot = it == nodeSlots.end() ? 0 : it->second;
  usesGpu = true;
  numSlots = std::max(numSlots, slot + 1);
  if (slot != 0)
    op->setAttr("sdfg.stream_slot", builder.getI64IntegerAttr(slot));
}

Value ProgramEmitter::rangeSize(const RangeDim &dim, Location location) {
  OpBuilder &b = builder;
  Value start = emitIndex(dim.start);
  Value end = emitIndex(dim.end);
  Value step = emitIndex(dim.step);
  if (!start || !end || !step)
    return {};
  Value one = arith::ConstantIndexOp::create(b, location, 1);
  Value extent = b.createOrFold<arith::SubIOp>(
      location, b.createOrFold<arith::AddIOp>(location, end, one), start);
  Value size = b.createOrFold<arith::CeilDivSIOp>(location, extent, step);
  Value zero = arith::ConstantIndexOp::create(b, location, 0);
  return b.createOrFold<arith::MaxSIOp>(location, size, zero);
}

Value ProgramEmitter::boxView(const Container &container, const Subset *subset,
                            Location location,
                            SmallVectorImpl<unsigned> *keptDims) {
  OpBuilder &b = builder;
  auto type = cast<MemRefType>(container.memref.getType());
  if (type.getRank() == 0)
    return container.memref;
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> resultShape;
  if (subset) {
    if (static_cast<int64_t>(subset->dims.size()) != type.getRank()) {
      error(subset->path) << "a " << subset->dims.size()
                            << "-dimensional subset of the "
                            << type.getRank() << "-dimensional '"
                            << container.desc->name << "'";
      return {};
    }
    SmallVector<Value> starts = subsetStart(*subset, *container.desc);
    if (starts.size() != subset->dims.size())
      return {};
    for (auto [dim, start] : llvm::zip(subset->dims, starts)) {
      offsets.push_back(start);
      Value step = emitIndex(dim.step);
      if (!step)
        return {};
      strides.push_back(getAsOpFoldResult(step));
      if (dim.start.expr->str() == dim.end.expr->str()) {
        sizes.push_back(b.getIndexAttr(1));
        continue;
      }
      Value size = rangeSize(dim, location);
      if (!size)
        return {};
      OpFoldResult folded = getAsOpFoldResult(size);
      sizes.push_back(folded);
      std::optional<int64_t> constant = getConstantIntValue(folded);
      if (constant && *constant == 1)
        continue;
      if (keptDims)
        keptDims->push_back(offsets.size() - 1);
      resultShape.push_back(constant ? *constant : ShapedType::kDynamic);
    }
  } else {
    for (int64_t i = 0; i < type.getRank(); ++i) {
      offsets.push_back(b.getIndexAttr(0));
      strides.push_back(b.getIndexAttr(1));
      OpFoldResult size =
          type.isDynamicDim(i)
              ? OpFoldResult(memref::DimOp::create(b, location,
                                                   container.memref, i)
                                 .getResult())
              : OpFoldResult(b.getIndexAttr(type.getDimSize(i)));
      sizes.push_back(size);
      if (type.getDimSize(i) != 1) {
        if (keptDims)
          keptDims->push_back(i);
        resultShape.push_back(type.getDimSize(i));
      }
    }
  }
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      resultShape, type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, location, cast<MemRefType>(viewType),
                                   container.memref, offsets, sizes, strides);
}

LogicalResult StateEmitter::emitCopy(const StateEdge &edge) {
  const Node &srcNode = node(indexOf(edge.src));
  const Node &dstNode = node(indexOf(edge.dst));
  Location location = e.loc(edge.path);
  const Memlet &memlet = edge.memlet;
  if (memlet.data.empty())
    return success();
  if (memlet.wcr) {
    e.error(edge.path) << "a copy with write-conflict resolution from '"
                       << srcNode.data << "' to '" << dstNode.data
                       << "' is not supported";
    return failure();
  }
  auto src = e.containers.find(srcNode.data);
  auto dst = e.containers.find(dstNode.data);
  if (src == e.containers.end() || dst == e.containers.end()) {
    e.error(edge.path) << "copy between unknown containers '" << srcNode.data
                       << "' and '" << dstNode.data << "'";
    return failure();
  }
  const Subset *srcSubset = nullptr, *dstSubset = nullptr;
  const Subset *subset = memlet.subset ? &*memlet.subset : nullptr;
  const Subset *other = memlet.otherSubset ? &*memlet.otherSubset : nullptr;
  if (memlet.data == srcNode.data) {
    srcSubset = subset;
    dstSubset = other;
  } else if (memlet.data == dstNode.data) {
    dstSubset = subset;
    srcSubset = other;
  } else {
    e.error(edge.path) << "the memlet of a copy from '" << srcNode.data
                       << "' to '" << dstNode.data << "' names '"
                       << memlet.data << "'";
    return failure();
  }
  Value from = e.boxView(src->second, srcSubset, location);
  Value to = e.boxView(dst->second, dstSubset, location);
  if (!from || !to)
    return failure();
  auto fromType = cast<MemRefType>(from.getType());
  auto toType = cast<MemRefType>(to.getType());
  if (fromType.getRank() != toType.getRank() ||
      failed(verifyCompatibleShape(fromType.getShape(), toType.getShape()))) {
    e.error(edge.path) << "copy from '" << srcNode.data << "' to '"
                       << dstNode.data << "' between boxes of different shapes ("
                       << fromType << " and " << toType << ")";
    return failure();
  }
  // Inside a kernel (a nested SDFG's copies between its scalars and views):
  // each thread copies its box element by element.
  if (e.inKernel)
    return copyElements(e, from, to, location);
  if (src->second.onGpu() || dst->second.onGpu()) {
    auto copy = gpu::MemcpyOp::create(b, location, TypeRange(), ValueRange(),
                                      to, from);
    e.setSlot(copy, dstNode);
    return success();
  }
  memref::CopyOp::create(b, location, from, to);
  return success();
}

LogicalResult StateEmitter::emitScope(int64_t entry) {
  // Transients local to this scope are allocated at its start.
  llvm::StringMap<Container> shadowed;
  SmallVector<std::string> local;
  SmallVector<std::pair<Value, bool>> toFree;
  for (size_t i : scopes.order) {
    const Node &n = node(i);
    if (n.kind != Node::Kind::Access || !e.scopeLocal.contains(n.data) ||
        scopes.homeOf(n.data) != entry || llvm::is_contained(local, n.data))
      continue;
    auto desc = e.model.arrays.find(n.data);
    Value buffer = e.allocate(desc->second, e.inKernel);
    if (!buffer)
      return failure();
    if (!e.inKernel)
      toFree.emplace_back(buffer, desc->second.storage == Storage::GPUGlobal);
    if (auto it = e.containers.find(n.data); it != e.containers.end())
      shadowed[n.data] = it->second;
    e.containers[n.data] = Container{&desc->second, buffer};
    local.push_back(n.data);
  }
  llvm::scope_exit restore([&] {
    e.freeTransients(toFree, e.loc(entry < 0 ? block.path : node(entry).path));
    for (const std::string &name : local) {
      e.containers.erase(name);
      if (auto it = shadowed.find(name); it != shadowed.end())
        e.containers[name] = it->second;
    }
  });

  for (size_t i : scopes.order) {
    if (scopes.parent[i] != entry)
      continue;
    const Node &n = node(i);
    const Node *outer = e.currentNode;
    e.currentNode = &n;
    llvm::scope_exit leave([&] { e.currentNode = outer; });
    switch (n.kind) {
    case Node::Kind::Access:
      for (const StateEdge &edge : state.edges)
        if (edge.dst == n.id &&
            node(indexOf(edge.src)).kind == Node::Kind::Access)
          if (failed(emitCopy(edge)))
            return failure();
      break;
    case Node::Kind::MapEntry:
      if (failed(emitMap(i)))
        return failure();
      break;
    case Node::Kind::MapExit:
      break;
    case Node::Kind::Tasklet:
      if (failed(e.emitTasklet(state, n, e.inKernel)))
        return failure();
      break;
    case Node::Kind::NestedSDFG:
      if (failed(e.emitNestedSDFG(state, n)))
        return failure();
      break;
    case Node::Kind::Reduce:
      if (entry != -1 || e.inKernel) {
        e.error(n.path) << "Reduce node '" << n.label
                        << "' inside a map is not supported";
        return failure();
      }
      if (failed(e.emitReduce(state, n)))
        return failure();
      break;
    }
  }
  return success();
}

LogicalResult StateEmitter::emit() {
  FailureOr<StateScopes> analyzed = analyzeScopes(e, block);
  if (failed(analyzed))
    return failure();
  scopes = std::move(*analyzed);
  e.nodeSlots.clear();
  assignStreams(e.model, state, e.options.maxConcurrentStreams, e.nodeSlots);

  SmallVector<std::pair<Value, bool>> allocated;
  if (failed(e.allocateTransients(&block, allocated)))
    return failure();
  if (failed(emitScope(-1)))
    return failure();
  e.freeTransients(allocated, e.loc(block.path));
  return success();
}

LogicalResult ProgramEmitter::emitState(const ControlFlowBlock &state) {
  currentState = &state;
  llvm::scope_exit leave([&] {
    currentState = nullptr;
    currentNode = nullptr;
  });
  return StateEmitter(*this, state).emit();
}
