//===- ConvertSDFGToFunc.cpp - Programs to functions with a status --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/Passes.h"

#include "SDFGStream/Analysis/StreamQueries.h"

#include "../SDFGToLLVM/RuntimeCalls.h"
#include "GraphModeChecks.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_CONVERTSDFGTOFUNC
#include "SDFGStream/Conversion/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct ConvertSDFGToFunc
    : public sdfg::impl::ConvertSDFGToFuncBase<ConvertSDFGToFunc> {
  using ConvertSDFGToFuncBase::ConvertSDFGToFuncBase;
  void runOnOperation() override;
};
} // namespace

/// Declares the runtime entries that bracket a program call in `module`:
/// sdfgrtBeginGraphCall or sdfgrtBeginCall, and sdfgrtEndCall; failure
/// (with an error at `loc`) if the module declares one of them otherwise.
static LogicalResult declareCallEntries(ModuleOp module, Location loc,
                                        bool graphMode) {
  RuntimeEntry begin = graphMode ? RuntimeEntry::sdfgrtBeginGraphCall
                                 : RuntimeEntry::sdfgrtBeginCall;
  return success(
      succeeded(lookupOrDeclareRuntimeEntryFunc(module, loc, begin)) &&
      succeeded(lookupOrDeclareRuntimeEntryFunc(module, loc,
                                                RuntimeEntry::sdfgrtEndCall)));
}

/// Opens the calls of `function` (a program, converted): with
/// sdfgrtBeginGraphCall("name") in graph mode, else sdfgrtBeginCall().
static void emitBeginCall(func::FuncOp function, bool graphMode) {
  OpBuilder builder = OpBuilder::atBlockBegin(&function.getBody().front());
  Location loc = function.getLoc();
  if (!graphMode) {
    createRuntimeEntryFuncCall(builder, loc, RuntimeEntry::sdfgrtBeginCall);
    return;
  }
  Value name = programNamePointer(builder, function, function.getSymName());
  createRuntimeEntryFuncCall(builder, loc, RuntimeEntry::sdfgrtBeginGraphCall,
                             name);
}

/// Replaces `program` by a func.func that returns the call's status.
static void convertProgram(SDFGOp program, bool graphMode) {
  MLIRContext *context = program.getContext();
  OpBuilder builder(program);
  Type i32 = builder.getI32Type();
  bool usesRuntime = static_cast<bool>(getInitStreamsOp(program));

  auto function = func::FuncOp::create(
      builder, program.getLoc(), program.getSymName(),
      builder.getFunctionType(program.getArgumentTypes(), {i32}));
  function.setVisibility(program.getVisibility());
  if (ArrayAttr argAttrs = program.getArgAttrsAttr())
    function.setArgAttrsAttr(argAttrs);
  // Discardable attributes (everything but the program's own fields).
  for (NamedAttribute attr : program->getDiscardableAttrs())
    function->setAttr(attr.getName(), attr.getValue());
  // The slots stay declared, so that the init op still verifies.
  SDFGDialect::NumStreamsAttrHelper(context).setAttr(
      function, builder.getI64IntegerAttr(program.getNumStreams()));
  if (usesRuntime)
    SDFGDialect::ProgramAttrHelper(context).setAttr(function,
                                                    UnitAttr::get(context));
  if (program.isPublic())
    function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(context));
  function.getBody().takeBody(program.getBody());

  if (!function.isExternal()) {
    if (usesRuntime)
      emitBeginCall(function, graphMode);
    SmallVector<ReturnOp> returns;
    function.walk([&](ReturnOp op) { returns.push_back(op); });
    for (ReturnOp op : returns) {
      builder.setInsertionPoint(op);
      Value status =
          usesRuntime
              ? createRuntimeEntryFuncCall(builder, op.getLoc(),
                                           RuntimeEntry::sdfgrtEndCall)
                    .front()
              : arith::ConstantIntOp::create(builder, op.getLoc(), i32, 0)
                    .getResult();
      func::ReturnOp::create(builder, op.getLoc(), status);
      op.erase();
    }
  }
  program.erase();
}

/// Whether `function` takes the caller's stream (sdfg-add-external-gpu-stream
/// marked the argument).
static bool takesExternalStream(func::FuncOp function) {
  for (unsigned index = 0, e = function.getNumArguments(); index < e; ++index)
    if (function.getArgAttr(index, SDFGDialect::getExternalStreamAttrName()))
      return true;
  return false;
}

