//===- SDFGOps.cpp - Operations of the sdfg dialect -----------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::sdfg;

#include "SDFGStream/Dialect/SDFG/IR/SDFGEnums.cpp.inc"

#include "SDFGStream/Dialect/SDFG/IR/SDFGInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers shared by passes
//===----------------------------------------------------------------------===//

bool mlir::sdfg::isHostGpuWork(Operation *op) {
  if (isa<InitStreamsOp, StreamTokenOp, SyncOp>(op))
    return true;
  if (auto node = dyn_cast<LibraryNodeOpInterface>(op))
    return static_cast<bool>(node.getNodeStream());
  return isa<gpu::AsyncOpInterface>(op);
}

int64_t mlir::sdfg::getNumStreamSlots(FunctionOpInterface program) {
  if (auto sdfg = dyn_cast<SDFGOp>(program.getOperation()))
    return sdfg.getNumStreams();
  if (IntegerAttr count =
          SDFGDialect::NumStreamsAttrHelper(program->getContext())
              .getAttr(program))
    return count.getInt();
  return 1;
}

bool mlir::sdfg::isSameStream(Value a, Value b) {
  if (a == b)
    return true;
  // All slots of one init op carry the same external stream, unless they
  // are concurrent.
  auto init = a.getDefiningOp<InitStreamsOp>();
  return init && !init.getConcurrent() &&
         init == b.getDefiningOp<InitStreamsOp>();
}

/// Returns the name of `program` for diagnostics.
static StringRef programName(Operation *program) {
  if (auto symbol = dyn_cast<SymbolOpInterface>(program))
    return symbol.getName();
  return program->getName().getStringRef();
}

/// Checks that `user` uses `stream` in the host code of the program that
/// defines it: streams never enter kernels or other programs.
static LogicalResult verifyStreamUse(Operation *user, Value stream) {
  Region *defRegion = stream.getParentRegion();
  Operation *defProgram =
      defRegion ? defRegion->getParentOfType<FunctionOpInterface>() : nullptr;
  Operation *useProgram = user->getParentOfType<FunctionOpInterface>();
  if (user->getParentOfType<gpu::LaunchOp>() || defProgram != useProgram)
    return user->emitOpError()
           << "uses a stream outside the host code of its program"
           << (defProgram ? " @" + programName(defProgram).str() : "");
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<SDFGOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "'" << getCallee()
                         << "' does not reference an sdfg.sdfg program";

  ArrayRef<Type> expected = callee.getArgumentTypes();
  if (expected.size() != getNumOperands())
    return emitOpError() << "passes " << getNumOperands()
                         << " operands, but program @" << getCallee()
                         << " takes " << expected.size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), expected))) {
    auto [actual, wanted] = pair;
    if (actual != wanted)
      return emitOpError() << "operand #" << index << " has type " << actual
                           << ", but program @" << getCallee()
                           << " expects " << wanted;
  }

  auto caller = (*this)->getParentOfType<SDFGOp>();
  if (caller && !caller.isGpuProgram() && callee.isGpuProgram())
    return emitOpError() << "CPU program @" << caller.getSymName()
                         << " cannot call GPU program @" << getCallee();
  return success();
}

//===----------------------------------------------------------------------===//
// InitStreamsOp
//===----------------------------------------------------------------------===//

LogicalResult InitStreamsOp::verify() {
  auto program = dyn_cast_or_null<FunctionOpInterface>((*this)->getParentOp());
  if (!program || (*this)->getBlock() != &program.getFunctionBody().front())
    return emitOpError() << "must be in the entry block of a program";

  for (Operation &other : *(*this)->getBlock()) {
    if (&other == getOperation())
      break;
    if (isa<InitStreamsOp>(other))
      return emitOpError() << "initializes the streams of program @"
                           << programName(program) << " a second time";
  }

  auto arg = dyn_cast<BlockArgument>(getExternal());
  if (!arg || arg.getOwner() != (*this)->getBlock())
    return emitOpError() << "the external stream must be an argument of "
                            "program @"
                         << programName(program);

  int64_t numSlots = getNumStreamSlots(program);
  int64_t expected = std::max<int64_t>(numSlots, 1);
  if (static_cast<int64_t>(getSlots().size()) != expected)
    return emitOpError() << "yields " << getSlots().size()
                         << " streams, but program @" << programName(program)
                         << " has " << numSlots << " stream slot"
                         << (numSlots == 1 ? "" : "s") << " (expected "
                         << expected << " result" << (expected == 1 ? "" : "s")
                         << ")";

  for (Value slot : getSlots())
    for (Operation *user : slot.getUsers())
      if (user->hasTrait<OpTrait::ReturnLike>() &&
          user->getParentOp() == program.getOperation())
        return user->emitOpError()
               << "returns a stream of program @" << programName(program)
               << "; streams may not leave their program";
  return success();
}

