//===- AsyncExecuteInlining.cpp - async.execute regions run in place ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Upstream lowers `async.execute` to coroutines on a thread pool
// (async-to-async-runtime, the async runtime library), and its GPU work to
// streams it creates. A program given the caller's stream runs its host
// code on the caller's thread instead: each `async.execute` body runs in
// place, in program order (no thread pool), and its GPU work keeps what its
// tokens say: a chain the body starts (a `gpu.wait async`, or the token
// form `gpu-async-region` writes) becomes a slot of its own
// (AsyncChainSlots.cpp), joined where the program awaits the GPU token the
// body yields. Host code of different regions no longer overlaps; the GPU
// work does. GPU ops written in sync form in a body run in order on the
// caller's stream, as everywhere else (host syncs where the host reads).
//
// What upstream's async form can say and is handled here: dependencies on
// other regions' tokens, values passed between regions (!async.value),
// `async.await` of a region's token or value, nested regions, and groups
// (`async.create_group`, `async.add_to_group`, `async.await_all`) whose
// members are regions. Anything else (awaiting a token or value that does
// not come from a region here, a group index used as a value, a region
// that is not the program's own) is an error at the op.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/StreamThreading.h"

#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sdfg;

/// The value `async.await` of `value` gives once the region that defines
/// `value` ran in place: what the region yielded for it. Null for a token.
static FailureOr<Value> resolveAwaited(Value value,
                                       const DenseMap<Value, Value> &yielded,
                                       Operation *user) {
  auto execute = value.getDefiningOp<async::ExecuteOp>();
  if (!execute)
    return user->emitOpError()
           << "awaits a value that no async.execute region of this program "
              "produces; only regions the program runs itself can be run on "
              "the caller's stream";
  if (value == execute.getToken())
    return Value();
  return yielded.lookup(value);
}

/// Runs `execute`'s body in its place: its block's arguments are the values
/// it is given, what it yields is what awaiting its results gives.
static LogicalResult runInPlace(async::ExecuteOp execute,
                                DenseMap<Value, Value> &yielded) {
  Block &body = execute.getBodyRegion().front();
  for (Value dependency : execute.getDependencies())
    if (failed(resolveAwaited(dependency, yielded, execute)))
      return failure();
  for (auto [operand, argument] :
       llvm::zip(execute.getBodyOperands(), body.getArguments())) {
    FailureOr<Value> value = resolveAwaited(operand, yielded, execute);
    if (failed(value))
      return failure();
    argument.replaceAllUsesWith(*value);
  }
  auto yield = cast<async::YieldOp>(body.getTerminator());
  for (auto [result, value] :
       llvm::zip(execute.getBodyResults(), yield.getOperands()))
    yielded[result] = value;
  Block *parent = execute->getBlock();
  parent->getOperations().splice(execute->getIterator(), body.getOperations(),
                                 body.begin(), yield->getIterator());
  return success();
}

LogicalResult mlir::sdfg::runAsyncRegionsInPlace(FunctionOpInterface program) {
  if (program.isExternal())
    return success();
  DenseMap<Value, Value> yielded;
  // Outermost first, in program order; a nested region is reached once its
  // parent ran in place. A region that ran stays (empty) until every region
  // given its values ran too.
  llvm::SetVector<Operation *> ran; // in the order they ran
  while (true) {
    async::ExecuteOp execute;
    program.getFunctionBody().walk<WalkOrder::PreOrder>(
        [&](async::ExecuteOp op) {
          if (ran.contains(op))
            return WalkResult::advance();
          execute = op;
          return WalkResult::interrupt();
        });
    if (!execute)
      break;
    // What waits for the region: awaits of its token and values, groups,
    // later regions.
    for (Operation *user : execute->getUsers()) {
      if (auto add = dyn_cast<async::AddToGroupOp>(user)) {
        if (!add.getResult().use_empty())
          return add.emitOpError()
                 << "uses the index of a region in its group; the regions "
                    "run in place on the caller's stream have none";
        continue;
      }
      if (!isa<async::AwaitOp, async::ExecuteOp>(user))
        return user->emitOpError()
               << "uses a result of an async.execute region, which runs in "
                  "place on the caller's stream; only async.await, "
                  "async.add_to_group and other regions can use it";
    }
    if (failed(runInPlace(execute, yielded)))
      return failure();
    ran.insert(execute);
    for (Operation *user : llvm::make_early_inc_range(execute->getUsers())) {
      if (auto await = dyn_cast<async::AwaitOp>(user)) {
        if (Value awaited = await.getResult()) {
          Value value = yielded.lookup(await.getOperand());
          // A region that ran may have yielded what this await gave (an
          // await in a nested region): a later region gets the value.
          for (auto &entry : yielded)
            if (entry.second == awaited)
              entry.second = value;
          awaited.replaceAllUsesWith(value);
        }
        await.erase();
      } else if (auto add = dyn_cast<async::AddToGroupOp>(user)) {
        add.erase();
      }
    }
  }
  // Later regions first: they use earlier ones' results.
  for (Operation *execute : llvm::reverse(ran)) {
    if (!execute->use_empty())
      return execute->emitOpError()
             << "is used in a way that cannot run in place on the caller's "
                "stream";
    execute->erase();
  }
  // Groups of regions that all ran in place: nothing left to wait for
  // (their add_to_group ops went with the regions).
  SmallVector<async::AwaitAllOp> awaitAlls;
  SmallVector<async::CreateGroupOp> groups;
  program.getFunctionBody().walk([&](Operation *op) {
    if (auto awaitAll = dyn_cast<async::AwaitAllOp>(op))
      awaitAlls.push_back(awaitAll);
    else if (auto group = dyn_cast<async::CreateGroupOp>(op))
      groups.push_back(group);
  });
  for (async::CreateGroupOp group : groups)
    for (Operation *user : group->getUsers())
      if (!isa<async::AwaitAllOp>(user))
        return user->emitOpError()
               << "adds to a group something that is not an async.execute "
                  "region of this program; only such regions can run on the "
                  "caller's stream";
  for (async::AwaitAllOp awaitAll : awaitAlls)
    awaitAll.erase();
  for (async::CreateGroupOp group : groups)
    group.erase();
  return success();
}
