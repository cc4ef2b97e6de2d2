//===- Transients.cpp - Where DaCe's transients live, and their buffers ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// DaCe allocates a transient of lifetime Scope for the innermost state or
// scope that holds all its uses (framecode.py::DaCeCodeGenerator.
// determine_allocation_lifetime). Here: a transient used only inside map
// scopes lives in the innermost scope that holds its uses (a register or
// local array, per thread in a kernel); one used in a single state lives
// for each execution of that state; any other, and every transient of
// another lifetime, for the whole call. GPU transients are stream-ordered
// gpu.alloc / gpu.dealloc, which sdfg-add-external-gpu-stream puts on the
// caller's stream, as DaCe's `pool: true` asks.
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"
#include "StateScopes.h"
#include "Views.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

static void collectStates(const ControlFlowRegion &region,
                          SmallVectorImpl<const ControlFlowBlock *> &states) {
  for (const ControlFlowBlock &block : region.blocks) {
    if (block.kind == ControlFlowBlock::Kind::State)
      states.push_back(&block);
    if (block.body)
      collectStates(*block.body, states);
    for (const auto &branch : block.branches)
      collectStates(*branch.second, states);
  }
}

static void namesOf(const PyExpr &expr, llvm::StringSet<> &names) {
  if (expr.kind == PyExpr::Kind::Name)
    names.insert(expr.name);
  for (const PyExprPtr &operand : expr.operands)
    namesOf(*operand, names);
}

static void collectControlFlowReads(const ControlFlowRegion &region,
                                    llvm::StringSet<> &names) {
  for (const InterstateEdge &edge : region.edges) {
    if (edge.condition.expr)
      namesOf(*edge.condition.expr, names);
    for (const auto &assignment : edge.assignments)
      namesOf(*assignment.second.expr, names);
  }
  for (const ControlFlowBlock &block : region.blocks) {
    if (block.loopCondition.expr)
      namesOf(*block.loopCondition.expr, names);
    for (const auto *statements : {&block.init, &block.update})
      forEachStatement(*statements, [&](const PyStatement &statement) {
        if (statement.value)
          namesOf(*statement.value, names);
      });
    if (block.body)
      collectControlFlowReads(*block.body, names);
    for (const auto &branch : block.branches) {
      if (branch.first && branch.first->expr)
        namesOf(*branch.first->expr, names);
      collectControlFlowReads(*branch.second, names);
    }
  }
}

LogicalResult mlir::sdfg::dace::placeTransients(ProgramEmitter &e) {
  SmallVector<const ControlFlowBlock *> states;
  collectStates(e.model.cfg, states);
  llvm::StringMap<llvm::SetVector<const ControlFlowBlock *>> usedIn;
  llvm::StringSet<> atTopLevel;
  for (const ControlFlowBlock *block : states) {
    for (const StateEdge &edge : block->state.edges)
      if (block->state.nodes[block->state.byId.at(edge.dst)].kind ==
          Node::Kind::Access)
        e.writtenScalars.insert(
            block->state.nodes[block->state.byId.at(edge.dst)].data);
    FailureOr<StateScopes> scopes = analyzeScopes(e, *block);
    if (failed(scopes))
      return failure();
    for (auto [index, node] : llvm::enumerate(block->state.nodes)) {
      if (node.kind != Node::Kind::Access)
        continue;
      auto desc = e.model.arrays.find(node.data);
      if (desc == e.model.arrays.end()) {
        e.error(node.path) << "AccessNode '" << node.label
                           << "' names the unknown container '" << node.data
                           << "'";
        return failure();
      }
      // A view allocates nothing: it is bound where its access node is.
      if (!desc->second.transient || desc->second.isView)
        continue;
      usedIn[node.data].insert(block);
      if (scopes->parent[index] == -1)
        atTopLevel.insert(node.data);
    }
  }
  // Interstate code (conditions, assignments, loop statements) may read a
  // transient anywhere: such a transient lives for the whole call.
  llvm::StringSet<> readByControlFlow;
  collectControlFlowReads(e.model.cfg, readByControlFlow);
  for (const auto &[name, blocks] : usedIn) {
    const DataDesc &desc = e.model.arrays.at(name.str());
    if (readByControlFlow.contains(name))
      continue;
    if (!atTopLevel.contains(name)) {
      e.scopeLocal.insert(name);
      continue;
    }
    if (desc.scopeLifetime && blocks.size() == 1)
      e.transientHomes[name] = blocks.front();
  }
  return success();
}

/// The number of elements DaCe allocates for `desc`: `total_size`, or the
/// shape's product.
static Value allocationSpan(ProgramEmitter &e, const DataDesc &desc,
                            Location location) {
  if (desc.totalSize && desc.totalSize->expr)
    return e.emitIndex(*desc.totalSize);
  Value span = arith::ConstantIndexOp::create(e.builder, location, 1);
  for (const SymExpr &size : desc.shape) {
    Value value = e.emitIndex(size);
    if (!value)
      return {};
    span = e.builder.createOrFold<arith::MulIOp>(location, span, value);
  }
  return span;
}

/// A buffer of `type` with `sizes` for its dynamic dimensions: a
/// stream-ordered gpu.alloc for GPU_Global, per thread in a kernel, else
/// memref.alloc.
static Value allocateBuffer(ProgramEmitter &e, const DataDesc &desc,
                            MemRefType type, ValueRange sizes, bool kernelLocal,
                            Location location) {
  if (kernelLocal)
    return memref::AllocaOp::create(
        e.builder, location,
        MemRefType::get(type.getShape(), type.getElementType()), sizes);
  if (desc.storage == Storage::GPUGlobal) {
    e.usesGpu = true;
    return gpu::AllocOp::create(e.builder, location, type, Type(), ValueRange(),
                                sizes, ValueRange())
        .getMemref();
  }
  return memref::AllocOp::create(e.builder, location, type, sizes);
}

