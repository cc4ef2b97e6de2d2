//===- NestedSDFGEmitter.cpp - A NestedSDFG node on the host, its bindings ===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// DaCe compiles a NestedSDFG as a function of its own
// (dace/codegen/targets/cpu.py::CPUCodeGen._generate_NestedSDFG) called
// with the connectors' memlet references and the symbol mapping's values
// (generate_nsdfg_arguments, generate_nsdfg_call): an array connector is a
// pointer to the first element of the memlet's subset, indexed with the
// inner descriptor's shape and strides; a scalar connector that is only an
// input is passed by value, one the node writes by reference; each inner
// symbol takes its mapped value converted to the symbol's type, and one the
// mapping omits the outer symbol of the same name.
//
// Here a connector is a memref.reinterpret_cast of the outer container at
// the subset's first element with the inner shape and strides. On the host
// the nested SDFG becomes a private sdfg.sdfg program of its own, called
// with sdfg.call on the node's stream slot: the stream passes see its GPU
// work through the call, as they see a library node's. Inside a kernel it
// is inlined (NestedSDFGInline.cpp).
//
//===----------------------------------------------------------------------===//

#include "NestedSDFGEmitter.h"

#include "ControlFlowEmitter.h"
#include "StateScopes.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

#include <set>

using namespace mlir;
using namespace mlir::sdfg;
using namespace mlir::sdfg::dace;

static void symbolNames(const PyExpr &expr, const SDFGModel &model,
                        std::set<std::string> &names) {
  if (expr.kind == PyExpr::Kind::Name && model.symbols.count(expr.name))
    names.insert(expr.name);
  for (const PyExprPtr &operand : expr.operands)
    symbolNames(*operand, model, names);
}

static void collectWritten(const ControlFlowRegion &region,
                           llvm::StringSet<> &names) {
  for (const ControlFlowBlock &block : region.blocks) {
    for (const StateEdge &edge : block.state.edges) {
      const Node &dst = block.state.nodes[block.state.byId.at(edge.dst)];
      if (dst.kind == Node::Kind::Access)
        names.insert(dst.data);
    }
    if (block.body)
      collectWritten(*block.body, names);
    for (const auto &branch : block.branches)
      collectWritten(*branch.second, names);
  }
}

LogicalResult NestedSDFGEmitter::bindSymbols() {
  std::set<std::string> needed, arguments;
  for (const Argument &argument : programArguments(model))
    if (!argument.desc)
      arguments.insert(argument.name);
  needed = arguments;
  for (const auto &[name, desc] : model.arrays) {
    if (desc.transient)
      continue;
    for (const auto *list : {&desc.shape, &desc.strides, &desc.offset})
      for (const SymExpr &expr : *list)
        symbolNames(*expr.expr, model, needed);
  }
  for (const std::string &name : needed) {
    Type type = model.symbols.at(name);
    auto mapped = llvm::find_if(info.symbolMapping, [&](const auto &entry) {
      return entry.first == name;
    });
    CValue value;
    std::string path = node.path;
    if (mapped != info.symbolMapping.end() && !arguments.count(name)) {
      // A symbol only in the shape of an inner array, mapped to outer
      // symbols the outer SDFG has no value of (by DaCe's rule they are
      // no one's arguments, as GT4Py's fields' range ends): left unbound,
      // connectorView takes that size from the outer container.
      std::set<std::string> outer;
      symbolNames(*mapped->second.expr, e.model, outer);
      if (llvm::any_of(outer, [&](const std::string &outerName) {
            return !e.symbols.count(outerName);
          }))
        continue;
    }
    if (mapped != info.symbolMapping.end()) {
      path = mapped->second.path;
      value = e.emitExpression(*mapped->second.expr, path);
      if (!value)
        return failure();
    } else if (auto outer = e.symbols.find(name); outer != e.symbols.end()) {
      value = outer->second;
    } else {
      e.error(node.path) << "symbol '" << name << "' of the SDFG of NestedSDFG '"
                         << node.label
                         << "' has no value: the symbol_mapping does not map "
                            "it and no symbol of that name is defined outside";
      return failure();
    }
    symbolValues[name] = e.convert(value, signlessType(type),
                                   type.isUnsignedInteger(), e.loc(path));
  }
  return success();
}

void NestedSDFGEmitter::bindInnerSymbols(
    ProgramEmitter &inner, const llvm::StringMap<CValue> &values,
    Location location) {
  for (const auto &entry : values) {
    Type type = model.symbols.at(entry.getKey().str());
    inner.symbols[entry.getKey()] =
        inner.convert(entry.getValue(), symbolValueType(type), false, location);
  }
}

