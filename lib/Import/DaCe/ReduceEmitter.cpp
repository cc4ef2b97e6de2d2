//===- ReduceEmitter.cpp - DaCe's Reduce library node as sdfg.reduce ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// dace.libraries.standard.nodes.reduce.Reduce over all axes with a Sum, Min
// or Max lambda is sdfg.reduce (over some axes: PartialReduce.cpp). sdfg.reduce overwrites its output; DaCe's
// node starts from `identity`, or, without one, accumulates into the output
// (reduce.py::ExpandReducePure), so those reduce into a temporary and
// combine it with the start value in a one-thread kernel (host code for
// host data).
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdfg;
using namespace mlir::sdfg::dace;

/// Whether `identity` is the neutral element of `kind` for `type`.
static bool isNeutral(ReductionKind kind, llvm::StringRef identity, Type type) {
  double value;
  llvm::StringRef text = identity.trim();
  if (text == "inf" || text == "math.inf" || text == "oo")
    value = INFINITY;
  else if (text == "-inf" || text == "-math.inf" || text == "-oo")
    value = -INFINITY;
  else if (text.getAsDouble(value))
    return false;
  switch (kind) {
  case ReductionKind::Add:
    return value == 0;
  case ReductionKind::Max:
    if (auto floatType = dyn_cast<FloatType>(type))
      return value <= -llvm::APFloat::getLargest(floatType.getFloatSemantics())
                           .convertToDouble();
    return value <= -std::ldexp(1.0, type.getIntOrFloatBitWidth() - 1);
  case ReductionKind::Min:
    if (auto floatType = dyn_cast<FloatType>(type))
      return value >= llvm::APFloat::getLargest(floatType.getFloatSemantics())
                          .convertToDouble();
    return value >= std::ldexp(1.0, type.getIntOrFloatBitWidth() - 1) - 1;
  }
  return false;
}

/// Whether `end` is `size - 1` as DaCe writes it ("-1 + N", "N - 1").
static bool isLastIndex(const PyExpr &end, const PyExpr &size) {
  if (end.kind != PyExpr::Kind::Binary)
    return false;
  const PyExpr &lhs = *end.operands[0], &rhs = *end.operands[1];
  auto isOne = [](const PyExpr &e) {
    return e.kind == PyExpr::Kind::Integer && e.intValue == 1;
  };
  auto isMinusOne = [&](const PyExpr &e) {
    return (e.kind == PyExpr::Kind::Integer && e.intValue == -1) ||
           (e.kind == PyExpr::Kind::Unary && e.op == PyExpr::Op::Neg &&
            isOne(*e.operands[0]));
  };
  if (end.op == PyExpr::Op::Sub)
    return isOne(rhs) && lhs.str() == size.str();
  if (end.op == PyExpr::Op::Add)
    return (isMinusOne(lhs) && rhs.str() == size.str()) ||
           (isMinusOne(rhs) && lhs.str() == size.str());
  return false;
}

/// Whether `subset` is all of `desc` (so that a row-major container can be
/// read as one contiguous run).
static bool coversWhole(const Subset &subset, const DataDesc &desc) {
  for (const SymExpr &offset : desc.offset)
    if (offset.expr->str() != "0")
      return false;
  if (subset.dims.size() != desc.shape.size())
    return false;
  for (auto [dim, size] : llvm::zip(subset.dims, desc.shape)) {
    if (dim.start.expr->str() != "0" || dim.step.expr->str() != "1")
      return false;
    if (!isLastIndex(*dim.end.expr, *size.expr) &&
        dim.end.expr->str() != size.expr->str() + " - 1")
      return false;
  }
  return true;
}

