//===- Copies.cpp - Copies between access nodes as DaCe shapes them -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// An edge between two access nodes copies the box its memlet's subset
// describes into the box its other subset describes (gpu.memcpy when either
// side is GPU memory, memref.copy otherwise), dimensions of size one
// dropped. Without an other subset the far side is the whole other
// container, and DaCe copies the subset's box to its start whatever the
// container's size (dace/codegen/targets/cpp.py::
// memlet_copy_to_absolute_strides): into the container's own dimensions of
// size other than one when there are as many of them as the box has, along
// its first such dimension when the box is a line
// (dace/codegen/targets/cpp.py::ndcopy_to_strided_copy), else into its
// memory as a row-major array of the box's shape
// (dace/codegen/targets/cpp.py::reshape_strides).
//
//===----------------------------------------------------------------------===//

#include "StateEmitter.h"
#include "SymbolicPolynomial.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

/// Size `i` of a memref value (static where its type says it).
static OpFoldResult sizeOf(OpBuilder &b, Location location, Value memref,
                           int64_t i) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(i))
    return b.getIndexAttr(type.getDimSize(i));
  return memref::DimOp::create(b, location, memref, i).getResult();
}

/// Whether every dimension of `subset` is as long as the container's
/// (as polynomials; false where that cannot be shown).
static bool coversWhole(const Subset &subset, const DataDesc &desc) {
  if (subset.dims.size() != desc.shape.size())
    return false;
  for (auto [dim, size] : llvm::zip(subset.dims, desc.shape)) {
    std::optional<SymbolicPolynomial> start =
        SymbolicPolynomial::get(*dim.start.expr);
    std::optional<SymbolicPolynomial> end =
        SymbolicPolynomial::get(*dim.end.expr);
    std::optional<SymbolicPolynomial> whole =
        SymbolicPolynomial::get(*size.expr);
    std::optional<SymbolicPolynomial> step =
        dim.step.expr ? SymbolicPolynomial::get(*dim.step.expr)
                      : SymbolicPolynomial::constant(1);
    if (!start || !end || !whole || !step || step->getConstant() != 1)
      return false;
    std::optional<SymbolicPolynomial> length =
        end->minus(*start)->plus(SymbolicPolynomial::constant(1));
    if (!length || *length != *whole)
      return false;
  }
  return true;
}

/// The part of the whole container `full` that a copy of the box `box`
/// (the subset side, dimensions of size one dropped, `subsetRank` the rank
/// of its container) without an other subset reaches, as DaCe places it.
static Value placeInWhole(ProgramEmitter &e, const Container &full,
                          Value box, int64_t subsetRank, Location location) {
  OpBuilder &b = e.builder;
  auto fullType = cast<MemRefType>(full.memref.getType());
  auto boxType = cast<MemRefType>(box.getType());
  int64_t rank = fullType.getRank();
  if (rank == 0)
    return full.memref;
  SmallVector<int64_t> kept;
  for (int64_t i = 0; i < rank; ++i)
    if (fullType.getDimSize(i) != 1)
      kept.push_back(i);
  SmallVector<OpFoldResult> boxSizes;
  for (int64_t i = 0; i < boxType.getRank(); ++i)
    boxSizes.push_back(sizeOf(b, location, box, i));
  // A line: along the container's first dimension of size other than one.
  if (boxType.getRank() == 1 && subsetRank == rank && !kept.empty())
    kept.resize(1);
  if (static_cast<int64_t>(kept.size()) == boxType.getRank()) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes(rank, b.getIndexAttr(1));
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    SmallVector<int64_t> shape;
    for (auto [dim, size] : llvm::zip(kept, boxSizes)) {
      sizes[dim] = size;
      std::optional<int64_t> constant = getConstantIntValue(size);
      shape.push_back(constant ? *constant : ShapedType::kDynamic);
    }
    auto type = memref::SubViewOp::inferRankReducedResultType(
        shape, fullType, offsets, sizes, strides);
    return memref::SubViewOp::create(b, location, cast<MemRefType>(type),
                                     full.memref, offsets, sizes, strides);
  }
  // Otherwise the box's shape, row-major, from the container's start.
  SmallVector<int64_t> fullStrides;
  int64_t fullOffset = ShapedType::kDynamic;
  if (failed(fullType.getStridesAndOffset(fullStrides, fullOffset)))
    fullOffset = ShapedType::kDynamic;
  OpFoldResult offset =
      ShapedType::isDynamic(fullOffset)
          ? OpFoldResult(memref::ExtractStridedMetadataOp::create(
                             b, location, full.memref)
                             .getOffset())
          : OpFoldResult(b.getIndexAttr(fullOffset));
  SmallVector<OpFoldResult> strides(boxSizes.size());
  Value product = arith::ConstantIndexOp::create(b, location, 1);
  for (size_t i = boxSizes.size(); i-- > 0;) {
    strides[i] = getAsOpFoldResult(product);
    product = b.createOrFold<arith::MulIOp>(
        location, product,
        getValueOrCreateConstantIndexOp(b, location, boxSizes[i]));
  }
  return memref::ReinterpretCastOp::create(b, location, full.memref, offset,
                                           boxSizes, strides);
}

LogicalResult StateEmitter::emitCopy(const StateEdge &edge,
                                     const Node *destination) {
  const Node &srcNode = node(indexOf(edge.src));
  const Node &dstNode = destination ? *destination : node(indexOf(edge.dst));
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
  // Without an other subset the whole other container takes the subset's
  // box at its start, unless it is provably that box's size.
  bool fromWhole = !srcSubset;
  const Container &whole = fromWhole ? src->second : dst->second;
  bool place = subset && !other && !coversWhole(*subset, *whole.desc);
  Value from, to;
  if (place) {
    Value box = e.boxView(fromWhole ? dst->second : src->second, subset,
                          location);
    if (!box)
      return failure();
    Value placed = placeInWhole(e, whole, box,
                                static_cast<int64_t>(subset->dims.size()),
                                location);
    from = fromWhole ? placed : box;
    to = fromWhole ? box : placed;
  } else {
    from = e.boxView(src->second, srcSubset, location);
    to = e.boxView(dst->second, dstSubset, location);
  }
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
  // Inside a kernel (a nested SDFG's copies between its scalars and views)
  // each thread copies its box element by element; between element types
  // DaCe's CopyND assigns element by element, converting each (host only
  // here).
  bool fromUnsigned = src->second.desc->elementType.isUnsignedInteger();
  bool toUnsigned = dst->second.desc->elementType.isUnsignedInteger();
  bool converting = fromType.getElementType() != toType.getElementType();
  if (e.inKernel)
    return copyElements(e, from, to, location, fromUnsigned, toUnsigned);
  if (converting && (src->second.onGpu() || dst->second.onGpu())) {
    e.error(edge.path) << "copy from '" << srcNode.data << "' to '"
                       << dstNode.data
                       << "' converts between element types ("
                       << fromType.getElementType() << " and "
                       << toType.getElementType()
                       << "), which is supported between host containers "
                          "only";
    return failure();
  }
  if (converting)
    return copyElements(e, from, to, location, fromUnsigned, toUnsigned);
  if (src->second.onGpu() || dst->second.onGpu()) {
    auto copy = gpu::MemcpyOp::create(b, location, TypeRange(), ValueRange(),
                                      to, from);
    e.setSlot(copy, dstNode);
    return success();
  }
  memref::CopyOp::create(b, location, from, to);
  return success();
}
