//===- PartialReduce.cpp - DaCe's Reduce over some axes -------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A Reduce library node whose `axes` leave some input dimensions (np.sum(A,
// axis=1), dace.reduce(..., axis=...)): each output element combines its
// row of the reduced dimensions with the node's wcr lambda, starting from
// `identity`, or, without one, from the output's own value (DaCe's
// ExpandReducePure in dace/libraries/standard/nodes/reduce.py has the same
// meaning). sdfg.reduce reduces a whole array into one element, so this is
// code of its own: on the GPU one thread per output element (a
// kernel of 256-thread blocks on the node's stream slot), on the host
// a loop nest. Any lambda works here, not only the sums, minima and maxima
// sdfg.reduce knows.
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

namespace {
constexpr int64_t kBlockSize = 256;
} // namespace

LogicalResult ProgramEmitter::emitPartialReduce(const Node &reduce,
                                                Value source,
                                                ArrayRef<bool> reduced,
                                                Value target, bool onGpu,
                                                bool isUnsigned) {
  Location location = loc(reduce.path);
  OpBuilder &b = builder;
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  Type elementType = sourceType.getElementType();
  int64_t keptCount = llvm::count(reduced, false);
  if (targetType.getRank() != keptCount) {
    error(reduce.path) << "Reduce node '" << reduce.label << "' writes a "
                       << targetType.getRank() << "-dimensional box for "
                       << keptCount << " kept input dimensions";
    return failure();
  }
  if (!reduce.reduceWcr || !reduce.reduceWcr->expr) {
    error(reduce.path) << "Reduce node '" << reduce.label << "' has no wcr";
    return failure();
  }

  Value zero = arith::ConstantIndexOp::create(b, location, 0);
  Value one = arith::ConstantIndexOp::create(b, location, 1);
  SmallVector<Value> keptSizes, reducedSizes;
  for (auto [i, isReduced] : llvm::enumerate(reduced)) {
    Value size = memref::DimOp::create(b, location, source, i);
    (isReduced ? reducedSizes : keptSizes).push_back(size);
  }

  // One output element: its start value combined with its row.
  auto emitElement = [&](ValueRange outIndex) -> LogicalResult {
    Value start =
        reduce.reduceIdentity
            ? reduceIdentity(reduce, elementType)
            : memref::LoadOp::create(b, location, target, outIndex).getResult();
    if (!start)
      return failure();
    SmallVector<scf::ForOp> loops;
    SmallVector<Value> reducedIndex;
    Value accumulated = start;
    for (Value size : reducedSizes) {
      auto loop = scf::ForOp::create(b, location, zero, size, one,
                                     ValueRange{accumulated});
      b.setInsertionPointToStart(loop.getBody());
      reducedIndex.push_back(loop.getInductionVar());
      accumulated = loop.getRegionIterArgs()[0];
      loops.push_back(loop);
    }
    SmallVector<Value> index;
    size_t nextKept = 0, nextReduced = 0;
    for (bool isReduced : reduced)
      index.push_back(isReduced ? reducedIndex[nextReduced++]
                                : outIndex[nextKept++]);
    CValue element{memref::LoadOp::create(b, location, source, index),
                   isUnsigned};
    CValue combined = emitWcrCombine(*reduce.reduceWcr,
                                     CValue{accumulated, isUnsigned}, element);
    if (!combined)
      return failure();
    Value result =
        convert(combined, elementType, isUnsigned, location).value;
    for (scf::ForOp loop : llvm::reverse(loops)) {
      scf::YieldOp::create(b, location, result);
      b.setInsertionPointAfter(loop);
      result = loop.getResult(0);
    }
    memref::StoreOp::create(b, location, result, target, outIndex);
    return success();
  };

  if (!onGpu) {
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Value> outIndex;
    for (Value size : keptSizes) {
      auto loop = scf::ForOp::create(b, location, zero, size, one);
      b.setInsertionPointToStart(loop.getBody());
      outIndex.push_back(loop.getInductionVar());
    }
    return emitElement(outIndex);
  }

  // One thread per output element.
  Value total = one;
  for (Value size : keptSizes)
    total = arith::MulIOp::create(b, location, total, size);
  Value blockSize = arith::ConstantIndexOp::create(b, location, kBlockSize);
  Value blocks = arith::CeilDivSIOp::create(b, location, total, blockSize);
  Value any = arith::CmpIOp::create(b, location, arith::CmpIPredicate::sgt,
                                    total, zero);
  auto nonEmpty = scf::IfOp::create(b, location, any);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&nonEmpty.getThenRegion().front());
  auto launch = gpu::LaunchOp::create(b, location, blocks, one, one, blockSize,
                                      one, one);
  setSlot(launch, reduce);
  b.setInsertionPointToEnd(&launch.getBody().front());
  Value linear = arith::AddIOp::create(
      b, location,
      arith::MulIOp::create(b, location, launch.getBlockIds().x, blockSize),
      launch.getThreadIds().x);
  Value inRange = arith::CmpIOp::create(b, location, arith::CmpIPredicate::slt,
                                        linear, total);
  auto inside = scf::IfOp::create(b, location, inRange);
  gpu::TerminatorOp::create(b, location);
  b.setInsertionPoint(inside.getThenRegion().front().getTerminator());
  // Row-major position of the element among the kept dimensions.
  SmallVector<Value> outIndex(keptSizes.size());
  Value rest = linear;
  for (size_t i = keptSizes.size(); i-- > 0;) {
    outIndex[i] = arith::RemSIOp::create(b, location, rest, keptSizes[i]);
    rest = arith::DivSIOp::create(b, location, rest, keptSizes[i]);
  }
  bool saved = inKernel;
  inKernel = true;
  LogicalResult result = emitElement(outIndex);
  inKernel = saved;
  return result;
}
