//===- AsyncObjectStreams.cpp - Launches on an argument as their stream ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// MLIR after release 22 lets a launch name its stream as an async object,
// `gpu.launch_func <%s : !llvm.ptr>`, and flang's CUF lowering passes the
// stream of a Fortran subroutine that way. Upstream's lowering hands that
// pointer to the runtime as it is; here the argument becomes the program's
// caller's stream instead, so that all of its GPU work (not only the
// launches) runs on it through the program's slots, and a subroutine that
// calls another one hands it the same stream (also one that launches
// nothing itself and only passes its argument on).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/StreamThreading.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::sdfg;

/// The argument of `program` that its launches run on as their async
/// object: null if none does; an error if a launch runs on anything else or
/// two launches on different arguments, or if it is not the argument marked
/// as the caller's stream.
static FailureOr<BlockArgument>
findAsyncObjectStream(FunctionOpInterface program) {
  if (program.isExternal())
    return BlockArgument();
  SmallVector<gpu::LaunchFuncOp> launches;
  program.getFunctionBody().walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getAsyncObject())
      launches.push_back(launch);
  });
  BlockArgument stream;
  for (gpu::LaunchFuncOp launch : launches) {
    auto argument = dyn_cast<BlockArgument>(launch.getAsyncObject());
    if (!argument || argument.getOwner() != &program.getFunctionBody().front())
      return launch.emitOpError()
             << "runs on a stream (async object) that is not an argument of "
                "its function; SDFGStream runs GPU work only on the stream "
                "the caller passes";
    if (stream && argument != stream)
      return launch.emitOpError()
             << "runs on argument #" << argument.getArgNumber()
             << " as its stream, but another launch of the function runs on "
                "argument #"
             << stream.getArgNumber() << "; a program has one caller's stream";
    stream = argument;
  }
  BlockArgument marked = getExternalStreamArgument(program);
  if (stream && marked && marked != stream)
    return launches.front().emitOpError()
           << "runs on argument #" << stream.getArgNumber()
           << ", but the function's caller's stream is argument #"
           << marked.getArgNumber();
  return stream;
}

/// Whether `use` is the async object (the stream) of a launch.
static bool isAsyncObject(OpOperand &use) {
  auto launch = dyn_cast<gpu::LaunchFuncOp>(use.getOwner());
  if (!launch)
    return false;
  MutableOperandRange object = launch.getAsyncObjectMutable();
  return object.size() == 1 &&
         object[0].getOperandNumber() == use.getOperandNumber();
}

LogicalResult
mlir::sdfg::adoptAsyncObjectStreams(ArrayRef<FunctionOpInterface> programs,
                                    StringRef argumentName,
                                    Operation *symbolTableOp) {
  llvm::MapVector<Operation *, BlockArgument> streams;
  for (FunctionOpInterface program : programs) {
    FailureOr<BlockArgument> stream = findAsyncObjectStream(program);
    if (failed(stream))
      return failure();
    if (*stream)
      streams[program] = *stream;
  }
  if (streams.empty())
    return success();

  // A function that launches nothing itself but passes one of its arguments
  // on where a callee's launches take their stream (a CUF subroutine that
  // calls another with its stream) takes that argument as its caller's
  // stream too; to a fixed point, so that chains of such calls work.
  SymbolTableCollection symbolTables;
  for (bool changed = true; changed;) {
    changed = false;
    for (FunctionOpInterface program : programs) {
      if (streams.count(program) || program.isExternal())
        continue;
      BlockArgument passed;
      WalkResult walk = program.getFunctionBody().walk([&](func::CallOp call) {
        auto it = streams.find(call.resolveCallableInTable(&symbolTables));
        if (it == streams.end())
          return WalkResult::advance();
        auto argument = dyn_cast<BlockArgument>(
            call.getArgOperands()[it->second.getArgNumber()]);
        if (!argument ||
            argument.getOwner() != &program.getFunctionBody().front())
          return WalkResult::advance(); // refused below, at the call
        if (passed && passed != argument) {
          call.emitOpError()
              << "passes argument #" << argument.getArgNumber()
              << " as the stream of @" << call.getCallee()
              << ", but another call of the function passes argument #"
              << passed.getArgNumber() << "; a program has one caller's stream";
          return WalkResult::interrupt();
        }
        passed = argument;
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
      if (!passed)
        continue;
      BlockArgument marked = getExternalStreamArgument(program);
      if (marked && marked != passed)
        return program.emitOpError()
               << "passes argument #" << passed.getArgNumber()
               << " on as a callee's stream, but its caller's stream is "
                  "argument #"
               << marked.getArgNumber();
      streams[program] = passed;
      changed = true;
    }
  }

  // The stream argument a call of an adopting function passes `operand` as.
  auto isPassedAsStream = [&](OpOperand &operand) {
    auto call = dyn_cast<func::CallOp>(operand.getOwner());
    if (!call)
      return false;
    auto it = streams.find(call.resolveCallableInTable(&symbolTables));
    return it != streams.end() &&
           operand.getOperandNumber() ==
               call.getArgOperands().getBeginOperandIndex() +
                   it->second.getArgNumber();
  };
  for (auto [op, stream] : streams) {
    auto program = cast<FunctionOpInterface>(op);
    // The argument is only ever a stream: of launches, or passed to a
    // function that takes it as one.
    for (OpOperand &use : stream.getUses()) {
      if (isAsyncObject(use) || isPassedAsStream(use))
        continue;
      return use.getOwner()->emitOpError()
             << "uses argument #" << stream.getArgNumber()
             << ", the stream of the function's launches, as a value; it "
                "can only be the caller's stream (of launches, or passed "
                "where a function's launches take theirs)";
    }
    // Calls in the module pass their own caller's stream there.
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(program, symbolTableOp))
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        auto caller =
            call ? call->getParentOfType<FunctionOpInterface>() : nullptr;
        auto it = caller ? streams.find(caller) : streams.end();
        if (call && it != streams.end() &&
            call.getArgOperands()[stream.getArgNumber()] == it->second)
          continue;
        return use.getUser()->emitOpError()
               << "refers to @" << cast<SymbolOpInterface>(op).getName()
               << ", whose argument #" << stream.getArgNumber()
               << " becomes the caller's stream; call it from outside the "
                  "module, or from a function whose launches run on the "
                  "stream it passes there";
      }
  }

  // The arguments are the callers' streams now; the launches go onto them
  // through the programs' slots like any other GPU op.
  for (auto [op, stream] : streams) {
    auto program = cast<FunctionOpInterface>(op);
    MLIRContext *context = program->getContext();
    stream.setType(StreamType::get(context));
    SmallVector<Type> inputs(program.getArgumentTypes());
    inputs[stream.getArgNumber()] = StreamType::get(context);
    program.setType(
        FunctionType::get(context, inputs, program.getResultTypes()));
    program.setArgAttr(stream.getArgNumber(),
                       SDFGDialect::getExternalStreamAttrName(),
                       StringAttr::get(context, argumentName));
    program.getFunctionBody().walk([&](gpu::LaunchFuncOp launch) {
      launch.getAsyncObjectMutable().clear();
    });
  }
  return success();
}