/// Fails, with an error at the use, where a use of `function` could not
/// follow its type gaining the i32 status result: direct calls
/// (func.call) and the function's address (func.constant) called through
/// func.call_indirect can; the address going anywhere else (stored, passed
/// on, yielded, cast) would need the type changed there too.
static LogicalResult checkUsesTakeStatus(func::FuncOp function,
                                         ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(function, module);
  if (!uses)
    return success();
  auto changes = [&](InFlightDiagnostic diagnostic) {
    diagnostic << " @" << function.getSymName()
               << ", a program with GPU work whose type gains the call's "
                  "status (i32) as its result; only func.call and "
                  "func.call_indirect of it can follow that";
    diagnostic.attachNote(function.getLoc()) << "the program";
    return failure();
  };
  for (const SymbolTable::SymbolUse &use : *uses) {
    Operation *user = use.getUser();
    if (isa<func::CallOp>(user))
      continue;
    auto constant = dyn_cast<func::ConstantOp>(user);
    if (!constant)
      return changes(user->emitOpError() << "refers to");
    for (OpOperand &valueUse : constant->getUses()) {
      auto indirect = dyn_cast<func::CallIndirectOp>(valueUse.getOwner());
      if (!indirect || valueUse.getOperandNumber() != 0)
        return changes(valueUse.getOwner()->emitOpError()
                       << "takes the address of");
    }
  }
  return success();
}

/// Gives the func.call, func.constant and func.call_indirect uses of
/// `function` its new type: calls get the i32 result, which they ignore as
/// sdfg.call does.
static void retypeUses(func::FuncOp function, ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(function, module);
  if (!uses)
    return;
  OpBuilder builder(function.getContext());
  SmallVector<Operation *> users;
  for (const SymbolTable::SymbolUse &use : *uses)
    users.push_back(use.getUser());
  for (Operation *user : users) {
    if (auto call = dyn_cast<func::CallOp>(user)) {
      builder.setInsertionPoint(call);
      auto converted = func::CallOp::create(
          builder, call.getLoc(), call.getCallee(),
          function.getFunctionType().getResults(), call.getOperands());
      converted->setDiscardableAttrs(call->getDiscardableAttrDictionary());
      call.erase();
      continue;
    }
    auto constant = cast<func::ConstantOp>(user);
    constant.getResult().setType(function.getFunctionType());
    SmallVector<Operation *> indirectCalls(constant->getUsers());
    for (Operation *indirectUser : indirectCalls) {
      auto indirect = cast<func::CallIndirectOp>(indirectUser);
      builder.setInsertionPoint(indirect);
      auto converted = func::CallIndirectOp::create(
          builder, indirect.getLoc(), indirect.getCallee(),
          indirect.getCalleeOperands());
      converted->setDiscardableAttrs(
          indirect->getDiscardableAttrDictionary());
      indirect.erase();
    }
  }
}

/// Closes the calls of `function` (converted): an sdfgrtEndCall before each
/// of its returns. Returns each return with the status its call gives.
static SmallVector<std::pair<func::ReturnOp, Value>>
emitEndCalls(func::FuncOp function) {
  SmallVector<func::ReturnOp> returns;
  function.walk([&](func::ReturnOp op) { returns.push_back(op); });
  OpBuilder builder(function.getContext());
  SmallVector<std::pair<func::ReturnOp, Value>> closed;
  for (func::ReturnOp op : returns) {
    builder.setInsertionPoint(op);
    Value status = createRuntimeEntryFuncCall(builder, op.getLoc(),
                                              RuntimeEntry::sdfgrtEndCall)
                       .front();
    closed.push_back({op, status});
  }
  return closed;
}

