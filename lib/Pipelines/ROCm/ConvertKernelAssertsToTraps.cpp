//===- ConvertKernelAssertsToTraps.cpp - cf.assert in kernels, no runtime -===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// convert-gpu-to-rocdl lowers cf.assert with the host's pattern, which puts
// the message into the top-level module, out of the kernel's reach: the
// result does not verify. Here an assert becomes what HIP's __assert_fail
// does: print the message (gpu.printf, lowered through the hostcall
// buffer), then trap.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Pipelines/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_CONVERTKERNELASSERTSTOTRAPS
#include "SDFGStream/Pipelines/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct ConvertKernelAssertsToTraps
    : public sdfg::impl::ConvertKernelAssertsToTrapsBase<
          ConvertKernelAssertsToTraps> {
  void runOnOperation() override;
};
} // namespace

/// `text` as a printf format that prints it literally.
static std::string escapeFormat(StringRef text) {
  std::string escaped;
  for (char c : text) {
    if (c == '%')
      escaped += '%';
    escaped += c;
  }
  return escaped;
}

/// "file:line:col" of `loc`, or "(unknown)" (as __assertfail's file).
static std::string describeLocation(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (isa<FileLineColLoc>(inner))
        return describeLocation(inner);
  if (auto named = dyn_cast<NameLoc>(loc))
    return describeLocation(named.getChildLoc());
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().str() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  return "(unknown)";
}

/// Replaces `assertOp` by a branch to a block that prints its message and
/// traps.
static void convertAssert(cf::AssertOp assertOp) {
  Location loc = assertOp.getLoc();
  OpBuilder builder(assertOp);
  Block *before = assertOp->getBlock();
  Block *after = before->splitBlock(assertOp->getNextNode());
  Block *failed = builder.createBlock(after);

  SmallVector<Value> where;
  for (auto id : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    where.push_back(gpu::BlockIdOp::create(builder, loc, id));
  for (auto id : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    where.push_back(gpu::ThreadIdOp::create(builder, loc, id));
  std::string format =
      escapeFormat(describeLocation(loc)) +
      ": block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] Assertion `" +
      escapeFormat(assertOp.getMsg()) + "` failed.\n";
  gpu::PrintfOp::create(builder, loc, builder.getStringAttr(format), where);
  LLVM::Trap::create(builder, loc);
  LLVM::UnreachableOp::create(builder, loc);

  builder.setInsertionPointToEnd(before);
  cf::CondBranchOp::create(builder, loc, assertOp.getArg(), after,
                           ValueRange(), failed, ValueRange());
  assertOp.erase();
}

void ConvertKernelAssertsToTraps::runOnOperation() {
  SmallVector<cf::AssertOp> asserts;
  getOperation().walk([&](cf::AssertOp op) { asserts.push_back(op); });
  for (cf::AssertOp op : asserts)
    convertAssert(op);
}
