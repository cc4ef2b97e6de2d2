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
