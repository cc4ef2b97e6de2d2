//===- Views.cpp - DaCe's views as memref views of what they alias --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A DaCe view (`ArrayView`, `View`: what `reshape`, a slice assigned to a
// name or an axis reduction into a slice make) allocates nothing. DaCe
// binds it where its access node is: the edge to the viewed access node
// (dace/sdfg/utils.py::get_view_edge) gives the viewed data and the subset
// viewed, and the view's pointer is the viewed pointer moved to the first
// element of that subset (dace/codegen/targets/cpu.py::CPUCodeGen.
// allocate_view, dace/codegen/targets/cpp.py::cpp_offset_expr). The view's
// own shape and strides then index from there. Here the same pointer is a
// memref.reinterpret_cast of the viewed memref, so the alias analysis sees
// one buffer, and the edge that binds a view copies nothing.
//
//===----------------------------------------------------------------------===//

#include "Views.h"
#include "StateEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

SmallVector<OpFoldResult> mlir::sdfg::dace::emitSizes(ProgramEmitter &e,
                                                      const DataDesc &desc) {
  SmallVector<OpFoldResult> sizes;
  for (const SymExpr &size : desc.shape) {
    Value value = e.emitIndex(size);
    if (!value)
      return {};
    sizes.push_back(getAsOpFoldResult(value));
  }
  return sizes;
}

SmallVector<OpFoldResult> mlir::sdfg::dace::emitStrides(ProgramEmitter &e,
                                                        const DataDesc &desc) {
  OpBuilder &b = e.builder;
  Location location = e.loc(desc.path);
  SmallVector<OpFoldResult> strides(desc.shape.size());
  if (desc.explicitStrides) {
    for (auto [stride, expr] : llvm::zip(strides, desc.strides)) {
      Value value = e.emitIndex(expr);
      if (!value)
        return {};
      stride = getAsOpFoldResult(value);
    }
    return strides;
  }
  // dace/data/core.py::Array: the default strides are row-major.
  Value product = arith::ConstantIndexOp::create(b, location, 1);
  for (size_t i = desc.shape.size(); i-- > 0;) {
    strides[i] = getAsOpFoldResult(product);
    if (i == 0)
      break;
    Value size = e.emitIndex(desc.shape[i]);
    if (!size)
      return {};
    product = b.createOrFold<arith::MulIOp>(location, product, size);
  }
  return strides;
}

/// Follows a memlet path through map entries and exits (IN_x to OUT_x),
/// upwards to its source (`up`) or downwards to its destination, as
/// dace/sdfg/state.py::memlet_path does.
static const Node *pathEnd(const State &state, const StateEdge &edge, bool up) {
  const StateEdge *current = &edge;
  for (size_t step = 0; step <= state.edges.size(); ++step) {
    const Node &end = state.nodes[state.byId.at(up ? current->src : current->dst)];
    if (end.kind != Node::Kind::MapEntry && end.kind != Node::Kind::MapExit)
      return &end;
    llvm::StringRef connector = up ? current->srcConnector : current->dstConnector;
    if (!connector.consume_front(up ? "OUT_" : "IN_"))
      return &end;
    std::string next = (up ? "IN_" : "OUT_") + connector.str();
    const StateEdge *found = nullptr;
    for (const StateEdge &candidate : state.edges)
      if ((up ? candidate.dst : candidate.src) == end.id &&
          (up ? candidate.dstConnector : candidate.srcConnector) == next) {
        found = &candidate;
        break;
      }
    if (!found)
      return &end;
    current = found;
  }
  return nullptr;
}

static bool isAccess(const Node *node) {
  return node && node->kind == Node::Kind::Access;
}