Value ProgramEmitter::allocate(const DataDesc &desc, bool kernelLocal,
                               Value *buffer) {
  Location location = loc(desc.path);
  MemRefType type = containerType(desc, context);
  if (kernelLocal && desc.storage != Storage::Register &&
      desc.storage != Storage::Default) {
    error(desc.path) << "transient '" << desc.name
                     << "' is used only inside a GPU kernel but is not in "
                        "Register storage";
    return {};
  }
  if (type.getLayout().isIdentity()) {
    SmallVector<Value> sizes;
    for (auto [size, dim] : llvm::zip(desc.shape, type.getShape())) {
      if (!ShapedType::isDynamic(dim))
        continue;
      Value value = emitIndex(size);
      if (!value)
        return {};
      sizes.push_back(value);
    }
    Value result =
        allocateBuffer(*this, desc, type, sizes, kernelLocal, location);
    if (buffer)
      *buffer = result;
    return result;
  }
  // DaCe's own layout (strides other than row-major, or a start offset):
  // `total_size` elements, the array at `start_offset` in them with its
  // strides (dace/codegen/targets/cpu.py::CPUCodeGen.allocate_array,
  // dace/codegen/targets/cuda.py::CUDACodeGen.allocate_array).
  Value span = allocationSpan(*this, desc, location);
  SmallVector<OpFoldResult> sizes = emitSizes(*this, desc);
  SmallVector<OpFoldResult> strides = emitStrides(*this, desc);
  if (!span || sizes.size() != desc.shape.size() ||
      strides.size() != desc.shape.size())
    return {};
  auto flatType = MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                                  MemRefLayoutAttrInterface(),
                                  type.getMemorySpace());
  Value flat =
      allocateBuffer(*this, desc, flatType, span, kernelLocal, location);
  if (buffer)
    *buffer = flat;
  // Static where the type is, so that the view has the container's type.
  SmallVector<int64_t> staticStrides;
  int64_t staticOffset;
  (void)type.getStridesAndOffset(staticStrides, staticOffset);
  for (auto [i, size] : llvm::enumerate(sizes))
    if (!type.isDynamicDim(i))
      size = builder.getIndexAttr(type.getDimSize(i));
    else
      size = getValueOrCreateConstantIndexOp(builder, location, size);
  for (auto [stride, fixed] : llvm::zip(strides, staticStrides))
    if (!ShapedType::isDynamic(fixed))
      stride = builder.getIndexAttr(fixed);
    else
      stride = getValueOrCreateConstantIndexOp(builder, location, stride);
  if (kernelLocal)
    type = MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout());
  return memref::ReinterpretCastOp::create(
      builder, location, type, flat, builder.getIndexAttr(desc.startOffset),
      sizes, strides);
}

/// Zero-fills a new buffer (an access node with `setzero`).
static void fillZero(ProgramEmitter &e, Value buffer, bool onGpu,
                     Location location) {
  OpBuilder &b = e.builder;
  auto type = cast<MemRefType>(buffer.getType());
  Value zero = arith::ConstantOp::create(b, location, type.getElementType(),
                                         b.getZeroAttr(type.getElementType()));
  if (onGpu) {
    gpu::MemsetOp::create(b, location, TypeRange(), ValueRange(), buffer, zero);
    return;
  }
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> indices;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    Value lower = arith::ConstantIndexOp::create(b, location, 0);
    Value upper = memref::DimOp::create(b, location, buffer, i);
    Value step = arith::ConstantIndexOp::create(b, location, 1);
    auto loop = scf::ForOp::create(b, location, lower, upper, step);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    indices.push_back(loop.getInductionVar());
  }
  memref::StoreOp::create(b, location, zero, buffer, indices);
}

static bool needsZero(const SDFGModel &model, llvm::StringRef name) {
  SmallVector<const ControlFlowBlock *> states;
  collectStates(model.cfg, states);
  for (const ControlFlowBlock *block : states)
    for (const Node &node : block->state.nodes)
      if (node.kind == Node::Kind::Access && node.data == name && node.setzero)
        return true;
  return false;
}

LogicalResult ProgramEmitter::allocateTransients(
    const ControlFlowBlock *state, SmallVectorImpl<std::pair<Value, bool>> &allocated) {
  for (const auto &[name, desc] : model.arrays) {
    if (!desc.transient || desc.isView || scopeLocal.contains(name))
      continue;
    auto home = transientHomes.find(name);
    const ControlFlowBlock *where = home == transientHomes.end() ? nullptr : home->second;
    if (where != state)
      continue;
    // A nested SDFG inlined into a kernel keeps its transients per thread.
    Value buffer;
    Value array = allocate(desc, /*kernelLocal=*/inKernel, &buffer);
    if (!array)
      return failure();
    bool onGpu = desc.storage == Storage::GPUGlobal && !inKernel;
    if (needsZero(model, name))
      fillZero(*this, buffer, onGpu, loc(desc.path));
    containers[name] = Container{&desc, array};
    if (!inKernel)
      allocated.emplace_back(buffer, onGpu);
  }
  return success();
}

void ProgramEmitter::freeTransients(ArrayRef<std::pair<Value, bool>> allocated,
                                    Location location) {
  for (auto [buffer, onGpu] : llvm::reverse(allocated)) {
    if (onGpu)
      gpu::DeallocOp::create(builder, location, TypeRange(), ValueRange(),
                             buffer);
    else
      memref::DeallocOp::create(builder, location, buffer);
  }
}
