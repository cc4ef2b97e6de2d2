//===- SDFGDialect.cpp - The sdfg dialect and its attributes --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Registration of the dialect, its type, and the verification of the
// discardable attributes it owns (`sdfg.stream_slot`, `sdfg.num_streams`,
// `sdfg.concurrent_streams`, `sdfg.token_chains`, `sdfg.program`) and of its argument attribute
// (`sdfg.external_stream`).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdfg;

#include "SDFGStream/Dialect/SDFG/IR/SDFGOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "SDFGStream/Dialect/SDFG/IR/SDFGOpsTypes.cpp.inc"

void SDFGDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "SDFGStream/Dialect/SDFG/IR/SDFGOpsTypes.cpp.inc"
      >();
}

/// Returns the name of `program` for diagnostics.
static StringRef programName(Operation *program) {
  if (auto symbol = dyn_cast<SymbolOpInterface>(program))
    return symbol.getName();
  return program->getName().getStringRef();
}

LogicalResult SDFGDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == StreamSlotAttrHelper::getNameStr()) {
    auto slot = dyn_cast<IntegerAttr>(attr.getValue());
    if (!slot || slot.getValue().isNegative())
      return op->emitOpError() << "'" << name
                               << "' must be a non-negative integer";
    auto program = op->getParentOfType<FunctionOpInterface>();
    if (!program)
      return op->emitOpError() << "'" << name
                               << "' is only meaningful inside a program";
    int64_t numSlots = getNumStreamSlots(program);
    // Compared as an APInt: the attribute may be wider than 64 bits.
    if (slot.getValue().sge(numSlots))
      return op->emitOpError()
             << "stream slot " << toString(slot.getValue(), 10, /*Signed=*/true)
             << " is out of range: program @" << programName(program)
             << " has " << numSlots << " stream slot"
             << (numSlots == 1 ? "" : "s");
    return success();
  }
  if (name == NumStreamsAttrHelper::getNameStr()) {
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    if (!count || count.getValue().isNegative())
      return op->emitOpError() << "'" << name
                               << "' must be a non-negative integer";
    if (count.getValue().sgt(getMaxStreamSlots()))
      return op->emitOpError()
             << "'" << name << "' is "
             << toString(count.getValue(), 10, /*Signed=*/true)
             << "; a program has at most " << getMaxStreamSlots()
             << " stream slots";
    if (isa<SDFGOp>(op))
      return op->emitOpError() << "'" << name
                               << "' is for functions; an sdfg.sdfg declares "
                                  "its slots with 'streams = N'";
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << name << "' must be on a function";
    return success();
  }
  if (name == ConcurrentStreamsAttrHelper::getNameStr() ||
      name == TokenChainsAttrHelper::getNameStr() ||
      name == GraphModeAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << name << "' must be on a program";
    // Both ask something of the program's GPU work, which a CPU program
    // has none of: an attribute there would be accepted and do nothing.
    if (auto program = dyn_cast<SDFGOp>(op); program && !program.isGpuProgram())
      return op->emitOpError()
             << "'" << name << "' is on a program that targets the CPU; it "
                "applies to the GPU work of target(gpu) programs";
    return success();
  }
  if (name == ProgramAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!function || isa<SDFGOp>(op))
      return op->emitOpError() << "'" << name << "' must be on a func.func";
    ArrayRef<Type> results = function.getResultTypes();
    if (results.size() != 1 || !results.front().isInteger(32))
      return op->emitOpError() << "'" << name
                               << "' marks a function that returns the "
                                  "call's status: its one result is an i32";
    return success();
  }
  if (name == getExternalStreamAttrName())
    return op->emitOpError() << "'" << name
                             << "' is an argument attribute: it marks the "
                                "argument of a program that carries the "
                                "caller's stream";
  return op->emitOpError() << "unknown sdfg dialect attribute '" << name
                           << "'";
}

LogicalResult SDFGDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getArgNameAttrName()) {
    auto value = dyn_cast<StringAttr>(attr.getValue());
    if (!value || value.getValue().empty())
      return op->emitOpError() << "'" << name
                               << "' must be a non-empty string (the "
                                  "argument's name in the source program)";
    if (!isa<FunctionOpInterface>(op) || regionIndex != 0)
      return op->emitOpError() << "'" << name
                               << "' marks an argument of a program";
    return success();
  }
  if (name != getExternalStreamAttrName())
    return op->emitOpError() << "unknown sdfg dialect argument attribute '"
                             << name << "'";
  if (!isa<StringAttr>(attr.getValue()))
    return op->emitOpError() << "'" << name
                             << "' must be a string (the argument's name)";
  auto program = dyn_cast<FunctionOpInterface>(op);
  if (!program || regionIndex != 0)
    return op->emitOpError() << "'" << name
                             << "' marks an argument of a program";
  // Use the signature, not the entry block: declarations have no body.
  ArrayRef<Type> argTypes = program.getArgumentTypes();
  if (argIndex >= argTypes.size())
    return success(); // Reported by the function interface itself.
  // Once lowered to the LLVM dialect the stream is a plain pointer.
  if (!isa<StreamType, LLVM::LLVMPointerType>(argTypes[argIndex]))
    return op->emitOpError()
           << "external stream argument #" << argIndex << " has type "
           << argTypes[argIndex] << ", expected '!sdfg.stream'";
  // The passes put the caller's stream last; a program whose stream came
  // from an async object keeps it where its own callers pass it. Either
  // way, a program has one.
  for (unsigned i = 0, e = argTypes.size(); i < e; ++i)
    if (i != argIndex && program.getArgAttr(i, getExternalStreamAttrName()))
      return op->emitOpError()
             << "marks arguments #" << std::min(i, argIndex) << " and #"
             << std::max(i, argIndex)
             << " as the caller's stream; a program has one";
  return success();
}
