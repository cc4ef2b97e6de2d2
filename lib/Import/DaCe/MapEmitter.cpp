//===- MapEmitter.cpp - A state's maps as kernels and loops ---------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The maps of a state (see DataflowEmitter.cpp): a GPU_Device map becomes
// a gpu.launch shaped as dace/codegen/targets/cuda.py::CUDACodeGen.
// get_kernel_dimensions shapes DaCe's kernels (dimensions reversed onto x,
// y, z, the rest flattened into z, the block from `gpu_block_size` or the
// default block size, a guard per dimension, no launch when a dimension is
// empty); host maps become scf.for nests.
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