/// A public func.func with a body is a program too: it gets a C entry
/// point, and one with GPU work that returns nothing returns the call's
/// status like an sdfg.sdfg program (its calls get the i32 result, which
/// they ignore as sdfg.call does). One with GPU work that returns values
/// keeps them; its calls are bracketed like a program's.
static LogicalResult convertFunctionProgram(func::FuncOp function,
                                            ModuleOp module, bool graphMode) {
  MLIRContext *context = function.getContext();
  function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
  if (!takesExternalStream(function))
    return success();
  OpBuilder builder(context);
  Type i32 = builder.getI32Type();
  if (function.getNumResults() != 0) {
    // A function that returns values of its own keeps its signature, but
    // its calls are bracketed all the same: a failure stops its GPU work
    // (sdfg-insert-failure-exits, which returns poison then), frees what the
    // call took, and is read with sdfgrtGetLastErrorCode(). Never in graph
    // mode: what it allocates may be returned, and graph mode keeps a
    // program's allocations for its next call.
    emitBeginCall(function, /*graphMode=*/false);
    emitEndCalls(function);
    return success();
  }
  if (failed(checkUsesTakeStatus(function, module)))
    return failure();
  function.setType(builder.getFunctionType(function.getArgumentTypes(), {i32}));
  SDFGDialect::ProgramAttrHelper(context).setAttr(function,
                                                  UnitAttr::get(context));
  emitBeginCall(function, graphMode);
  for (auto [op, status] : emitEndCalls(function)) {
    builder.setInsertionPoint(op);
    func::ReturnOp::create(builder, op.getLoc(), status);
    op.erase();
  }
  retypeUses(function, module);
  return success();
}

void ConvertSDFGToFunc::runOnOperation() {
  ModuleOp module = getOperation();
  // Library nodes live in sdfg.sdfg programs only: they must be expanded
  // before the programs become functions.
  WalkResult nodes = module.walk([](LibraryNodeOpInterface node) {
    node->emitOpError() << "is a library node, which must be expanded "
                           "(sdfg-expand-library-nodes) before "
                           "convert-sdfg-to-func turns its program into a "
                           "function";
    return WalkResult::interrupt();
  });
  if (nodes.wasInterrupted())
    return signalPassFailure();

  // Public functions written as func.func (before the sdfg.sdfg programs
  // become functions too, which are converted below).
  auto graphModeAttr = SDFGDialect::GraphModeAttrHelper(&getContext());
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  for (func::FuncOp function : functions) {
    if (!function.isPublic() || function.isExternal())
      continue;
    bool inGraphMode = (graphMode || graphModeAttr.isAttrPresent(function)) &&
                       (testOmitGraphModeChecks || !allocationsEscape(function));
    // A function that returns values of its own is never in graph mode.
    if (takesExternalStream(function) &&
        failed(
            declareCallEntries(module, function.getLoc(),
                               inGraphMode && function.getNumResults() == 0)))
      return signalPassFailure();
    if (failed(convertFunctionProgram(function, module, inGraphMode)))
      return signalPassFailure();
  }

  // Graph mode anywhere: calls that leave the runtime flush what was
  // recorded (before the programs' own calls are converted, which are no
  // such calls).
  bool anyGraphMode = graphMode;
  module.walk([&](Operation *op) {
    anyGraphMode |= isa<FunctionOpInterface>(op) &&
                    graphModeAttr.isAttrPresent(op);
  });
  if (anyGraphMode && !testOmitGraphModeChecks &&
      failed(insertGraphFlushes(module)))
    return signalPassFailure();

  SmallVector<SDFGOp> programs;
  SmallVector<CallOp> calls;
  getOperation().walk([&](Operation *op) {
    if (auto program = dyn_cast<SDFGOp>(op))
      programs.push_back(program);
    else if (auto call = dyn_cast<CallOp>(op))
      calls.push_back(call);
  });
  if (programs.empty())
    return;

  Type i32 = IntegerType::get(&getContext(), 32);
  for (CallOp call : calls) {
    OpBuilder builder(call);
    auto converted = func::CallOp::create(builder, call.getLoc(),
                                          call.getCallee(), TypeRange{i32},
                                          call.getOperands());
    converted->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    call.erase();
  }

  // Decided before any program becomes a function (calls between them are
  // followed as they are now).
  DenseMap<Operation *, bool> escaping;
  for (SDFGOp program : programs)
    escaping[program] =
        !testOmitGraphModeChecks &&
        allocationsEscape(cast<FunctionOpInterface>(program.getOperation()));
  for (SDFGOp program : programs) {
    bool inGraphMode = (graphMode || graphModeAttr.isAttrPresent(program)) &&
                       !escaping.lookup(program);
    if (getInitStreamsOp(program) &&
        failed(declareCallEntries(program->getParentOfType<ModuleOp>(),
                                  program.getLoc(), inGraphMode)))
      return signalPassFailure();
    convertProgram(program, inGraphMode);
  }
}
