//===- ControlFlowEmitter.cpp - An SDFG's control flow as a CFG of states -===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The program's region is the SDFG's control flow, flattened into blocks:
// a state is one block; a LoopRegion becomes init / condition / body /
// update blocks as dace/codegen/control_flow.py::GeneralLoopScope writes
// its for, do-while and while(1) forms; a ConditionalBlock a chain of
// tests, first true branch wins. An interstate edge is a branch: a block's
// out-edges are tried in order, the first whose condition holds is taken
// and its assignments run in order (ControlFlow.generate_transition); when
// none holds, the region ends. Every symbol the SDFG assigns (interstate
// assignments, loop variables) is a block argument of every block, so that
// each block sees the value of the path that reached it.
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"

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

namespace mlir {
namespace sdfg {
namespace dace {

/// Builds the control flow of one program.
class ControlFlowEmitter {
public:
  explicit ControlFlowEmitter(ProgramEmitter &e) : e(e), b(e.builder) {}

  SDFGOp emit();

private:
  struct LoopTargets {
    mlir::Block *breakTarget = nullptr;
    mlir::Block *continueTarget = nullptr;
  };

  /// A new block with one argument per assigned symbol.
  mlir::Block *newBlock();
  /// Binds the symbols to the arguments of `block` and moves the builder
  /// to its end.
  void enter(mlir::Block *block);
  /// Branches to `target` passing the current symbol values.
  void branchTo(mlir::Block *target, Location location);
  /// Emits `region`; control leaves it into `exit`.
  LogicalResult emitRegion(const ControlFlowRegion &region, mlir::Block *exit,
                           const LoopTargets &loop);
  LogicalResult emitLoop(const ControlFlowBlock &loop, mlir::Block *exit,
                         const LoopTargets &outer);
  LogicalResult emitConditional(const ControlFlowBlock &conditional, mlir::Block *exit,
                                const LoopTargets &loop);
  /// Runs `x = e` statements of a loop's init or update (symbols only).
  LogicalResult assign(const std::vector<PyStatement> &statements,
                       llvm::StringRef path);
  LogicalResult assignSymbol(const std::string &name, const PyExpr &value,
                             llvm::StringRef path);
  /// Collects the symbols the SDFG assigns, in name order.
  void collectAssigned(const ControlFlowRegion &region);
  LogicalResult setUpArguments(SDFGOp program,
                               const std::vector<Argument> &arguments);
  LogicalResult allocateProgramTransients();

  ProgramEmitter &e;
  OpBuilder &b;
  /// Assigned symbols and their types, in block argument order.
  std::vector<std::pair<std::string, Type>> assigned;
  mlir::Block *returnBlock = nullptr;
  /// Transients allocated for the whole call, freed in `returnBlock`.
  SmallVector<std::pair<Value, bool>> programTransients;
};

} // namespace dace
} // namespace sdfg
} // namespace mlir

/// The type a symbol has inside the program: integers as `index`.
static Type symbolValueType(Type declared) {
  if (isa<IntegerType>(declared) && !declared.isInteger(1))
    return IndexType::get(declared.getContext());
  return signlessType(declared);
}

void ControlFlowEmitter::collectAssigned(const ControlFlowRegion &region) {
  auto add = [&](const std::string &name) {
    if (llvm::any_of(assigned, [&](auto &entry) { return entry.first == name; }))
      return;
    auto declared = e.model.symbols.find(name);
    Type type = declared != e.model.symbols.end()
                    ? symbolValueType(declared->second)
                    : b.getIndexType();
    assigned.emplace_back(name, type);
  };
  for (const InterstateEdge &edge : region.edges)
    for (const auto &assignment : edge.assignments)
      add(assignment.first);
  for (const ControlFlowBlock &block : region.blocks) {
    if (block.kind == ControlFlowBlock::Kind::Loop) {
      if (!block.loopVariable.empty())
        add(block.loopVariable);
      for (const auto *statements : {&block.init, &block.update})
        for (const PyStatement &statement : *statements)
          if (statement.target && statement.target->kind == PyExpr::Kind::Name)
            add(statement.target->name);
      collectAssigned(*block.body);
    }
    for (const auto &branch : block.branches)
      collectAssigned(*branch.second);
  }
}