Value NestedSDFGEmitter::connectorView(ProgramEmitter &scratch,
                                       const DataDesc &inner,
                                       const Container &outer,
                                       const Memlet &memlet) {
  Location location = e.loc(memlet.path);
  auto outerType = cast<MemRefType>(outer.memref.getType());
  if (outerType.getElementType() != signlessType(inner.elementType)) {
    e.error(memlet.path) << "connector '" << inner.name << "' of NestedSDFG '"
                         << node.label << "' has element type "
                         << inner.elementType << " but '" << memlet.data
                         << "' has " << outer.desc->elementType;
    return {};
  }
  SmallVector<Value> starts;
  if (memlet.subset) {
    if (static_cast<int64_t>(memlet.subset->dims.size()) !=
        outerType.getRank()) {
      e.error(memlet.subset->path)
          << "a " << memlet.subset->dims.size() << "-dimensional subset of the "
          << outerType.getRank() << "-dimensional '" << memlet.data << "'";
      return {};
    }
    starts = e.subsetStart(*memlet.subset, *outer.desc);
    if (starts.size() != memlet.subset->dims.size())
      return {};
  }
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, location, outer.memref);
  Value offset = metadata.getOffset();
  for (auto [start, stride] : llvm::zip(starts, metadata.getStrides()))
    offset = b.createOrFold<arith::AddIOp>(
        location, offset,
        b.createOrFold<arith::MulIOp>(location, start, stride));

  // The inner shape and strides are expressions in the inner symbols; a
  // size in symbols left unbound (bindSymbols) is what the outer container
  // holds from the subset's start on.
  SmallVector<Value> sizes, strides;
  for (auto [i, size] : llvm::enumerate(inner.shape)) {
    std::set<std::string> names;
    symbolNames(*size.expr, model, names);
    bool unbound = llvm::any_of(names, [&](const std::string &name) {
      return !scratch.symbols.count(name);
    });
    if (unbound && !inner.isScalar &&
        static_cast<int64_t>(inner.shape.size()) == outerType.getRank()) {
      Value dim = memref::DimOp::create(b, location, outer.memref, i);
      sizes.push_back(starts.empty() ? dim
                                     : b.createOrFold<arith::SubIOp>(
                                           location, dim, starts[i]));
      continue;
    }
    sizes.push_back(scratch.emitIndex(size));
    if (!sizes.back())
      return {};
  }
  if (inner.isScalar)
    sizes.clear();
  if (inner.explicitStrides && !inner.isScalar) {
    for (const SymExpr &stride : inner.strides) {
      strides.push_back(scratch.emitIndex(stride));
      if (!strides.back())
        return {};
    }
  } else {
    strides.assign(sizes.size(), Value());
    Value running = arith::ConstantIndexOp::create(b, location, 1);
    for (size_t i = sizes.size(); i-- > 0;) {
      strides[i] = running;
      running = b.createOrFold<arith::MulIOp>(location, running, sizes[i]);
    }
  }
  SmallVector<OpFoldResult> foldedSizes, foldedStrides;
  for (Value size : sizes)
    foldedSizes.push_back(getAsOpFoldResult(size));
  for (Value stride : strides)
    foldedStrides.push_back(getAsOpFoldResult(stride));
  return memref::ReinterpretCastOp::create(b, location, outer.memref,
                                           getAsOpFoldResult(offset),
                                           foldedSizes, foldedStrides);
}

LogicalResult NestedSDFGEmitter::bindConnectors() {
  // An in-out connector is bound by its out-edge (generate_nsdfg_arguments).
  llvm::StringMap<const Memlet *> memlets;
  for (const StateEdge &edge : state.edges) {
    if (edge.dst == node.id && !edge.dstConnector.empty() &&
        !llvm::is_contained(node.outConnectors, edge.dstConnector))
      memlets[edge.dstConnector] = &edge.memlet;
    if (edge.src == node.id && !edge.srcConnector.empty())
      memlets[edge.srcConnector] = &edge.memlet;
  }
  // Evaluates the inner shapes and strides here, in the inner symbols.
  ProgramEmitter scratch(model, e.options, e.locate, b);
  bindInnerSymbols(scratch, symbolValues, e.loc(node.path));
  std::set<std::string> connectors(node.inConnectors.begin(),
                                   node.inConnectors.end());
  connectors.insert(node.outConnectors.begin(), node.outConnectors.end());
  for (const std::string &connector : connectors) {
    const Memlet *memlet = memlets.lookup(connector);
    if (!memlet || memlet->data.empty()) {
      e.error(node.path) << "connector '" << connector << "' of NestedSDFG '"
                         << node.label << "' is bound to no memlet";
      return failure();
    }
    auto outer = e.containers.find(memlet->data);
    if (outer == e.containers.end()) {
      e.error(memlet->path) << "NestedSDFG '" << node.label
                            << "' accesses the unknown container '"
                            << memlet->data << "'";
      return failure();
    }
    const DataDesc &inner = model.arrays.at(connector);
    Value view = connectorView(scratch, inner, outer->second, *memlet);
    if (!view)
      return failure();
    Container container{&inner, view};
    bool output = llvm::is_contained(node.outConnectors, connector);
    // A scalar only read is passed by value; on the host only from host
    // memory (a GPU scalar stays a reference, as DaCe's GPU code passes it).
    if (inner.isScalar && !output && (e.inKernel || !outer->second.onGpu())) {
      Location location = e.loc(memlet->path);
      if (cast<MemRefType>(outer->second.memref.getType()).getRank() == 0) {
        PyExpr read{PyExpr::Kind::Name};
        read.name = memlet->data;
        CValue value = e.emitExpression(read, memlet->path);
        if (!value)
          return failure();
        container.value = value.value;
      } else {
        container.value = memref::LoadOp::create(b, location, view);
      }
    }
    bound[connector] = container;
  }
  return success();
}

