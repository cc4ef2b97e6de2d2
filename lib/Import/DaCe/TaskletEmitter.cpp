//===- TaskletEmitter.cpp - Tasklets and their memlets --------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A tasklet reads its inputs through the memlets on its in-edges (one
// element: a load at the subset's start; several or dynamic: the connector
// names the box, indexed by the code), runs its statements with C++
// semantics, and writes each output connector through its out-edge's
// memlet, converted to the container's element type. A write with
// write-conflict resolution is an atomic read-modify-write in a kernel
// when threads may collide (cpp.py::is_write_conflicted: a map parameter
// of the kernel missing from the subset), a plain one otherwise.
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

static void namesIn(const PyExpr &expr, llvm::StringSet<> &names) {
  if (expr.kind == PyExpr::Kind::Name)
    names.insert(expr.name);
  for (const PyExprPtr &operand : expr.operands)
    namesIn(*operand, names);
}

/// If `expr` is `c * p + e` for exactly one name `p` of `params`, an integer
/// c != 0 and `e` free of `params` (DaCe writes `symbol($p, dtype=...)` for
/// p), returns p and c: distinct values of p give distinct values.
static std::optional<std::pair<std::string, int64_t>>
affineInOneParam(const PyExpr &expr, ArrayRef<std::string> params) {
  auto free = [&](const PyExpr &operand) {
    llvm::StringSet<> names;
    namesIn(operand, names);
    return llvm::none_of(params, [&](const std::string &param) {
      return names.contains(param);
    });
  };
  switch (expr.kind) {
  case PyExpr::Kind::Name:
    if (llvm::is_contained(params, expr.name))
      return std::make_pair(expr.name, int64_t(1));
    return std::nullopt;
  case PyExpr::Kind::Call:
    if (expr.operands.size() == 2 &&
        expr.operands[0]->kind == PyExpr::Kind::Name &&
        expr.operands[0]->name == "symbol")
      return affineInOneParam(*expr.operands[1], params);
    return std::nullopt;
  case PyExpr::Kind::Unary: {
    auto inner = affineInOneParam(*expr.operands[0], params);
    if (inner && expr.op == PyExpr::Op::Neg)
      inner->second = -inner->second;
    if (expr.op == PyExpr::Op::Neg || expr.op == PyExpr::Op::Plus)
      return inner;
    return std::nullopt;
  }
  case PyExpr::Kind::Binary: {
    const PyExpr &lhs = *expr.operands[0], &rhs = *expr.operands[1];
    if (expr.op == PyExpr::Op::Add || expr.op == PyExpr::Op::Sub) {
      if (free(rhs))
        return affineInOneParam(lhs, params);
      if (!free(lhs))
        return std::nullopt;
      auto inner = affineInOneParam(rhs, params);
      if (inner && expr.op == PyExpr::Op::Sub)
        inner->second = -inner->second;
      return inner;
    }
    if (expr.op == PyExpr::Op::Mul) {
      const PyExpr *constant = &lhs, *other = &rhs;
      if (constant->kind != PyExpr::Kind::Integer)
        std::swap(constant, other);
      if (constant->kind != PyExpr::Kind::Integer || constant->intValue == 0)
        return std::nullopt;
      auto inner = affineInOneParam(*other, params);
      if (inner)
        inner->second *= constant->intValue;
      return inner;
    }
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

/// Whether threads of a GPU map with `params` may write the same element
/// through `memlet`: unless each parameter is pinned by a dimension of the
/// subset whose start is affine in that parameter alone (i, i + 1, 2 * i -
/// N), two threads may (i % 4, i // 2, i + j, a constant, a dynamic
/// memlet's whole range).
static bool mayCollide(const Memlet &memlet, ArrayRef<std::string> params) {
  if (!memlet.subset)
    return !params.empty();
  llvm::StringSet<> pinned;
  for (const RangeDim &dim : memlet.subset->dims)
    if (dim.start.expr)
      if (auto affine = affineInOneParam(*dim.start.expr, params))
        pinned.insert(affine->first);
  return llvm::any_of(params, [&](const std::string &param) {
    return !pinned.contains(param);
  });
}

namespace {
/// An output connector bound to one element.
struct ElementOutput {
  Container container;
  SmallVector<Value> indices;
  const Memlet *memlet;
};
} // namespace

LogicalResult mlir::sdfg::dace::storeElement(ProgramEmitter &e,
                                            const Container &target,
                                            ArrayRef<Value> indices,
                                            CValue value, const Memlet &memlet,
                                            bool inKernel, Location location) {
  OpBuilder &b = e.builder;
  if (target.onGpu() && !inKernel) {
    e.error(memlet.path) << "host code writes GPU container '"
                         << target.desc->name << "'";
    return failure();
  }
  Type elementType = target.desc->elementType;
  Type stored = signlessType(elementType);
  CValue converted = e.convert(value, stored,
                                   elementType.isUnsignedInteger(), location);
  if (!memlet.wcr) {
    memref::StoreOp::create(b, location, converted.value, target.memref,
                            indices);
    return success();
  }
  bool conflicted =
      inKernel && !memlet.wcrNonatomic && mayCollide(memlet, e.kernelParams);
  if (conflicted) {
    if (std::optional<arith::AtomicRMWKind> kind = e.atomicKind(
            *memlet.wcr, stored, elementType.isUnsignedInteger())) {
      memref::AtomicRMWOp::create(b, location, *kind, converted.value,
                                  target.memref, indices);
      return success();
    }
    auto generic = memref::GenericAtomicRMWOp::create(b, location,
                                                      target.memref, indices);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(generic.getBody());
    CValue old{generic.getCurrentValue(),
                   elementType.isUnsignedInteger()};
    CValue combined = e.emitWcrCombine(*memlet.wcr, old, converted);
    if (!combined)
      return failure();
    memref::AtomicYieldOp::create(b, location, combined.value);
    return success();
  }
  CValue old{memref::LoadOp::create(b, location, target.memref, indices),
                 elementType.isUnsignedInteger()};
  CValue combined = e.emitWcrCombine(*memlet.wcr, old, converted);
  if (!combined)
    return failure();
  memref::StoreOp::create(b, location, combined.value, target.memref, indices);
  return success();
}

LogicalResult ProgramEmitter::emitTasklet(const State &state,
                                          const Node &tasklet,
                                          bool kernel) {
  Location location = loc(tasklet.path);
  Scope scope;
  llvm::StringMap<ElementOutput> outputs;

  auto bind = [&](const StateEdge &edge, const std::string &connector,
                  bool isInput) -> LogicalResult {
    const Memlet &memlet = edge.memlet;
    if (memlet.data.empty() || connector.empty())
      return success();
    auto it = containers.find(memlet.data);
    if (it == containers.end()) {
      error(edge.path) << "tasklet '" << tasklet.label
                       << "' accesses the unknown container '" << memlet.data
                       << "'";
      return failure();
    }
    const Container &container = it->second;
    auto type = cast<MemRefType>(container.memref.getType());
    Subset whole;
    const Subset *subset = memlet.subset ? &*memlet.subset : &whole;
    if (!memlet.subset && type.getRank() > 0) {
      error(edge.path) << "memlet of '" << memlet.data << "' without a subset";
      return failure();
    }
    if (static_cast<int64_t>(subset->dims.size()) != type.getRank()) {
      error(subset->path) << "a " << subset->dims.size()
                          << "-dimensional subset of the " << type.getRank()
                          << "-dimensional '" << memlet.data << "'";
      return failure();
    }
    SmallVector<Value> start = subsetStart(*subset, *container.desc);
    if (start.size() != subset->dims.size())
      return failure();
    bool single = isSingleElement(*subset) && !memlet.dynamic;
    if (single && !isInput) {
      outputs[connector] = ElementOutput{container, start, &memlet};
      return success();
    }
    ArrayConnector array;
    array.memref = container.memref;
    array.desc = container.desc;
    array.base = start;
    for (auto [i, dim] : llvm::enumerate(subset->dims))
      if (!dim.start.expr || !dim.end.expr ||
          dim.start.expr->str() != dim.end.expr->str())
        array.freeDims.push_back(i);
    scope.arrays[connector] = array;
    return success();
  };

  for (const StateEdge &edge : state.edges) {
    if (edge.dst == tasklet.id) {
      const Memlet &memlet = edge.memlet;
      if (memlet.data.empty() || edge.dstConnector.empty())
        continue;
      auto it = containers.find(memlet.data);
      if (it == containers.end()) {
        error(edge.path) << "tasklet '" << tasklet.label
                         << "' reads the unknown container '" << memlet.data
                         << "'";
        return failure();
      }
      if (memlet.subset && isSingleElement(*memlet.subset) &&
          !memlet.dynamic) {
        // One element: loaded once, before the code runs.
        auto type = cast<MemRefType>(it->second.memref.getType());
        if (static_cast<int64_t>(memlet.subset->dims.size()) !=
            type.getRank()) {
          error(memlet.subset->path)
              << "a " << memlet.subset->dims.size()
              << "-dimensional subset of the " << type.getRank()
              << "-dimensional '" << memlet.data << "'";
          return failure();
        }
        SmallVector<Value> start =
            subsetStart(*memlet.subset, *it->second.desc);
        if (start.size() != memlet.subset->dims.size())
          return failure();
        PyExpr read{PyExpr::Kind::Subscript};
        read.operands.push_back(std::make_unique<PyExpr>());
        read.operands[0]->kind = PyExpr::Kind::Name;
        read.operands[0]->name = "__sdfg_element";
        Scope element;
        ArrayConnector array{it->second.memref, it->second.desc, start, {}};
        element.arrays["__sdfg_element"] = array;
        CValue value = emitExpression(read, edge.path, &element);
        if (!value)
          return failure();
        scope.values[edge.dstConnector] = value;
        continue;
      }
      if (!memlet.subset && cast<MemRefType>(it->second.memref.getType())
                                    .getRank() == 0) {
        PyExpr read{PyExpr::Kind::Name};
        read.name = memlet.data;
        CValue value = emitExpression(read, edge.path, nullptr);
        if (!value)
          return failure();
        scope.values[edge.dstConnector] = value;
        continue;
      }
      if (failed(bind(edge, edge.dstConnector, /*isInput=*/true)))
        return failure();
    }
  }
  for (const StateEdge &edge : state.edges)
    if (edge.src == tasklet.id && !edge.srcConnector.empty() &&
        !edge.memlet.data.empty()) {
      if (!edge.memlet.subset) {
        auto it = containers.find(edge.memlet.data);
        if (it != containers.end() &&
            cast<MemRefType>(it->second.memref.getType()).getRank() == 0) {
          outputs[edge.srcConnector] =
              ElementOutput{it->second, {}, &edge.memlet};
          continue;
        }
      }
      if (failed(bind(edge, edge.srcConnector, /*isInput=*/false)))
        return failure();
    }

  // The code; single-element outputs are written after it.
  llvm::StringMap<Type> outputTypes;
  for (auto &[connector, output] : outputs)
    outputTypes[connector] = output.container.desc->elementType;
  llvm::StringSet<> assigned;
  if (failed(emitTaskletCode(*this, state, tasklet, kernel, scope, outputTypes,
                             assigned)))
    return failure();

  for (auto &[connector, output] : outputs) {
    if (!assigned.contains(connector))
      continue;
    if (failed(storeElement(*this, output.container, output.indices,
                            scope.values[connector], *output.memlet, kernel,
                            location)))
      return failure();
  }
  return success();
}
