//===- CheckArgumentDevices.cpp - GPU buffers on the stream's device ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Inserts sdfg.check_device for every GPU-memory argument of each public
// program on the caller's stream, right after its sdfg.init_streams: a
// buffer of another device than the stream's then fails the call with a
// clear error instead of faulting a kernel.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/Passes.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "SDFGStream/Analysis/BufferAliasAnalysis.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_CHECKARGUMENTDEVICES
#include "SDFGStream/Transforms/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct CheckArgumentDevices
    : public sdfg::impl::CheckArgumentDevicesBase<CheckArgumentDevices> {
  using CheckArgumentDevicesBase::CheckArgumentDevicesBase;
  void runOnOperation() override;
};
} // namespace

/// A ranked buffer in GPU memory (the one "what memory" predicate, from the
/// memory space: 1 or #gpu.address_space<...>).
static bool isGpuMemory(Type type) {
  return isa<MemRefType>(type) && getMemoryKind(type) == MemoryKind::Device;
}

void CheckArgumentDevices::runOnOperation() {
  forEachProgramOnStream(getOperation(), [&](FunctionOpInterface program,
                                             InitStreamsOp init) {
    if (program.isPrivate() ||
        !program.getFunctionBody().getOps<CheckDeviceOp>().empty())
      return;
    Value stream = init.getSlots().front();
    OpBuilder builder = OpBuilder::atBlockBegin(init->getBlock());
    builder.setInsertionPointAfter(init);
    for (BlockArgument argument : program.getArguments())
      if (isGpuMemory(argument.getType()))
        CheckDeviceOp::create(builder, init.getLoc(), argument, stream,
                              argument.getArgNumber());
  });
}