mlir::Block *ControlFlowEmitter::newBlock() {
  mlir::Region &body = *b.getBlock()->getParent();
  auto *block = new mlir::Block();
  body.push_back(block);
  for (const auto &entry : assigned)
    block->addArgument(entry.second, body.getLoc());
  return block;
}

void ControlFlowEmitter::enter(mlir::Block *block) {
  b.setInsertionPointToEnd(block);
  for (auto [entry, argument] : llvm::zip(assigned, block->getArguments()))
    e.symbols[entry.first] = CValue{argument, false};
}

void ControlFlowEmitter::branchTo(mlir::Block *target, Location location) {
  SmallVector<Value> operands;
  for (const auto &entry : assigned)
    operands.push_back(e.symbols[entry.first].value);
  cf::BranchOp::create(b, location, target, operands);
}

LogicalResult ControlFlowEmitter::assignSymbol(const std::string &name,
                                               const PyExpr &value,
                                               llvm::StringRef path) {
  auto slot = llvm::find_if(assigned,
                            [&](auto &entry) { return entry.first == name; });
  if (slot == assigned.end()) {
    e.error(path) << "'" << name << "' is assigned but is not a symbol";
    return failure();
  }
  CValue result = e.emitExpression(value, path);
  if (!result)
    return failure();
  e.symbols[name] = e.convert(result, slot->second, false, e.loc(path));
  return success();
}

LogicalResult
ControlFlowEmitter::assign(const std::vector<PyStatement> &statements,
                           llvm::StringRef path) {
  for (const PyStatement &statement : statements) {
    if (statement.kind != PyStatement::Kind::Simple || !statement.target ||
        statement.target->kind != PyExpr::Kind::Name ||
        statement.augmentedOp != PyExpr::Op::None) {
      e.error(path) << "expected assignments to symbols ('i = ...')";
      return failure();
    }
    if (failed(assignSymbol(statement.target->name, *statement.value, path)))
      return failure();
  }
  return success();
}

LogicalResult ControlFlowEmitter::emitLoop(const ControlFlowBlock &loop, mlir::Block *exit,
                                           const LoopTargets &) {
  Location location = e.loc(loop.path);
  if (failed(assign(loop.init, loop.path)))
    return failure();
  mlir::Block *condition = newBlock();
  mlir::Block *body = newBlock();
  mlir::Block *latch = newBlock();
  LoopTargets targets{exit, latch};

  // The for form tests before the body; the inverted (do-while) form runs
  // the body first.
  branchTo(loop.inverted ? body : condition, location);

  enter(condition);
  Value test = e.emitCondition(loop.loopCondition);
  if (!test)
    return failure();
  SmallVector<Value> operands;
  for (const auto &entry : assigned)
    operands.push_back(e.symbols[entry.first].value);
  if (!loop.inverted || loop.updateBeforeCondition) {
    cf::CondBranchOp::create(b, location, test, body, operands, exit,
                             operands);
  } else {
    // while (1) { body; if (!cond) break; update; }
    mlir::Block *update = newBlock();
    cf::CondBranchOp::create(b, location, test, update, operands, exit,
                             operands);
    enter(update);
    if (failed(assign(loop.update, loop.path)))
      return failure();
    branchTo(body, location);
  }

  enter(body);
  if (failed(emitRegion(*loop.body, latch, targets)))
    return failure();

  enter(latch);
  if (!loop.inverted || loop.updateBeforeCondition) {
    if (failed(assign(loop.update, loop.path)))
      return failure();
  }
  branchTo(condition, location);
  return success();
}

