//===- ProgramOp.cpp - sdfg.sdfg, the program op --------------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The custom assembly, building and verification of sdfg.sdfg (its other
// ops are in SDFGOps.cpp, which also instantiates the op classes).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::sdfg;

//===----------------------------------------------------------------------===//
// SDFGOp
//===----------------------------------------------------------------------===//

void SDFGOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ProgramTarget target,
                   int64_t numStreams) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addAttribute(getTargetAttrName(state.name),
                     ProgramTargetAttr::get(builder.getContext(), target));
  state.addAttribute(getNumStreamsAttrName(state.name),
                     builder.getI64IntegerAttr(numStreams));
  state.addRegion();
}

ParseResult SDFGOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  (void)impl::parseOptionalVisibilityKeyword(parser, result.attributes);

  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  SMLoc signatureLoc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!resultTypes.empty())
    return parser.emitError(signatureLoc)
           << "a program has no results; it writes its outputs into its "
              "array arguments";

  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : args)
    argTypes.push_back(arg.type);
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(builder.getFunctionType(argTypes, {})));

  // target(gpu|cpu [, streams = N])
  StringRef targetKeyword;
  SMLoc targetLoc;
  if (parser.parseKeyword("target") || parser.parseLParen() ||
      (targetLoc = parser.getCurrentLocation(),
       parser.parseKeyword(&targetKeyword)))
    return failure();
  std::optional<ProgramTarget> target = symbolizeProgramTarget(targetKeyword);
  if (!target)
    return parser.emitError(targetLoc)
           << "expected program target 'gpu' or 'cpu', got '" << targetKeyword
           << "'";
  int64_t numStreams = *target == ProgramTarget::GPU ? 1 : 0;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("streams") || parser.parseEqual() ||
        parser.parseInteger(numStreams))
      return failure();
  }
  if (parser.parseRParen())
    return failure();
  result.addAttribute(getTargetAttrName(result.name),
                      ProgramTargetAttr::get(builder.getContext(), *target));
  result.addAttribute(getNumStreamsAttrName(result.name),
                      builder.getI64IntegerAttr(numStreams));

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  call_interface_impl::addArgAndResultAttrs(
      builder, result, args, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));

  Region *body = result.addRegion();
  OptionalParseResult parsed =
      parser.parseOptionalRegion(*body, args, /*enableNameShadowing=*/false);
  if (parsed.has_value() && failed(*parsed))
    return failure();
  return success();
}

void SDFGOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (auto visibility = getSymVisibility())
    p << *visibility << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  p << " target(" << stringifyProgramTarget(getTarget());
  if (isGpuProgram())
    p << ", streams = " << getNumStreams();
  p << ')';
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getFunctionTypeAttrName(), getArgAttrsAttrName(), getResAttrsAttrName(),
       getSymVisibilityAttrName(), getTargetAttrName(),
       getNumStreamsAttrName()});
  Region &body = getBody();
  if (!body.empty()) {
    p << ' ';
    p.printRegion(body, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
}

void SDFGOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  if (&region != &getBody() || region.empty())
    return;
  for (BlockArgument arg : region.getArguments()) {
    if (auto name = getArgAttrOfType<StringAttr>(
            arg.getArgNumber(), SDFGDialect::getExternalStreamAttrName()))
      setNameFn(arg, name.getValue());
    else if (auto name = getArgAttrOfType<StringAttr>(
                 arg.getArgNumber(), SDFGDialect::getArgNameAttrName()))
      setNameFn(arg, name.getValue());
  }
}

LogicalResult SDFGOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError() << "a program has no results; it writes its outputs "
                            "into its array arguments";
  if (!isGpuProgram() && getNumStreams() != 0)
    return emitOpError() << "a CPU program has no stream slots, but declares "
                         << getNumStreams();
  if (getNumStreams() > SDFGDialect::getMaxStreamSlots())
    return emitOpError() << "declares " << getNumStreams()
                         << " stream slots; a program has at most "
                         << SDFGDialect::getMaxStreamSlots();
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    if (isa<MemRefType, IntegerType, IndexType, FloatType, StreamType>(type))
      continue;
    return emitOpError() << "argument #" << index << " has type " << type
                         << "; program arguments are arrays (memref), "
                            "symbols and scalars (integer, index, float) or "
                            "the external stream (!sdfg.stream)";
  }
  return success();
}

LogicalResult SDFGOp::verifyRegions() {
  if (isGpuProgram() || isExternal())
    return success();
  // A CPU program must not contain GPU work. Kernels (in gpu.module or
  // gpu.launch bodies) are not reachable from here: only host ops are seen.
  WalkResult result = getBody().walk([&](Operation *op) {
    if (!isHostGpuWork(op))
      return WalkResult::advance();
    op->emitOpError() << "is GPU work, but program @" << getSymName()
                      << " targets the CPU";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
