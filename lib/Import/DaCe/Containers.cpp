//===- Containers.cpp - DaCe data containers and arguments as memrefs -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A DaCe container becomes a memref: its storage picks the memory space,
// literal sizes stay static, and strides other than row-major give a
// strided layout whose strides the caller's descriptor carries. The
// argument list follows DaCe's C calling convention
// (dace/sdfg/sdfg.py::SDFG.arglist): non-transient arrays by name, then
// non-transient scalars and free symbols by name together.
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"
#include "SymbolicPolynomial.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

/// The integer value of a literal expression (`4`, `-1`, `4i64`).
static std::optional<int64_t> literal(const PyExpr &expr) {
  if (expr.kind == PyExpr::Kind::Integer)
    return expr.intValue;
  if (expr.kind == PyExpr::Kind::Unary && expr.op == PyExpr::Op::Neg)
    if (std::optional<int64_t> value = literal(*expr.operands[0]))
      return -*value;
  return std::nullopt;
}

/// Whether the strides are the row-major strides of the shape (DaCe's
/// default): each stride, expanded as a polynomial over the symbols, is the
/// product of the sizes inside it, however DaCe spelled the two (`N - 2`,
/// `-2 + $N`, `symbol($N, dtype=dace.int64) - 2`).
static bool isRowMajor(const DataDesc &desc) {
  if (!desc.explicitStrides)
    return true;
  std::optional<SymbolicPolynomial> expected = SymbolicPolynomial::constant(1);
  for (size_t i = desc.shape.size(); i-- > 0;) {
    std::optional<SymbolicPolynomial> stride =
        SymbolicPolynomial::get(*desc.strides[i].expr);
    if (!stride || !expected || *stride != *expected)
      return false;
    if (i == 0)
      break;
    std::optional<SymbolicPolynomial> size =
        SymbolicPolynomial::get(*desc.shape[i].expr);
    if (!size)
      return false;
    expected = expected->times(*size);
  }
  return true;
}

Type mlir::sdfg::dace::signlessType(Type type);

MemRefType mlir::sdfg::dace::containerType(const DataDesc &desc,
                                           MLIRContext *context) {
  Attribute memorySpace;
  if (desc.storage == Storage::GPUGlobal)
    memorySpace =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Global);
  Type elementType = signlessType(desc.elementType);
  if (desc.isScalar)
    return MemRefType::get({}, elementType, MemRefLayoutAttrInterface(),
                           memorySpace);
  SmallVector<int64_t> shape;
  for (const SymExpr &size : desc.shape) {
    std::optional<int64_t> value = literal(*size.expr);
    shape.push_back(value && *value >= 0 ? *value : ShapedType::kDynamic);
  }
  MemRefLayoutAttrInterface layout;
  if (!isRowMajor(desc) || desc.startOffset != 0) {
    // DaCe's strides, static where they are constants; DaCe's default
    // strides where the file has none (with a start offset).
    SmallVector<int64_t> strides;
    std::optional<SymbolicPolynomial> inner = SymbolicPolynomial::constant(1);
    for (size_t i = desc.shape.size(); i-- > 0;) {
      std::optional<SymbolicPolynomial> stride =
          desc.explicitStrides ? SymbolicPolynomial::get(*desc.strides[i].expr)
                               : inner;
      std::optional<int64_t> value =
          stride ? stride->getConstant() : std::nullopt;
      strides.insert(strides.begin(), value ? *value : ShapedType::kDynamic);
      std::optional<SymbolicPolynomial> size =
          SymbolicPolynomial::get(*desc.shape[i].expr);
      inner = inner && size ? inner->times(*size) : std::nullopt;
    }
    layout = StridedLayoutAttr::get(context, desc.startOffset, strides);
  }
  return MemRefType::get(shape, elementType, layout, memorySpace);
}

/// Adds the names an expression reads (not callees, attribute bases or
/// lambda parameters) to `names`.
static void collectNames(const PyExpr &expr, llvm::StringSet<> &names) {
  switch (expr.kind) {
  case PyExpr::Kind::Name:
    names.insert(expr.name);
    return;
  case PyExpr::Kind::Attribute:
    return;
  case PyExpr::Kind::Call:
    for (const PyExprPtr &operand : llvm::drop_begin(expr.operands))
      collectNames(*operand, names);
    for (const auto &keyword : expr.keywords)
      collectNames(*keyword.second, names);
    return;
  case PyExpr::Kind::Lambda: {
    llvm::StringSet<> inner;
    collectNames(*expr.operands[0], inner);
    for (const auto &name : inner)
      if (!llvm::is_contained(expr.params, name.getKey()))
        names.insert(name.getKey());
    return;
  }
  default:
    for (const PyExprPtr &operand : expr.operands)
      collectNames(*operand, names);
  }
}

namespace {
/// The symbols an SDFG reads and the ones it defines.
struct SymbolUses {
  llvm::StringSet<> used, defined;