Value ProgramEmitter::reduceIdentity(const Node &reduce, Type type) {
  Location location = loc(reduce.path);
  llvm::StringRef text = llvm::StringRef(*reduce.reduceIdentity).trim();
  int64_t integer;
  if (isa<IntegerType>(type) && !text.getAsInteger(10, integer))
    return arith::ConstantIntOp::create(builder, location, type, integer);
  double value = 0;
  if (text == "inf" || text == "math.inf" || text == "oo")
    value = INFINITY;
  else if (text == "-inf" || text == "-math.inf" || text == "-oo")
    value = -INFINITY;
  else if (text.getAsDouble(value)) {
    error(reduce.path) << "Reduce node '" << reduce.label
                       << "' has the identity '" << text
                       << "', which is not a number";
    return {};
  }
  PyExpr identity{PyExpr::Kind::Float};
  identity.floatValue = value;
  return convert(emitExpression(identity, reduce.path), type, false, location)
      .value;
}

LogicalResult ProgramEmitter::emitReduce(const State &state,
                                         const Node &reduce) {
  Location location = loc(reduce.path);
  const StateEdge *in = nullptr, *out = nullptr;
  for (const StateEdge &edge : state.edges) {
    if (edge.dst == reduce.id && !edge.memlet.data.empty())
      in = &edge;
    if (edge.src == reduce.id && !edge.memlet.data.empty())
      out = &edge;
  }
  if (!in || !out) {
    error(reduce.path) << "Reduce node '" << reduce.label
                       << "' needs one input and one output memlet";
    return failure();
  }
  if (!reduce.reduceWcr || !reduce.reduceWcr->expr) {
    error(reduce.path) << "Reduce node '" << reduce.label << "' has no wcr";
    return failure();
  }
  auto input = containers.find(in->memlet.data);
  auto output = containers.find(out->memlet.data);
  if (input == containers.end() || output == containers.end()) {
    error(reduce.path) << "Reduce node '" << reduce.label
                       << "' uses an unknown container";
    return failure();
  }
  if (input->second.onGpu() != output->second.onGpu()) {
    error(reduce.path) << "Reduce node '" << reduce.label
                       << "' reads and writes different memories";
    return failure();
  }
  if (signlessType(output->second.desc->elementType) !=
      signlessType(input->second.desc->elementType)) {
    error(reduce.path) << "Reduce node '" << reduce.label
                       << "' changes the element type";
    return failure();
  }
  // Over some axes only: its own code (PartialReduce.cpp).
  if (reduce.reduceAxes) {
    SmallVector<unsigned> kept;
    Value view = boxView(input->second,
                         in->memlet.subset ? &*in->memlet.subset : nullptr,
                         location, &kept);
    if (!view)
      return failure();
    int64_t rank = input->second.desc->shape.size();
    for (int64_t axis : *reduce.reduceAxes)
      if (axis < 0 || axis >= rank) {
        error(reduce.path) << "Reduce node '" << reduce.label << "': axis "
                           << axis << " of a " << rank
                           << "-dimensional input";
        return failure();
      }
    // Axes of size one (dropped from the view) reduce nothing.
    SmallVector<bool> reduced;
    for (unsigned dim : kept)
      reduced.push_back(llvm::is_contained(*reduce.reduceAxes, dim));
    if (!llvm::all_of(reduced, [](bool r) { return r; })) {
      Value target = boxView(
          output->second, out->memlet.subset ? &*out->memlet.subset : nullptr,
          location);
      if (!target)
        return failure();
      return emitPartialReduce(
          reduce, view, reduced, target, input->second.onGpu(),
          input->second.desc->elementType.isUnsignedInteger());
    }
  }
  Type elementType = signlessType(input->second.desc->elementType);
  std::optional<arith::AtomicRMWKind> atomic = atomicKind(
      *reduce.reduceWcr, elementType,
      input->second.desc->elementType.isUnsignedInteger());
  std::optional<ReductionKind> kind;
  if (atomic == arith::AtomicRMWKind::addf ||
      atomic == arith::AtomicRMWKind::addi)
    kind = ReductionKind::Add;
  else if (atomic == arith::AtomicRMWKind::minnumf ||
           atomic == arith::AtomicRMWKind::mins)
    kind = ReductionKind::Min;
  else if (atomic == arith::AtomicRMWKind::maxnumf ||
           atomic == arith::AtomicRMWKind::maxs)
    kind = ReductionKind::Max;
  if (!kind) {
    error(reduce.path) << "Reduce node '" << reduce.label << "' with '"
                       << reduce.reduceWcr->text
                       << "' is not supported (sums, minima and maxima of "
                          "signed integers and floats are)";
    return failure();
  }
  // All of a row-major container is read as one run.
  bool whole = !in->memlet.subset ||
               coversWhole(*in->memlet.subset, *input->second.desc);
  auto containerMemRef = cast<MemRefType>(input->second.memref.getType());
  Value source = whole && containerMemRef.getLayout().isIdentity()
                     ? input->second.memref
                     : boxView(input->second,
                               in->memlet.subset ? &*in->memlet.subset
                                                 : nullptr,
                               location);
  Value target = boxView(output->second,
                         out->memlet.subset ? &*out->memlet.subset : nullptr,
                         location);
  if (!source || !target)
    return failure();
  auto sourceType = cast<MemRefType>(source.getType());
  if (sourceType.getRank() > 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t i = 0; i < sourceType.getRank(); ++i)
      all[0].push_back(i);
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(sourceType, all)) {
      error(reduce.path) << "Reduce node '" << reduce.label
                         << "' over a non-contiguous box is not supported";
      return failure();
    }
    source = memref::CollapseShapeOp::create(builder, location, source, all);
  }
  if (cast<MemRefType>(target.getType()).getRank() != 0) {
    error(reduce.path) << "Reduce node '" << reduce.label
                       << "' must write one element";
    return failure();
  }

  bool overwrite = reduce.reduceIdentity &&
                   isNeutral(*kind, *reduce.reduceIdentity, elementType);
  bool onGpu = input->second.onGpu();
  Value into = target;
  if (!overwrite) {
    auto tempType = cast<MemRefType>(target.getType());
    tempType = MemRefType::get({}, elementType, MemRefLayoutAttrInterface(),
                               tempType.getMemorySpace());
    into = onGpu ? gpu::AllocOp::create(builder, location, tempType, Type(),
                                        ValueRange(), ValueRange(),
                                        ValueRange())
                       .getMemref()
                 : memref::AllocOp::create(builder, location, tempType)
                       .getResult();
  }
  auto op = ReduceOp::create(builder, location, *kind, source, into, Value());
  if (onGpu)
    setSlot(op, reduce);
  if (overwrite)
    return success();

  // out = combine(start, reduced), start = identity or the old output.
  auto combine = [&]() -> LogicalResult {
    CValue reduced{
        memref::LoadOp::create(builder, location, into, ValueRange()), false};
    CValue start;
    if (reduce.reduceIdentity) {
      start = {reduceIdentity(reduce, elementType), false};
    } else {
      start = {memref::LoadOp::create(builder, location, target, ValueRange()),
               false};
    }
    if (!start)
      return failure();
    CValue combined = emitWcrCombine(*reduce.reduceWcr, start, reduced);
    if (!combined)
      return failure();
    memref::StoreOp::create(builder, location, combined.value, target,
                            ValueRange());
    return success();
  };
  if (!onGpu) {
    if (failed(combine()))
      return failure();
    memref::DeallocOp::create(builder, location, into);
    return success();
  }
  Value one = arith::ConstantIndexOp::create(builder, location, 1);
  auto launch =
      gpu::LaunchOp::create(builder, location, one, one, one, one, one, one);
  setSlot(launch, reduce);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&launch.getBody().front());
    bool saved = inKernel;
    inKernel = true;
    LogicalResult result = combine();
    inKernel = saved;
    if (failed(result))
      return failure();
    gpu::TerminatorOp::create(builder, location);
  }
  auto dealloc = gpu::DeallocOp::create(builder, location, TypeRange(),
                                        ValueRange(), into);
  setSlot(dealloc, reduce);
  return success();
}