//===----------------------------------------------------------------------===//
// StreamTokenOp
//===----------------------------------------------------------------------===//

LogicalResult StreamTokenOp::verify() {
  return verifyStreamUse(getOperation(), getStream());
}

//===----------------------------------------------------------------------===//
// SyncOp
//===----------------------------------------------------------------------===//

LogicalResult SyncOp::verify() {
  if (getStreams().empty())
    return emitOpError() << "needs at least one stream; a device-wide "
                            "synchronization is never generated";
  for (Value stream : getStreams())
    if (failed(verifyStreamUse(getOperation(), stream)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// TimerBeginOp / TimerEndOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyTimedStreams(Operation *op, ValueRange streams) {
  if (streams.empty())
    return op->emitOpError() << "needs at least one stream to record its "
                                "events on";
  for (Value stream : streams)
    if (failed(verifyStreamUse(op, stream)))
      return failure();
  return success();
}

LogicalResult CheckDeviceOp::verify() {
  return verifyStreamUse(getOperation(), getStream());
}

LogicalResult TimerBeginOp::verify() {
  if (getName().empty())
    return emitOpError() << "needs a non-empty program name";
  return verifyTimedStreams(getOperation(), getStreams());
}

LogicalResult TimerEndOp::verify() {
  return verifyTimedStreams(getOperation(), getStreams());
}

namespace {
/// Merges a sync into the sync right before it: nothing can be enqueued
/// between the two, so one host wait serves both.
struct MergeAdjacentSyncs : public OpRewritePattern<SyncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SyncOp op,
                                PatternRewriter &rewriter) const override {
    auto previous = dyn_cast_or_null<SyncOp>(op->getPrevNode());
    if (!previous)
      return failure();
    SmallVector<Value> streams(previous.getStreams());
    streams.append(op.getStreams().begin(), op.getStreams().end());
    rewriter.modifyOpInPlace(
        previous, [&] { previous.getStreamsMutable().assign(streams); });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Drops streams that are already listed (slots of one init op are one
/// stream).
struct DropRepeatedStreams : public OpRewritePattern<SyncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SyncOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> unique;
    for (Value stream : op.getStreams())
      if (llvm::none_of(unique,
                        [&](Value seen) { return isSameStream(seen, stream); }))
        unique.push_back(stream);
    if (unique.size() == op.getStreams().size())
      return failure();
    rewriter.modifyOpInPlace(op,
                             [&] { op.getStreamsMutable().assign(unique); });
    return success();
  }
};
} // namespace

void SyncOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<MergeAdjacentSyncs, DropRepeatedStreams>(context);
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto inputType = cast<MemRefType>(getInput().getType());
  auto outputType = cast<MemRefType>(getOutput().getType());
  if (inputType.getRank() != 1)
    return emitOpError() << "reduces a 1-D array, but the input has rank "
                         << inputType.getRank();
  if (outputType.getRank() != 0)
    return emitOpError() << "writes a rank-0 array, but the output has rank "
                         << outputType.getRank();
  Type elementType = inputType.getElementType();
  if (elementType != outputType.getElementType())
    return emitOpError() << "input element type " << elementType
                         << " differs from output element type "
                         << outputType.getElementType();
  // What the expansions lower on both vendors: arith's integers are
  // signless, and the kernels' atomics and workgroup combines know the
  // four common float types only (no f8, tf32, f80).
  bool integer = elementType.isSignlessInteger() &&
                 elementType.getIntOrFloatBitWidth() <= 64;
  bool floating = isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(
      elementType);
  if (!integer && !floating)
    return emitOpError() << "reduces signless integers of up to 64 bits or "
                            "f16, bf16, f32, f64 floats, not "
                         << elementType;
  if (!(*this)->getParentOfType<SDFGOp>())
    return emitOpError() << "must be inside an sdfg.sdfg program";
  if (getStream())
    return verifyStreamUse(getOperation(), getStream());
  return success();
}

#define GET_OP_CLASSES
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.cpp.inc"
