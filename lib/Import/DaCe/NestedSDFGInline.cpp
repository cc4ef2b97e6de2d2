//===- NestedSDFGInline.cpp - A NestedSDFG inlined into a GPU kernel ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Inside a GPU_Device map DaCe generates a NestedSDFG as device code that
// every thread runs (dace/codegen/targets/cuda.py::CUDACodeGen.
// _generate_NestedSDFG hands it to the CPU code generator's
// _generate_NestedSDFG with the kernel as the calling code generator):
// its states, loops and branches become the thread's control flow and its
// transients the thread's locals. Here its control flow is inlined into
// the kernel as the blocks of an scf.execute_region (the same blocks the
// host program gets, ControlFlowEmitter.cpp, interstate assignments as
// block arguments), its transients per-thread allocas, a scalar it only
// reads a value and every write with write-conflict resolution atomic
// (another thread may write the same element through the outer memlet).
// Nested SDFGs inside it are inlined the same way, to any depth.
//
//===----------------------------------------------------------------------===//

#include "NestedSDFGEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sdfg;
using namespace mlir::sdfg::dace;

LogicalResult NestedSDFGEmitter::emitInline() {
  Location location = e.loc(node.path);
  for (const auto &[name, desc] : model.arrays)
    if (desc.transient &&
        !containerType(desc, e.context).hasStaticShape()) {
      e.error(desc.path) << "transient '" << name << "' of NestedSDFG '"
                         << node.label
                         << "' inside a GPU kernel has a size that is not a "
                            "constant";
      return failure();
    }

  ProgramEmitter inner(model, e.options, e.locate, b);
  inner.inKernel = true;
  // No name of the inner SDFG is a thread index of the kernel: every
  // write with write-conflict resolution is treated as colliding.
  inner.kernelParams = {"<thread of the enclosing kernel>"};
  bindInnerSymbols(inner, symbolValues, location);
  for (const auto &entry : bound) {
    Container container = entry.getValue();
    if (container.value && writtenInside.contains(entry.getKey())) {
      // A scalar passed by value that the nested SDFG writes: its own copy.
      Value copy = memref::AllocaOp::create(
          b, location, MemRefType::get({}, container.value.getType()));
      memref::StoreOp::create(b, location, container.value, copy,
                              ValueRange());
      container = Container{container.desc, copy};
    }
    inner.containers[entry.getKey()] = container;
  }

  auto region = scf::ExecuteRegionOp::create(b, location, TypeRange());
  auto *entryBlock = new mlir::Block();
  region.getRegion().push_back(entryBlock);
  inner.builder.setInsertionPointToEnd(entryBlock);
  return inner.emitBody(
      [&](Location at) { scf::YieldOp::create(inner.builder, at); });
}

LogicalResult mlir::sdfg::dace::copyElements(ProgramEmitter &e, Value from,
                                             Value to, Location location,
                                             bool fromUnsigned,
                                             bool toUnsigned) {
  OpBuilder &b = e.builder;
  OpBuilder::InsertionGuard guard(b);
  auto type = cast<MemRefType>(from.getType());
  SmallVector<Value> indices;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    Value lower = arith::ConstantIndexOp::create(b, location, 0);
    Value upper = b.createOrFold<memref::DimOp>(location, from, i);
    Value step = arith::ConstantIndexOp::create(b, location, 1);
    auto loop = scf::ForOp::create(b, location, lower, upper, step);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    indices.push_back(loop.getInductionVar());
  }
  Value element = memref::LoadOp::create(b, location, from, indices);
  // CopyND assigns element by element: C++'s conversion between element
  // types.
  Type toElement = cast<MemRefType>(to.getType()).getElementType();
  CValue converted =
      e.convert({element, fromUnsigned}, toElement, toUnsigned, location);
  if (!converted)
    return failure();
  memref::StoreOp::create(b, location, converted.value, to, indices);
  return success();
}
