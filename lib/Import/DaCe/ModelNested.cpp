//===- ModelNested.cpp - A NestedSDFG node's SDFG and symbol mapping ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// ModelReader's reader of a NestedSDFG node (ModelReader.h): the SDFG it
// holds, read like the top-level one, and its `symbol_mapping`. The
// connectors are checked as DaCe checks them
// (dace/sdfg/nodes.py::NestedSDFG.validate): each names a non-transient
// container of the inner SDFG and every non-transient container has one;
// a connector may not name a symbol. Which outer values the connectors and
// symbols take is decided where the node is emitted (NestedSDFGEmitter.cpp).
//
//===----------------------------------------------------------------------===//

#include "ModelReader.h"

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail; // Array, Object, JValue too

bool ModelReader::readNestedSDFG(const Object &attributes, llvm::StringRef path,
                                 Node &node) {
  std::string owner = "NestedSDFG '" + node.label + "'";
  auto info = std::make_shared<NestedSDFGInfo>();
  const JValue *sdfg = attributes.get("sdfg");
  if (!sdfg || sdfg->kind() == JValue::Null) {
    error(path) << owner << " holds no SDFG";
    return false;
  }
  // The inner SDFG's errors name its own states; the outer state and node
  // being read are restored afterwards.
  const ControlFlowBlock *outerState = currentState;
  const Node *outerNode = currentNode;
  currentState = nullptr;
  currentNode = nullptr;
  std::unique_ptr<SDFGModel> inner = readSDFG(*sdfg, joinJsonPath(path, "sdfg"));
  currentState = outerState;
  currentNode = outerNode;
  if (!inner)
    return false;
  info->sdfg = std::move(inner);
  const SDFGModel &model = *info->sdfg;

  if (const JValue *mapping = attributes.get("symbol_mapping");
      mapping && mapping->kind() != JValue::Null) {
    std::string mappingPath = joinJsonPath(path, "symbol_mapping");
    const Object *object = asObject(mapping, mappingPath, "'symbol_mapping'");
    if (!object)
      return false;
    for (const auto &[key, value] : *object) {
      std::string valuePath = joinJsonPath(mappingPath, key.str());
      std::string name = llvm::StringRef(key).ltrim('$').str();
      std::optional<SymExpr> expr = readExpression(&value, valuePath);
      if (!expr)
        return false;
      if (!expr->expr) {
        error(valuePath) << "the symbol_mapping of " << owner
                         << " gives symbol '" << name << "' no value";
        return false;
      }
      info->symbolMapping.emplace_back(name, std::move(*expr));
    }
    llvm::sort(info->symbolMapping, [](const auto &a, const auto &b) {
      return a.first < b.first;
    });
  }

  std::vector<std::string> connectors = node.inConnectors;
  llvm::append_range(connectors, node.outConnectors);
  for (const std::string &connector : connectors) {
    if (model.symbols.count(connector)) {
      error(node.path) << "connector '" << connector << "' of " << owner
                  << " names a symbol of its SDFG; symbols are passed in "
                     "the symbol_mapping";
      return false;
    }
    auto desc = model.arrays.find(connector);
    if (desc == model.arrays.end()) {
      error(node.path) << "connector '" << connector << "' of " << owner
                  << " names no container of its SDFG '" << model.name
                  << "'";
      return false;
    }
    if (desc->second.transient) {
      error(node.path) << "connector '" << connector << "' of " << owner
                  << " names a transient of its SDFG";
      return false;
    }
  }
  for (const auto &[name, desc] : model.arrays)
    if (!desc.transient && !llvm::is_contained(connectors, name)) {
      error(desc.path) << "container '" << name << "' of the SDFG of "
                       << owner << " is bound to no connector";
      return false;
    }
  node.nested = std::move(info);
  return !failed;
}
