//===- DataflowEmitter.cpp - A state's dataflow as kernels, loops, copies -===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A state's nodes run in topological order. A GPU_Device map becomes a
// gpu.launch shaped as dace/codegen/targets/cuda.py::CUDACodeGen.
// get_kernel_dimensions shapes DaCe's kernels (dimensions reversed onto x,
// y, z, the rest flattened into z, the block from `gpu_block_size` or the
// default block size, a guard per dimension, no launch when a dimension is
// empty); host maps become scf.for nests. An edge between two access nodes
// is a copy of the boxes its subsets describe (gpu.memcpy when either side
// is GPU memory, memref.copy otherwise). Every GPU op carries the stream
// slot DaCe's stream assignment gives its node; the stream passes then
// place the waits between slots and the host syncs.
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"
#include "StateScopes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

namespace {

/// Emits the dataflow of one state.
class StateEmitter {
public:
  StateEmitter(ProgramEmitter &e, const ControlFlowBlock &block)
      : e(e), b(e.builder), block(block), state(block.state) {}

  LogicalResult emit();

private:
  const Node &node(size_t index) { return state.nodes[index]; }
  size_t indexOf(int64_t id) { return state.byId.at(id); }
  /// Emits the nodes whose scope is `entry` (-1: the state's top level).
  LogicalResult emitScope(int64_t entry);
  LogicalResult emitMap(size_t entry);
  LogicalResult emitHostMap(const Node &map, size_t entry);
  LogicalResult emitKernel(const Node &map, size_t entry);
  LogicalResult emitCopy(const StateEdge &edge);
  /// The schedule a map runs with (DaCe's Default resolved).
  FailureOr<Schedule> resolveSchedule(const Node &map, size_t entry);

  ProgramEmitter &e;
  OpBuilder &b;
  const ControlFlowBlock &block;
  const State &state;
  StateScopes scopes;
};

} // namespace

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

FailureOr<Schedule> StateEmitter::resolveSchedule(const Node &map,
                                                  size_t entry) {
  if (map.schedule != Schedule::Default)
    return map.schedule;
  if (e.inKernel) {
    e.error(map.path) << "map '" << map.label
                      << "' with the Default schedule inside a GPU kernel "
                         "is a GPU_ThreadBlock map, which is not supported";
    return failure();
  }
  if (scopes.parent[entry] != -1)
    return Schedule::Sequential;
  // dace/sdfg/infer_types.py::_determine_schedule_from_storage: a top-level
  // map runs where the data it touches lives.
  bool gpu = false, host = false;
  for (const StateEdge &edge : state.edges) {
    if (edge.dst != map.id && edge.src != static_cast<int64_t>(
                                             node(scopes.exitOf[entry]).id))
      continue;
    auto it = e.model.arrays.find(edge.memlet.data);
    if (it == e.model.arrays.end())
      continue;
    (it->second.storage == Storage::GPUGlobal ? gpu : host) = true;
  }
  if (gpu && host) {
    e.error(map.path) << "map '" << map.label
                      << "' has the Default schedule and touches both GPU "
                         "and host memory";
    return failure();
  }
  return gpu ? Schedule::GPUDevice : Schedule::Sequential;
}

LogicalResult StateEmitter::emitHostMap(const Node &map, size_t entry) {
  Location location = e.loc(map.path);
  OpBuilder::InsertionGuard guard(b);
  llvm::StringMap<CValue> saved = e.symbols;
  for (auto [param, dim] : llvm::zip(map.params, map.range.dims)) {
    Value start = e.emitIndex(dim.start);
    Value end = e.emitIndex(dim.end);
    Value step = e.emitIndex(dim.step);
    if (!start || !end || !step)
      return failure();
    Value one = arith::ConstantIndexOp::create(b, location, 1);
    Value bound = b.createOrFold<arith::AddIOp>(location, end, one);
    auto loop = scf::ForOp::create(b, location, start, bound, step);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    e.symbols[param] = CValue{loop.getInductionVar(), false};
  }
  LogicalResult result = emitScope(entry);
  e.symbols = std::move(saved);
  return result;
}