LogicalResult ControlFlowEmitter::emitConditional(const ControlFlowBlock &conditional,
                                                  mlir::Block *exit,
                                                  const LoopTargets &loop) {
  Location location = e.loc(conditional.path);
  for (const auto &[condition, region] : conditional.branches) {
    mlir::Block *branch = newBlock();
    mlir::Block *next = newBlock();
    Value test = condition ? e.emitCondition(*condition)
                           : arith::ConstantOp::create(b, location,
                                                       b.getBoolAttr(true))
                                 .getResult();
    if (!test)
      return failure();
    SmallVector<Value> operands;
    for (const auto &entry : assigned)
      operands.push_back(e.symbols[entry.first].value);
    cf::CondBranchOp::create(b, location, test, branch, operands, next,
                             operands);
    enter(branch);
    if (failed(emitRegion(*region, exit, loop)))
      return failure();
    enter(next);
  }
  branchTo(exit, location);
  return success();
}

LogicalResult ControlFlowEmitter::emitRegion(const ControlFlowRegion &region,
                                             mlir::Block *exit,
                                             const LoopTargets &loop) {
  if (region.blocks.empty()) {
    branchTo(exit, e.loc(region.path));
    return success();
  }
  SmallVector<mlir::Block *> entries;
  for (size_t i = 0; i < region.blocks.size(); ++i)
    entries.push_back(newBlock());
  branchTo(entries[region.start], e.loc(region.path));

  for (auto [index, block] : llvm::enumerate(region.blocks)) {
    enter(entries[index]);
    Location location = e.loc(block.path);
    switch (block.kind) {
    case ControlFlowBlock::Kind::State:
      if (failed(e.emitState(block)))
        return failure();
      break;
    case ControlFlowBlock::Kind::Loop:
    case ControlFlowBlock::Kind::Conditional: {
      mlir::Block *after = newBlock();
      if (failed(block.kind == ControlFlowBlock::Kind::Loop
                     ? emitLoop(block, after, loop)
                     : emitConditional(block, after, loop)))
        return failure();
      enter(after);
      break;
    }
    case ControlFlowBlock::Kind::Break:
    case ControlFlowBlock::Kind::Continue: {
      mlir::Block *target = block.kind == ControlFlowBlock::Kind::Break
                                ? loop.breakTarget
                                : loop.continueTarget;
      if (!target) {
        e.error(block.path) << block.type << " '" << block.label
                            << "' is not inside a loop";
        return failure();
      }
      branchTo(target, location);
      continue;
    }
    case ControlFlowBlock::Kind::Return:
      branchTo(returnBlock, location);
      continue;
    }

    // The out-edges in order: the first whose condition holds is taken.
    for (const InterstateEdge &edge : region.edges) {
      if (edge.src != index)
        continue;
      Location edgeLocation = e.loc(edge.path);
      mlir::Block *taken = newBlock();
      mlir::Block *notTaken = nullptr;
      if (edge.condition.expr) {
        Value test = e.emitCondition(edge.condition);
        if (!test)
          return failure();
        notTaken = newBlock();
        SmallVector<Value> operands;
        for (const auto &entry : assigned)
          operands.push_back(e.symbols[entry.first].value);
        cf::CondBranchOp::create(b, edgeLocation, test, taken, operands,
                                 notTaken, operands);
      } else {
        branchTo(taken, edgeLocation);
      }
      enter(taken);
      for (const auto &[name, value] : edge.assignments)
        if (failed(assignSymbol(name, *value.expr, value.path)))
          return failure();
      branchTo(entries[edge.dst], edgeLocation);
      if (!notTaken)
        break;
      enter(notTaken);
    }
    if (!b.getBlock()->empty() &&
        b.getBlock()->back().hasTrait<OpTrait::IsTerminator>())
      continue;
    branchTo(exit, location);
  }
  return success();
}

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
    return nullptr;

  returnBlock = newBlock();
  if (failed(emitRegion(model.cfg, returnBlock, LoopTargets())))
    return nullptr;

  // The return block last, so that the program reads in control order.
  program.getBody().getBlocks().remove(returnBlock);
  program.getBody().push_back(returnBlock);
  enter(returnBlock);
  e.freeTransients(programTransients, location);
  ReturnOp::create(b, location);

  if (e.usesGpu) {
    program.setNumStreams(std::max<int64_t>(1, e.numSlots));
  } else {
    program.setTarget(ProgramTarget::CPU);
    program.setNumStreams(0);
  }
  return program;
}

SDFGOp ProgramEmitter::emit() { return ControlFlowEmitter(*this).emit(); }
