//===- DataflowEmitter.cpp - A state's dataflow as kernels, loops, copies -===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A state's nodes run in topological order. A GPU_Device map becomes a
// gpu.launch, a host map an scf.for nest (MapEmitter.cpp). An edge between
// two access nodes is a copy (Copies.cpp), unless it binds a view
// (Views.cpp), which each scope binds at its start. Every GPU op
// carries the stream slot DaCe's stream assignment gives its node; the
// stream passes then place the waits between slots and the host syncs.
//
//===----------------------------------------------------------------------===//

#include "StateEmitter.h"
#include "Views.h"

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
    Value buffer;
    Value array = e.allocate(desc->second, e.inKernel, &buffer);
    if (!array)
      return failure();
    if (!e.inKernel)
      toFree.emplace_back(buffer, desc->second.storage == Storage::GPUGlobal);
    if (auto it = e.containers.find(n.data); it != e.containers.end())
      shadowed[n.data] = it->second;
    e.containers[n.data] = Container{&desc->second, array};
    local.push_back(n.data);
  }
  // Views of this scope, each after the view it views (if that is one).
  for (size_t i : scopes.order) {
    const Node &n = node(i);
    if (n.kind != Node::Kind::Access || scopes.parent[i] != entry ||
        !e.model.arrays.count(n.data) || !e.model.arrays.at(n.data).isView)
      continue;
    if (auto it = e.containers.find(n.data);
        it != e.containers.end() && !llvm::is_contained(local, n.data))
      shadowed[n.data] = it->second;
    if (!llvm::is_contained(local, n.data))
      local.push_back(n.data);
  }
  if (failed(bindViews(entry)))
    return failure();
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
            node(indexOf(edge.src)).kind == Node::Kind::Access &&
            !isViewEdge(e, state, edge))
          if (failed(emitCopy(edge)))
            return failure();
      // A copy out of the map (GT4Py writes a map's result from a scalar
      // transient this way): to the access node its memlet path ends at.
      for (const StateEdge &edge : state.edges) {
        if (edge.src != n.id || edge.memlet.data.empty() ||
            node(indexOf(edge.dst)).kind != Node::Kind::MapExit)
          continue;
        const StateEdge *step = &edge;
        const Node *end = &node(indexOf(edge.dst));
        while (end && end->kind == Node::Kind::MapExit) {
          llvm::StringRef in = step->dstConnector;
          const StateEdge *next = nullptr;
          if (in.consume_front("IN_"))
            for (const StateEdge &out : state.edges)
              if (out.src == end->id && out.srcConnector == ("OUT_" + in).str())
                next = &out;
          step = next;
          end = next ? &node(indexOf(next->dst)) : nullptr;
        }
        if (!end || end->kind != Node::Kind::Access) {
          e.error(edge.path) << "the copy from '" << n.data
                             << "' out of the map ends at no access node";
          return failure();
        }
        if (failed(emitCopy(edge, end)))
          return failure();
      }
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