LogicalResult NestedSDFGEmitter::emitCall() {
  Location location = e.loc(node.path);
  std::vector<Argument> arguments = programArguments(model);
  SmallVector<Value> operands;
  for (const Argument &argument : arguments) {
    if (!argument.desc) {
      operands.push_back(symbolValues.lookup(argument.name).value);
      continue;
    }
    const Container &container = bound[argument.name];
    operands.push_back(container.value ? container.value : container.memref);
  }
  SmallVector<Type> types(ValueRange(operands).getTypes());

  // The program goes next to the outermost one, under a fresh name.
  Operation *top = b.getInsertionBlock()->getParentOp();
  while (!isa<ModuleOp>(top->getParentOp()))
    top = top->getParentOp();
  Operation *module = top->getParentOp();
  std::string name = model.name;
  for (int suffix = 1; SymbolTable::lookupSymbolIn(module, name); ++suffix)
    name = model.name + "_" + std::to_string(suffix);
  OpBuilder moduleBuilder(top);
  auto program = SDFGOp::create(moduleBuilder, e.loc(model.path), name,
                                moduleBuilder.getFunctionType(types, {}),
                                ProgramTarget::GPU, 1);
  program.setPrivate();
  for (auto [index, argument] : llvm::enumerate(arguments))
    program.setArgAttr(index, SDFGDialect::getArgNameAttrName(),
                       moduleBuilder.getStringAttr(argument.name));
  mlir::Block *entry = program.addEntryBlock();

  ProgramEmitter inner(model, e.options, e.locate, moduleBuilder);
  inner.builder.setInsertionPointToEnd(entry);
  if (failed(placeTransients(inner)))
    return failure();
  llvm::StringMap<CValue> symbolArguments;
  for (auto [argument, value] : llvm::zip(arguments, entry->getArguments())) {
    if (!argument.desc) {
      symbolArguments[argument.name] =
          CValue{value, argument.symbolType.isUnsignedInteger()};
      continue;
    }
    if (!isa<MemRefType>(value.getType())) {
      // By value: a copy in a rank-0 buffer, as the top-level program
      // keeps a scalar argument.
      Value buffer = memref::AllocaOp::create(
          inner.builder, location,
          MemRefType::get({}, value.getType()));
      memref::StoreOp::create(inner.builder, location, value, buffer,
                              ValueRange());
      inner.containers[argument.name] = Container{
          argument.desc, buffer,
          inner.writtenScalars.contains(argument.name) ? Value() : value};
      continue;
    }
    inner.containers[argument.name] = Container{argument.desc, value};
  }
  bindInnerSymbols(inner, symbolArguments, location);
  if (failed(inner.emitBody(
          [&](Location at) { ReturnOp::create(inner.builder, at); })))
    return failure();
  // A program that takes GPU memory is a GPU program, even if all it does
  // with it is pass it on or read it on the host.
  bool gpu = inner.usesGpu || llvm::any_of(types, [](Type type) {
               auto memref = dyn_cast<MemRefType>(type);
               return memref && memref.getMemorySpace();
             });
  if (gpu) {
    program.setNumStreams(std::max<int64_t>(1, inner.numSlots));
  } else {
    program.setTarget(ProgramTarget::CPU);
    program.setNumStreams(0);
  }

  auto call = CallOp::create(b, location, name, operands);
  if (gpu)
    e.setSlot(call, node);
  return success();
}

LogicalResult NestedSDFGEmitter::emit() {
  collectWritten(model.cfg, writtenInside);
  if (failed(bindSymbols()) || failed(bindConnectors()))
    return failure();
  return e.inKernel ? emitInline() : emitCall();
}

LogicalResult ProgramEmitter::emitNestedSDFG(const State &state,
                                             const Node &node) {
  return NestedSDFGEmitter(*this, state, node).emit();
}