const StateEdge *mlir::sdfg::dace::findViewEdge(const State &state,
                                                const Node &view) {
  SmallVector<const StateEdge *> in, out;
  for (const StateEdge &edge : state.edges) {
    // Empty (synchronization) memlets do not bind a view.
    if (edge.dst == view.id && !edge.memlet.data.empty())
      in.push_back(&edge);
    if (edge.src == view.id)
      out.push_back(&edge);
  }
  if (in.empty() && out.empty())
    return nullptr;
  if (in.size() == 1 && out.size() != 1)
    return isAccess(pathEnd(state, *in[0], true)) ? in[0] : nullptr;
  if (out.size() == 1 && in.size() != 1)
    return isAccess(pathEnd(state, *out[0], false)) ? out[0] : nullptr;
  if (in.size() != 1 || out.size() != 1)
    return nullptr;
  const StateEdge *inEdge = in[0], *outEdge = out[0];
  bool srcIsData = isAccess(pathEnd(state, *inEdge, true));
  bool dstIsData = isAccess(pathEnd(state, *outEdge, false));
  if (srcIsData != dstIsData)
    return srcIsData ? inEdge : outEdge;
  if (!srcIsData)
    return nullptr;
  if (inEdge->dstConnector == "views")
    return inEdge;
  if (outEdge->srcConnector == "views")
    return outEdge;
  bool inNamesView = inEdge->memlet.data == view.data;
  bool outNamesView = outEdge->memlet.data == view.data;
  if (inNamesView && outNamesView)
    return nullptr;
  if (inNamesView != outNamesView)
    return inNamesView ? outEdge : inEdge;
  // The access node in the outer scope is the viewed one; in one scope the
  // input.
  if (state.nodes[state.byId.at(inEdge->src)].kind == Node::Kind::MapEntry)
    return inEdge;
  if (state.nodes[state.byId.at(outEdge->dst)].kind == Node::Kind::MapExit)
    return outEdge;
  return inEdge;
}

const Node *mlir::sdfg::dace::viewedNode(const State &state, const Node &view,
                                         const StateEdge &edge) {
  const Node *end = pathEnd(state, edge, /*up=*/edge.dst == view.id);
  return isAccess(end) ? end : nullptr;
}

bool mlir::sdfg::dace::isViewEdge(const ProgramEmitter &e, const State &state,
                                  const StateEdge &edge) {
  for (int64_t id : {edge.src, edge.dst}) {
    const Node &node = state.nodes[state.byId.at(id)];
    if (node.kind != Node::Kind::Access)
      continue;
    auto desc = e.model.arrays.find(node.data);
    if (desc != e.model.arrays.end() && desc->second.isView &&
        findViewEdge(state, node) == &edge)
      return true;
  }
  return false;
}

/// The offset and strides of `memref` (static where its type says them),
/// read by `metadata` where they are not.
static std::pair<OpFoldResult, SmallVector<OpFoldResult>>
stridesAndOffset(OpBuilder &b, Location location, Value memref,
                 memref::ExtractStridedMetadataOp &metadata) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset = ShapedType::kDynamic;
  if (failed(type.getStridesAndOffset(strides, offset)))
    strides.assign(type.getRank(), ShapedType::kDynamic);
  auto get = [&](int64_t value, auto dynamic) -> OpFoldResult {
    if (!ShapedType::isDynamic(value))
      return b.getIndexAttr(value);
    if (!metadata)
      metadata = memref::ExtractStridedMetadataOp::create(b, location, memref);
    return dynamic(metadata);
  };
  SmallVector<OpFoldResult> result;
  for (auto [i, stride] : llvm::enumerate(strides))
    result.push_back(get(stride, [i = i](memref::ExtractStridedMetadataOp op) {
      return Value(op.getStrides()[i]);
    }));
  OpFoldResult start = get(offset, [](memref::ExtractStridedMetadataOp op) {
    return Value(op.getOffset());
  });
  return {start, result};
}

