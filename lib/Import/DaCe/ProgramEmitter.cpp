//===- ProgramEmitter.cpp - A program op, its arguments, entry and exit ---===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The program an SDFG becomes: its sdfg.sdfg op, the arguments DaCe's
// signature gives it (symbols, scalars by value, arrays), the transients
// that live for the whole call, and the entry and return blocks around the
// control flow (ControlFlowEmitter.cpp).
//
//===----------------------------------------------------------------------===//

#include "ControlFlowEmitter.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::sdfg;
using namespace mlir::sdfg::dace;

ProgramEmitter::ProgramEmitter(const SDFGModel &model,
                               const ImportOptions &options,
                               std::function<Location(llvm::StringRef)> locate,
                               OpBuilder &moduleBuilder)
    : model(model), options(options), locate(std::move(locate)),
      builder(moduleBuilder), context(moduleBuilder.getContext()) {}

LogicalResult
ControlFlowEmitter::setUpArguments(SDFGOp program,
                                   const std::vector<Argument> &arguments) {
  mlir::Block &entry = program.getBody().front();
  for (auto [argument, value] : llvm::zip(arguments, entry.getArguments())) {
    Location location = e.loc(argument.desc ? argument.desc->path : "");
    if (!argument.desc) {
      e.symbols[argument.name] = e.convert(
          {value, argument.symbolType.isUnsignedInteger()},
          symbolValueType(argument.symbolType),
          false, location);
      continue;
    }
    if (argument.desc->isScalar) {
      // A scalar is passed by value; it lives in a rank-0 buffer for the
      // call (copies and writes use it). One the program never writes is
      // read as the argument itself, which kernels capture by value.
      if (argument.desc->storage == Storage::GPUGlobal) {
        e.error(argument.desc->path)
            << "scalar argument '" << argument.name
            << "' in GPU_Global storage is not supported";
        return failure();
      }
      auto type = containerType(*argument.desc, e.context);
      Value buffer = memref::AllocaOp::create(b, location, type);
      memref::StoreOp::create(b, location, value, buffer, ValueRange());
      e.containers[argument.name] = Container{
          argument.desc, buffer,
          e.writtenScalars.contains(argument.name) ? Value() : value};
      continue;
    }
    e.containers[argument.name] = Container{argument.desc, value};
  }
  return success();
}

SDFGOp ControlFlowEmitter::emit() {
  const SDFGModel &model = e.model;
  std::vector<Argument> arguments = programArguments(model);
  SmallVector<Type> inputs;
  for (const Argument &argument : arguments) {
    if (!argument.desc)
      inputs.push_back(signlessType(argument.symbolType));
    else if (argument.desc->isScalar)
      inputs.push_back(signlessType(argument.desc->elementType));
    else
      inputs.push_back(containerType(*argument.desc, e.context));
  }
  for (auto [argument, type] : llvm::zip(arguments, inputs))
    if (!isa<MemRefType, IntegerType, IndexType, FloatType>(type)) {
      e.error(argument.desc ? argument.desc->path : model.path)
          << "argument '" << argument.name << "' of type " << type
          << " is not supported";
      return nullptr;
    }

  Location location = e.loc(model.path);
  auto program = SDFGOp::create(b, location, model.name,
                                b.getFunctionType(inputs, {}),
                                ProgramTarget::GPU, 1);
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    program.setArgAttr(index, SDFGDialect::getArgNameAttrName(),
                       b.getStringAttr(argument.name));
    if (argument.desc && !argument.desc->isScalar && !argument.desc->mayAlias)
      program.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                         b.getUnitAttr());
  }
  mlir::Block *entry = program.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(entry);
  if (failed(setUpArguments(program, arguments)))
    return nullptr;

  if (failed(emitBody([&](Location at) { ReturnOp::create(b, at); })))
    return nullptr;

  if (e.usesGpu) {
    program.setNumStreams(std::max<int64_t>(1, e.numSlots));
  } else {
    program.setTarget(ProgramTarget::CPU);
    program.setNumStreams(0);
  }
  return program;
}

LogicalResult ControlFlowEmitter::emitBody(
    llvm::function_ref<void(Location)> terminate) {
  const SDFGModel &model = e.model;
  Location location = e.loc(model.path);
  collectAssigned(model.cfg);
  // Symbols the SDFG assigns start as their argument value (a free symbol
  // read before it is assigned) or zero.
  for (const auto &[name, type] : assigned) {
    auto it = e.symbols.find(name);
    if (it != e.symbols.end())
      continue;
    e.symbols[name] = CValue{
        arith::ConstantOp::create(b, location, type, b.getZeroAttr(type)),
        false};
  }
  if (failed(e.allocateTransients(/*state=*/nullptr, programTransients)))
    return failure();

  returnBlock = newBlock();
  if (failed(emitRegion(model.cfg, returnBlock, LoopTargets())))
    return failure();

  // The return block last, so that the code reads in control order.
  mlir::Region &body = *returnBlock->getParent();
  body.getBlocks().remove(returnBlock);
  body.push_back(returnBlock);
  enter(returnBlock);
  e.freeTransients(programTransients, location);
  terminate(location);
  return success();
}

// An error reported where no failure is returned (a conversion that is not
// supported yet) fails the program too.
SDFGOp ProgramEmitter::emit() {
  SDFGOp program = ControlFlowEmitter(*this).emit();
  return hadError ? SDFGOp() : program;
}

LogicalResult
ProgramEmitter::emitBody(llvm::function_ref<void(Location)> terminate) {
  LogicalResult result = ControlFlowEmitter(*this).emitBody(terminate);
  return hadError ? failure() : result;
}
