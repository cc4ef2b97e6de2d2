//===- LibraryNodes.cpp - Implementations of the library nodes ------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Each library node builds the nested program that implements it, for the
// GPU (kernels in a gpu.module, launched in sync form:
// sdfg-add-external-gpu-stream moves them onto the stream) and for the CPU
// (host loops).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::sdfg;

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// Threads per block of the reduction kernel and the cap on its grid: a
/// grid-stride loop covers any size with at most this many blocks.
static constexpr int64_t kReduceBlockSize = 256;
static constexpr int64_t kReduceMaxBlocks = 1024;

static arith::AtomicRMWKind getAtomicKind(ReductionKind kind,
                                          Type elementType) {
  bool isFloat = isa<FloatType>(elementType);
  switch (kind) {
  case ReductionKind::Add:
    return isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  case ReductionKind::Max:
    return isFloat ? arith::AtomicRMWKind::maximumf
                   : arith::AtomicRMWKind::maxs;
  case ReductionKind::Min:
    return isFloat ? arith::AtomicRMWKind::minimumf
                   : arith::AtomicRMWKind::mins;
  }
  llvm_unreachable("unknown reduction kind");
}

/// Makes `text` usable inside a bare symbol name.
static std::string sanitize(StringRef text) {
  std::string result;
  for (char c : text)
    result.push_back(llvm::isAlnum(c) ? c : '_');
  return result;
}

Value ReduceOp::getNodeStream() { return getStream(); }

void ReduceOp::setNodeStream(Value stream) {
  getStreamMutable().assign(stream);
}

SmallVector<Value> ReduceOp::getDataOperands() {
  return {getInput(), getOutput()};
}

std::string ReduceOp::getImplementationName(ProgramTarget target) {
  // Nodes that differ only in shape or memory space get the same name; the
  // expansion then tells them apart by signature.
  std::string elementType;
  llvm::raw_string_ostream os(elementType);
  os << cast<MemRefType>(getInput().getType()).getElementType();
  return ("__sdfg_reduce_" + stringifyReductionKind(getKind()) + "_" +
          sanitize(elementType) + "_" + stringifyProgramTarget(target))
      .str();
}

/// Emits `acc = combine(acc, input[i])` for i in [lower, upper) by `step`
/// and returns the final accumulator.
static Value buildAccumulationLoop(OpBuilder &builder, Location loc,
                                   arith::AtomicRMWKind kind, Value input,
                                   Value lower, Value upper, Value step) {
  Type elementType = cast<MemRefType>(input.getType()).getElementType();
  Value identity = arith::getIdentityValue(kind, elementType, builder, loc);
  auto loop = scf::ForOp::create(
      builder, loc, lower, upper, step, ValueRange{identity},
      [&](OpBuilder &b, Location l, Value iv, ValueRange acc) {
        Value element = memref::LoadOp::create(b, l, input, ValueRange{iv});
        Value combined = arith::getReductionOp(kind, b, l, acc[0], element);
        scf::YieldOp::create(b, l, combined);
      });
  return loop.getResult(0);
}

/// Whether the GPU can combine `elementType` values in memory atomically:
/// floats and integers of whole, power-of-two bytes. An i1 (stored as a
/// byte, of which it is one bit) has no atomic.
static bool hasAtomics(Type elementType) {
  unsigned width = elementType.getIntOrFloatBitWidth();
  return width % 8 == 0 && llvm::isPowerOf2_32(width / 8);
}

/// Kernel body of the grid-wide reduction: a grid-stride loop into a
/// private accumulator, then one atomic combine per thread into the output
/// (which the program set to the identity first).
static void buildAtomicReduction(OpBuilder &builder, Location loc,
                                 arith::AtomicRMWKind kind, Block &entry) {
  Value first = gpu::GlobalIdOp::create(builder, loc, gpu::Dimension::x);
  Value stride = arith::MulIOp::create(
      builder, loc, gpu::GridDimOp::create(builder, loc, gpu::Dimension::x),
      gpu::BlockDimOp::create(builder, loc, gpu::Dimension::x));
  Value partial = buildAccumulationLoop(builder, loc, kind, entry.getArgument(0),
                                        first, entry.getArgument(2), stride);
  memref::AtomicRMWOp::create(builder, loc, kind, partial,
                              entry.getArgument(1), ValueRange{});
}