Value mlir::sdfg::dace::bindView(ProgramEmitter &e, const State &state,
                                 const Node &view) {
  OpBuilder &b = e.builder;
  Location location = e.loc(view.path);
  const DataDesc &desc = e.model.arrays.at(view.data);
  const StateEdge *edge = findViewEdge(state, view);
  const Node *viewed = edge ? viewedNode(state, view, *edge) : nullptr;
  if (!viewed) {
    e.error(view.path) << "view '" << view.data
                       << "' is bound to no data: DaCe's rules find no single "
                          "edge from its access node to the access node of "
                          "the data it views";
    return {};
  }
  // Defensive: the viewed access node is in this scope or an outer one, so
  // its data is bound by now.
  auto container = e.containers.find(viewed->data);
  if (container == e.containers.end() || !container->second.memref) {
    e.error(edge->path) << "view '" << view.data << "' views '"
                        << viewed->data << "', which has no buffer here";
    return {};
  }
  const DataDesc &viewedDesc = *container->second.desc;
  Value source = container->second.memref;
  auto sourceType = cast<MemRefType>(source.getType());
  if (signlessType(desc.elementType) != sourceType.getElementType()) {
    e.error(desc.path) << "view '" << view.data << "' of element type "
                       << desc.elementType << " views '" << viewed->data
                       << "' of element type " << viewedDesc.elementType
                       << ", which is not supported";
    return {};
  }
  // The subset viewed: the memlet's own subset when it names the viewed
  // data; when it names the view, its other subset (or all of the data).
  const Memlet &memlet = edge->memlet;
  const Subset *subset = nullptr;
  if (memlet.data == viewed->data) {
    subset = memlet.subset ? &*memlet.subset : nullptr;
  } else if (memlet.data == view.data) {
    subset = memlet.otherSubset ? &*memlet.otherSubset : nullptr;
  } else {
    e.error(edge->path) << "the memlet that binds view '" << view.data
                        << "' names '" << memlet.data << "', neither the view "
                        << "nor '" << viewed->data << "'";
    return {};
  }
  memref::ExtractStridedMetadataOp metadata;
  auto [offset, strides] = stridesAndOffset(b, location, source, metadata);
  int64_t rank = sourceType.getRank();
  if (rank > 0) {
    if (subset && static_cast<int64_t>(subset->dims.size()) != rank) {
      e.error(subset->path) << "a " << subset->dims.size()
                            << "-dimensional subset of the " << rank
                            << "-dimensional '" << viewed->data << "'";
      return {};
    }
    SmallVector<Value> starts;
    if (subset) {
      starts = e.subsetStart(*subset, viewedDesc);
    } else {
      SmallVector<Value> zeros(rank,
                               arith::ConstantIndexOp::create(b, location, 0));
      starts = e.applyOffset(zeros, viewedDesc);
    }
    if (static_cast<int64_t>(starts.size()) != rank)
      return {};
    Value linear = getValueOrCreateConstantIndexOp(b, location, offset);
    for (auto [start, stride] : llvm::zip(starts, strides)) {
      Value step = getValueOrCreateConstantIndexOp(b, location, stride);
      linear = b.createOrFold<arith::AddIOp>(
          location, linear,
          b.createOrFold<arith::MulIOp>(location, start, step));
    }
    offset = getAsOpFoldResult(linear);
  }

  SmallVector<OpFoldResult> sizes = emitSizes(e, desc);
  SmallVector<OpFoldResult> viewStrides = emitStrides(e, desc);
  if (sizes.size() != desc.shape.size() ||
      viewStrides.size() != desc.shape.size())
    return {};
  auto cast = memref::ReinterpretCastOp::create(b, location, source, offset,
                                                sizes, viewStrides);
  // The strides of a subset that starts at 0 are not needed.
  if (metadata && metadata->use_empty())
    metadata->erase();
  e.containers[view.data] = Container{&desc, cast.getResult()};
  return cast.getResult();
}

LogicalResult StateEmitter::bindViews(int64_t entry) {
  auto isView = [&](const Node &n) {
    auto desc = e.model.arrays.find(n.data);
    return n.kind == Node::Kind::Access && desc != e.model.arrays.end() &&
           desc->second.isView;
  };
  // A view of a view of this scope is bound after the view it views.
  llvm::DenseSet<size_t> done, active;
  std::function<LogicalResult(size_t)> bind = [&](size_t i) -> LogicalResult {
    if (done.contains(i))
      return success();
    const Node &n = node(i);
    if (!active.insert(i).second) {
      e.error(n.path) << "view '" << n.data
                      << "' views itself through other views";
      return failure();
    }
    if (const StateEdge *edge = findViewEdge(state, n))
      if (const Node *viewed = viewedNode(state, n, *edge)) {
        size_t j = indexOf(viewed->id);
        if (isView(*viewed) && scopes.parent[j] == entry &&
            failed(bind(j)))
          return failure();
      }
    const Node *outer = e.currentNode;
    e.currentNode = &n;
    Value view = bindView(e, state, n);
    e.currentNode = outer;
    if (!view)
      return failure();
    done.insert(i);
    return success();
  };
  for (size_t i : scopes.order)
    if (scopes.parent[i] == entry && isView(node(i)) && failed(bind(i)))
      return failure();
  return success();
}