LogicalResult StateEmitter::emitKernel(const Node &map, size_t entry) {
  Location location = e.loc(map.path);
  size_t rank = map.params.size();
  // Sizes in DaCe's order: the last parameter is x.
  SmallVector<Value> sizes;
  SmallVector<std::optional<int64_t>> constantSizes;
  for (const RangeDim &dim : llvm::reverse(map.range.dims)) {
    Value size = e.rangeSize(dim, location);
    if (!size)
      return failure();
    sizes.push_back(size);
    constantSizes.push_back(getConstantIntValue(size));
  }
  SmallVector<Value> grid(sizes.begin(), sizes.begin() + std::min<size_t>(rank, 3));
  SmallVector<std::optional<int64_t>> constantGrid(
      constantSizes.begin(), constantSizes.begin() + std::min<size_t>(rank, 3));
  for (size_t i = 3; i < rank; ++i) {
    grid[2] = b.createOrFold<arith::MulIOp>(location, grid[2], sizes[i]);
    constantGrid[2] = getConstantIntValue(grid[2]);
  }
  while (grid.size() < 3) {
    grid.push_back(arith::ConstantIndexOp::create(b, location, 1));
    constantGrid.push_back(1);
  }

  // The block: gpu_block_size, else the default block size, linearized onto
  // the kernel's dimensions when it has more (get_kernel_dimensions).
  SmallVector<int64_t> blockSize;
  if (!map.gpuBlockSize.empty()) {
    blockSize.assign(map.gpuBlockSize.begin(), map.gpuBlockSize.end());
    while (blockSize.size() < 3)
      blockSize.push_back(1);
    for (size_t i = 3; i < blockSize.size(); ++i)
      blockSize[2] *= blockSize[i];
    blockSize.resize(3);
  } else {
    blockSize.assign(e.options.defaultBlockSize.begin(),
                     e.options.defaultBlockSize.end());
    int64_t blockDims = std::max<int64_t>(
        1, llvm::count_if(blockSize, [](int64_t s) { return s != 1; }));
    int64_t gridDims = std::max<int64_t>(
        1, llvm::count_if(constantGrid, [](std::optional<int64_t> s) {
          return !s || *s != 1;
        }));
    if (blockDims > gridDims) {
      int64_t remainder = 1;
      for (int64_t i = gridDims; i < 3; ++i)
        remainder *= blockSize[i];
      for (int64_t i = gridDims; i < 3; ++i)
        blockSize[i] = 1;
      blockSize[gridDims - 1] *= remainder;
    }
  }
  if (blockSize[0] * blockSize[1] * blockSize[2] > 1024 || blockSize[2] > 64) {
    e.error(map.path) << "map '" << map.label << "' has a block of "
                      << blockSize[0] << "x" << blockSize[1] << "x"
                      << blockSize[2]
                      << " threads; a block has at most 1024 threads and 64 "
                         "in z";
    return failure();
  }
  SmallVector<Value> blocks, threads;
  for (size_t i = 0; i < 3; ++i) {
    Value threadCount =
        arith::ConstantIndexOp::create(b, location, blockSize[i]);
    threads.push_back(threadCount);
    blocks.push_back(
        b.createOrFold<arith::CeilDivSIOp>(location, grid[i], threadCount));
  }

  // No launch when a dimension is empty (CUDACodeGen.generate_scope).
  OpBuilder::InsertionGuard guard(b);
  Value nonEmpty;
  for (auto [size, constant] : llvm::zip(grid, constantGrid)) {
    if (constant && *constant > 0)
      continue;
    Value zero = arith::ConstantIndexOp::create(b, location, 0);
    Value positive = b.createOrFold<arith::CmpIOp>(
        location, arith::CmpIPredicate::sgt, size, zero);
    nonEmpty = nonEmpty ? b.createOrFold<arith::AndIOp>(location, nonEmpty,
                                                        positive)
                        : positive;
  }
  if (nonEmpty) {
    auto ifOp = scf::IfOp::create(b, location, nonEmpty);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  auto launch = gpu::LaunchOp::create(b, location, blocks[0], blocks[1],
                                      blocks[2], threads[0], threads[1],
                                      threads[2]);
  e.setSlot(launch, map);
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, location);
  b.setInsertionPointToStart(&launch.getBody().front());

  // Global thread indices per grid dimension.
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  SmallVector<Value> global;
  for (auto [blockId, threadId, count] :
       llvm::zip(SmallVector<Value>{blockIds.x, blockIds.y, blockIds.z},
                 SmallVector<Value>{threadIds.x, threadIds.y, threadIds.z},
                 threads))
    global.push_back(b.createOrFold<arith::AddIOp>(
        location, b.createOrFold<arith::MulIOp>(location, blockId, count),
        threadId));

  // Each dimension's index: x and y directly, z split into the flattened
  // dimensions; the guard keeps the threads past each size idle.
  SmallVector<Value> indices(rank);
  Value inside;
  auto guardLess = [&](Value index, Value bound) {
    Value test = b.createOrFold<arith::CmpIOp>(
        location, arith::CmpIPredicate::slt, index, bound);
    inside = inside ? b.createOrFold<arith::AndIOp>(location, inside, test)
                    : test;
  };
  for (size_t i = 0; i < std::min<size_t>(rank, 2); ++i) {
    indices[i] = global[i];
    guardLess(global[i], sizes[i]);
  }
  if (rank >= 3) {
    Value rest = global[2];
    guardLess(rest, grid[2]);
    for (size_t i = 2; i < rank; ++i) {
      if (i + 1 == rank) {
        indices[i] = rest;
        break;
      }
      indices[i] = b.createOrFold<arith::RemSIOp>(location, rest, sizes[i]);
      rest = b.createOrFold<arith::DivSIOp>(location, rest, sizes[i]);
    }
  }
  auto ifInside = scf::IfOp::create(b, location, inside);
  b.setInsertionPoint(ifInside.thenBlock()->getTerminator());

  llvm::StringMap<CValue> saved = e.symbols;
  SmallVector<std::string> savedParams = e.kernelParams;
  bool savedInKernel = e.inKernel;
  e.inKernel = true;
  for (size_t i = 0; i < rank; ++i) {
    // indices[i] belongs to parameter rank - 1 - i.
    const RangeDim &dim = map.range.dims[rank - 1 - i];
    Value start = e.emitIndex(dim.start);
    Value step = e.emitIndex(dim.step);
    if (!start || !step)
      return failure();
    Value value = b.createOrFold<arith::AddIOp>(
        location, start,
        b.createOrFold<arith::MulIOp>(location, indices[i], step));
    e.symbols[map.params[rank - 1 - i]] = CValue{value, false};
    e.kernelParams.push_back(map.params[rank - 1 - i]);
  }
  LogicalResult result = emitScope(entry);
  e.symbols = std::move(saved);
  e.kernelParams = std::move(savedParams);
  e.inKernel = savedInKernel;
  return result;
}

LogicalResult StateEmitter::emitMap(size_t entry) {
  const Node &map = node(entry);
  if (scopes.exitOf[entry] < 0) {
    e.error(map.path) << "map '" << map.label << "' has no MapExit";
    return failure();
  }
  FailureOr<Schedule> schedule = resolveSchedule(map, entry);
  if (failed(schedule))
    return failure();
  if (*schedule == Schedule::GPUDevice) {
    if (e.inKernel || scopes.parent[entry] != -1) {
      e.error(map.path) << "GPU_Device map '" << map.label
                        << "' inside another map is not supported";
      return failure();
    }
    return emitKernel(map, entry);
  }
  return emitHostMap(map, entry);
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
  if (e.inKernel) {
    e.error(edge.path) << "a copy inside a GPU kernel (from '" << srcNode.data
                       << "' to '" << dstNode.data << "') is not supported";
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
    case Node::Kind::Reduce:
      if (entry != -1) {
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