/// Kernel body of the reduction of a type without atomics, run as one
/// block: a block-stride loop per thread into workgroup memory, a barrier,
/// then thread 0 combines the partials and stores the result.
static void buildBlockReduction(OpBuilder &builder, Location loc,
                                arith::AtomicRMWKind kind, Block &entry,
                                Value partials) {
  Value thread = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value threads = gpu::BlockDimOp::create(builder, loc, gpu::Dimension::x);
  Value partial = buildAccumulationLoop(builder, loc, kind, entry.getArgument(0),
                                        thread, entry.getArgument(2), threads);
  memref::StoreOp::create(builder, loc, partial, partials, ValueRange{thread});
  gpu::BarrierOp::create(builder, loc);
  Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(builder, loc, 1);
  Value isFirst = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        thread, c0);
  scf::IfOp::create(builder, loc, isFirst, [&](OpBuilder &b, Location l) {
    Value result =
        buildAccumulationLoop(b, l, kind, partials, c0, threads, c1);
    memref::StoreOp::create(b, l, result, entry.getArgument(1), ValueRange{});
    scf::YieldOp::create(b, l);
  });
}

FailureOr<FunctionOpInterface>
ReduceOp::buildImplementation(OpBuilder &builder, ProgramTarget target,
                              StringRef name) {
  Location loc = getLoc();
  Value input = getInput();
  Value output = getOutput();
  Type elementType = cast<MemRefType>(input.getType()).getElementType();
  arith::AtomicRMWKind kind = getAtomicKind(getKind(), elementType);
  Type indexType = builder.getIndexType();
  FunctionType programType =
      builder.getFunctionType({input.getType(), output.getType()}, {});
  bool atomic = hasAtomics(elementType);

  gpu::GPUFuncOp kernel;
  if (target == ProgramTarget::GPU) {
    // Kernels live in a gpu.module next to the program; the enclosing module
    // must say it contains GPU modules.
    Operation *symbolTable = builder.getInsertionBlock()->getParentOp();
    symbolTable->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                         builder.getUnitAttr());
    auto kernels =
        gpu::GPUModuleOp::create(builder, loc, (name + "_kernels").str());
    OpBuilder kernelBuilder = OpBuilder::atBlockEnd(kernels.getBody());
    SmallVector<Type> workgroup;
    if (!atomic)
      workgroup.push_back(MemRefType::get(
          {kReduceBlockSize}, elementType, AffineMap(),
          gpu::AddressSpaceAttr::get(builder.getContext(),
                                     gpu::AddressSpace::Workgroup)));
    kernel = gpu::GPUFuncOp::create(
        kernelBuilder, loc, "reduce",
        builder.getFunctionType(
            {input.getType(), output.getType(), indexType}, {}),
        workgroup);
    kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                    builder.getUnitAttr());
    Block &entry = kernel.getBody().front();
    kernelBuilder.setInsertionPointToStart(&entry);
    if (atomic)
      buildAtomicReduction(kernelBuilder, loc, kind, entry);
    else
      buildBlockReduction(kernelBuilder, loc, kind, entry,
                          kernel.getWorkgroupAttributions().front());
    gpu::ReturnOp::create(kernelBuilder, loc);
  }

  auto program = SDFGOp::create(builder, loc, name, programType, target,
                                target == ProgramTarget::GPU ? 1 : 0);
  program.setPrivate();
  Block *entry = program.addEntryBlock();
  OpBuilder body = OpBuilder::atBlockBegin(entry);
  Value programInput = entry->getArgument(0);
  Value programOutput = entry->getArgument(1);
  Value c0 = arith::ConstantIndexOp::create(body, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(body, loc, 1);
  Value size = memref::DimOp::create(body, loc, programInput, c0);

  if (target == ProgramTarget::GPU) {
    Value blockSize = arith::ConstantIndexOp::create(body, loc, kReduceBlockSize);
    Value blocks = c1;
    if (atomic) {
      Value identity = arith::getIdentityValue(kind, elementType, body, loc);
      gpu::MemsetOp::create(body, loc, /*asyncToken=*/Type(),
                            /*asyncDependencies=*/ValueRange{}, programOutput,
                            identity);
      Value maxBlocks =
          arith::ConstantIndexOp::create(body, loc, kReduceMaxBlocks);
      // blocks = clamp((size + blockSize - 1) / blockSize, 1, maxBlocks)
      Value rounded = arith::AddIOp::create(
          body, loc, size,
          arith::ConstantIndexOp::create(body, loc, kReduceBlockSize - 1));
      blocks = arith::DivUIOp::create(body, loc, rounded, blockSize);
      blocks = arith::MinUIOp::create(body, loc, blocks, maxBlocks);
      blocks = arith::MaxUIOp::create(body, loc, blocks, c1);
    }
    gpu::LaunchFuncOp::create(body, loc, kernel,
                              gpu::KernelDim3{blocks, c1, c1},
                              gpu::KernelDim3{blockSize, c1, c1},
                              /*dynamicSharedMemorySize=*/Value(),
                              ValueRange{programInput, programOutput, size});
  } else {
    Value result = buildAccumulationLoop(body, loc, kind, programInput, c0,
                                         size, c1);
    memref::StoreOp::create(body, loc, result, programOutput, ValueRange{});
  }
  ReturnOp::create(body, loc);
  return cast<FunctionOpInterface>(program.getOperation());
}