  void read(const SymExpr &expr) {
    if (expr.expr)
      collectNames(*expr.expr, used);
  }
  void read(const std::vector<PyStatement> &statements) {
    forEachStatement(statements, [&](const PyStatement &statement) {
      if (statement.value)
        collectNames(*statement.value, used);
      if (statement.target && statement.target->kind == PyExpr::Kind::Name)
        defined.insert(statement.target->name);
    });
  }
  void read(const Subset &subset) {
    for (const RangeDim &dim : subset.dims) {
      read(dim.start);
      read(dim.end);
      read(dim.step);
    }
  }
  void read(const ControlFlowRegion &region) {
    for (const ControlFlowBlock &block : region.blocks) {
      for (const Node &node : block.state.nodes) {
        if (node.kind == Node::Kind::MapEntry) {
          read(node.range);
          for (const std::string &param : node.params)
            defined.insert(param);
        }
        // dace/sdfg/nodes.py::NestedSDFG.used_symbols: the mapping's values
        // of the inner symbols the nested SDFG uses itself (not those only
        // in the shapes of its non-transient arrays: GT4Py maps its fields'
        // range ends, which DaCe then passes to no one).
        if (node.kind == Node::Kind::NestedSDFG) {
          llvm::StringSet<> inner = usedSymbols(*node.nested->sdfg);
          for (const auto &mapping : node.nested->symbolMapping)
            if (inner.contains(mapping.first))
              read(mapping.second);
        }
        if (node.kind == Node::Kind::Tasklet)
          forEachStatement(node.statements, [&](const PyStatement &statement) {
            if (statement.value)
              collectNames(*statement.value, used);
            if (statement.target)
              collectNames(*statement.target, used);
          });
      }
      for (const StateEdge &edge : block.state.edges) {
        if (edge.memlet.subset)
          read(*edge.memlet.subset);
        if (edge.memlet.otherSubset)
          read(*edge.memlet.otherSubset);
      }
      if (block.kind == ControlFlowBlock::Kind::Loop) {
        read(block.init);
        read(block.update);
        read(block.loopCondition);
        if (!block.loopVariable.empty())
          defined.insert(block.loopVariable);
        read(*block.body);
      }
      for (const auto &branch : block.branches) {
        if (branch.first)
          read(*branch.first);
        read(*branch.second);
      }
    }
    for (const InterstateEdge &edge : region.edges) {
      read(edge.condition);
      for (const auto &[name, value] : edge.assignments) {
        read(value);
        defined.insert(name);
      }
    }
  }
};
} // namespace

llvm::StringSet<> mlir::sdfg::dace::usedSymbols(const SDFGModel &model) {
  SymbolUses uses;
  uses.read(model.cfg);
  for (const auto &[name, desc] : model.arrays) {
    // dace/data.py::Array.used_symbols: strides and offsets of every
    // container, shapes only of transients.
    for (const SymExpr &stride : desc.strides)
      uses.read(stride);
    for (const SymExpr &offset : desc.offset)
      uses.read(offset);
    if (desc.transient)
      for (const SymExpr &size : desc.shape)
        uses.read(size);
  }
  llvm::StringSet<> free;
  for (const auto &name : uses.used)
    if (!uses.defined.contains(name.getKey()))
      free.insert(name.getKey());
  return free;
}

std::vector<Argument>
mlir::sdfg::dace::programArguments(const SDFGModel &model) {
  llvm::StringSet<> used = usedSymbols(model);
  std::vector<Argument> arrays, scalars;
  for (const auto &[name, desc] : model.arrays) {
    if (desc.transient)
      continue;
    Argument argument{name, &desc, Type()};
    (desc.isScalar ? scalars : arrays).push_back(argument);
  }
  for (const auto &[name, type] : model.symbols)
    if (used.contains(name) && !model.arrays.count(name) &&
        !llvm::StringRef(name).starts_with("__dace"))
      scalars.push_back({name, nullptr, type});
  llvm::sort(scalars, [](const Argument &a, const Argument &b) {
    return a.name < b.name;
  });
  llvm::append_range(arrays, scalars);
  return arrays;
}

bool ProgramEmitter::isSingleElement(const Subset &subset) {
  for (const RangeDim &dim : subset.dims) {
    if (!dim.start.expr || !dim.end.expr)
      return false;
    if (dim.start.expr->str() != dim.end.expr->str())
      return false;
  }
  return true;
}

SmallVector<Value> ProgramEmitter::applyOffset(ArrayRef<Value> indices,
                                               const DataDesc &desc) {
  SmallVector<Value> result(indices.begin(), indices.end());
  for (auto [i, offset] : llvm::enumerate(desc.offset)) {
    if (i >= result.size())
      break;
    std::optional<int64_t> value = literal(*offset.expr);
    if (value && *value == 0)
      continue;
    Value amount = emitIndex(offset);
    if (!amount)
      return {};
    result[i] =
        builder.createOrFold<arith::AddIOp>(loc(offset.path), result[i], amount);
  }
  return result;
}

SmallVector<Value> ProgramEmitter::subsetStart(const Subset &subset,
                                               const DataDesc &desc) {
  SmallVector<Value> starts;
  for (const RangeDim &dim : subset.dims) {
    Value start = emitIndex(dim.start);
    if (!start)
      return {};
    starts.push_back(start);
  }
  return applyOffset(starts, desc);
}
