//===- ModelNodes.cpp - An SDFG's data, memlets and nodes -----------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// ModelReader's readers of data descriptors and the arrays of an SDFG,
// memlets, and the nodes of a state (ModelReader.h).
//
//===----------------------------------------------------------------------===//

#include "ModelReader.h"

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail; // Array, Object, JValue too

bool ModelReader::readDescriptor(llvm::StringRef name, const JValue &value,
                                 llvm::StringRef path, DataDesc &desc) {
  const Object *object = asObject(&value, path, "a data descriptor");
  if (!object)
    return false;
  desc.name = name.str();
  desc.path = path.str();
  std::string type = getString(*object, "type", path).value_or("");
  // dace/data/core.py: `View` is the name ArrayView had before DaCe 0.15.
  desc.isView = type == "ArrayView" || type == "View";
  if (type != "Array" && type != "Scalar" && !desc.isView) {
    error(path) << "data container '" << name << "' is a '" << type
                << "', which is not supported (Array, Scalar and the array "
                   "views ArrayView and View are)";
    return false;
  }
  desc.isScalar = type == "Scalar";
  std::string attributesPath = joinJsonPath(path, "attributes");
  const Object *attributes =
      asObject(object->get("attributes"), attributesPath, "'attributes'");
  if (!attributes)
    return false;
  desc.elementType = parseDtype(attributes->get("dtype"),
                                joinJsonPath(attributesPath, "dtype"));
  if (!desc.elementType)
    return false;

  auto readList = [&](llvm::StringRef key, std::vector<SymExpr> &out) {
    const Array *list = getArray(*attributes, key, attributesPath, false);
    if (!list)
      return !failed;
    std::string listPath = joinJsonPath(attributesPath, key);
    for (auto [i, element] : llvm::enumerate(*list)) {
      std::string elementPath = joinJsonPath(listPath, i);
      std::optional<std::string> text = getExpressionText(&element, elementPath);
      if (!text)
        return false;
      std::optional<SymExpr> expr = parseExpression(*text, elementPath);
      if (!expr || !expr->expr) {
        if (expr)
          error(elementPath) << "empty expression in '" << key << "'";
        return false;
      }
      out.push_back(std::move(*expr));
    }
    return true;
  };
  if (!desc.isScalar) {
    if (!readList("shape", desc.shape) || !readList("strides", desc.strides) ||
        !readList("offset", desc.offset))
      return false;
    desc.explicitStrides = !desc.strides.empty();
    if (desc.shape.empty()) {
      error(attributesPath) << "array '" << name << "' has no shape";
      return false;
    }
    if ((desc.explicitStrides && desc.strides.size() != desc.shape.size()) ||
        (!desc.offset.empty() && desc.offset.size() != desc.shape.size())) {
      error(attributesPath) << "array '" << name
                            << "': shape, strides and offset differ in rank";
      return false;
    }
  }
  // dace/data/core.py::View.view: views are always transient.
  desc.transient =
      getBool(*attributes, "transient", false, attributesPath) || desc.isView;
  desc.mayAlias = getBool(*attributes, "may_alias", false, attributesPath);
  if (std::optional<std::string> storage =
          getString(*attributes, "storage", attributesPath)) {
    std::optional<Storage> parsed =
        parseStorage(*storage, joinJsonPath(attributesPath, "storage"),
                     "container '" + name.str() + "'");
    if (!parsed)
      return false;
    desc.storage = *parsed;
  }
  if (std::optional<std::string> lifetime =
          getString(*attributes, "lifetime", attributesPath)) {
    llvm::StringRef value = enumValue(*lifetime);
    if (value == "External") {
      error(joinJsonPath(attributesPath, "lifetime"))
          << "lifetime 'External' of container '" << name
          << "' is not supported";
      return false;
    }
    desc.scopeLifetime = value == "Scope";
  }
  if (!desc.isScalar && !readLayout(*attributes, attributesPath, desc))
    return false;
  return !failed;
}

bool ModelReader::readArrays(const Object &attributes, llvm::StringRef path,
                             SDFGModel &model) {
  const JValue *arrays = attributes.get("_arrays");
  if (!arrays || arrays->kind() == JValue::Null)
    return true;
  std::string arraysPath = joinJsonPath(path, "_arrays");
  const Object *object = asObject(arrays, arraysPath, "'_arrays'");
  if (!object)
    return false;
  for (const auto &[name, value] : *object) {
    DataDesc desc;
    if (!readDescriptor(name, value, joinJsonPath(arraysPath, name.str()),
                        desc))
      return false;
    model.arrays.emplace(name.str(), std::move(desc));
  }
  return true;
}

bool ModelReader::readMemlet(const JValue *value, llvm::StringRef path,
                             Memlet &memlet) {
  memlet.path = path.str();
  if (!value || value->kind() == JValue::Null)
    return true;
  const Object *object = asObject(value, path, "a memlet");
  if (!object)
    return false;
  std::string attributesPath = joinJsonPath(path, "attributes");
  const Object *attributes =
      asObject(object->get("attributes"), attributesPath, "'attributes'");
  if (!attributes)
    return false;
  memlet.data = getString(*attributes, "data", attributesPath).value_or("");
  if (const JValue *subset = attributes->get("subset");
      subset && subset->kind() != JValue::Null) {
    memlet.subset = parseSubset(subset, joinJsonPath(attributesPath, "subset"));
    if (!memlet.subset)
      return false;
  }
  if (const JValue *other = attributes->get("other_subset");
      other && other->kind() != JValue::Null) {
    memlet.otherSubset =
        parseSubset(other, joinJsonPath(attributesPath, "other_subset"));
    if (!memlet.otherSubset)
      return false;
  }
  memlet.dynamic = getBool(*attributes, "dynamic", false, attributesPath);
  memlet.wcrNonatomic =
      getBool(*attributes, "wcr_nonatomic", false, attributesPath);
  if (std::optional<std::string> wcr =
          getString(*attributes, "wcr", attributesPath)) {
    memlet.wcr = parseExpression(*wcr, joinJsonPath(attributesPath, "wcr"));
    if (!memlet.wcr)
      return false;
  }
  return !failed;
}

bool ModelReader::readNode(const Object &object, llvm::StringRef path,
                           Node &node) {
  node.path = path.str();
  node.type = getString(object, "type", path).value_or("");
  node.label = getString(object, "label", path).value_or("");
  if (std::optional<int64_t> id =
          object.get("id") ? object.get("id")->getAsInteger() : std::nullopt)
    node.id = *id;
  else {
    error(path) << "node without an integer 'id'";
    return false;
  }
  std::string attributesPath = joinJsonPath(path, "attributes");
  const Object *attributes =
      asObject(object.get("attributes"), attributesPath, "'attributes'");
  if (!attributes)
    return false;
  std::string owner = node.type + " '" + node.label + "'";

  auto connectors = [&](llvm::StringRef key, std::vector<std::string> &out) {
    const JValue *value = attributes->get(key);
    if (!value || value->kind() == JValue::Null)
      return;
    if (const Object *names = value->getAsObject()) {
      for (const auto &entry : *names)
        out.push_back(entry.first.str());
      llvm::sort(out);
    } else if (const Array *list = value->getAsArray()) {
      for (const JValue &name : *list)
        if (std::optional<llvm::StringRef> text = name.getAsString())
          out.push_back(text->str());
    }
  };

  if (node.type == "AccessNode") {
    node.kind = Node::Kind::Access;
    std::optional<std::string> data =
        getString(*attributes, "data", attributesPath);
    if (!data) {
      error(path) << "AccessNode '" << node.label << "' names no data";
      return false;
    }
    node.data = *data;
    node.setzero = getBool(*attributes, "setzero", false, attributesPath);
    return !failed;
  }
  if (node.type == "MapEntry" || node.type == "MapExit") {
    node.kind = node.type == "MapEntry" ? Node::Kind::MapEntry
                                        : Node::Kind::MapExit;
    connectors("in_connectors", node.inConnectors);
    connectors("out_connectors", node.outConnectors);
    if (node.kind == Node::Kind::MapExit)
      return !failed;
    const Array *params = getArray(*attributes, "params", attributesPath, true);
    if (!params)
      return false;
    for (const JValue &param : *params) {
      std::optional<llvm::StringRef> name = param.getAsString();
      if (!name) {
        error(joinJsonPath(attributesPath, "params"))
            << "map parameters must be names";
        return false;
      }
      node.params.push_back(name->ltrim('$').str());
    }
    std::optional<Subset> range = parseSubset(
        attributes->get("range"), joinJsonPath(attributesPath, "range"));
    if (!range)
      return false;
    node.range = std::move(*range);
    if (node.range.dims.size() != node.params.size()) {
      error(attributesPath) << "map '" << node.label << "' has "
                            << node.params.size() << " parameters but a "
                            << node.range.dims.size() << "-dimensional range";
      return false;
    }
    if (!readSchedule(*attributes, attributesPath, owner, node.schedule))
      return false;
    if (const Array *block =
            getArray(*attributes, "gpu_block_size", attributesPath, false)) {
      for (const JValue &size : *block) {
        std::optional<int64_t> value = size.getAsInteger();
        if (!value) {
          if (std::optional<llvm::StringRef> text = size.getAsString()) {
            int64_t parsed;
            if (!text->trim().getAsInteger(10, parsed))
              value = parsed;
          }
        }
        if (!value || *value < 1) {
          error(joinJsonPath(attributesPath, "gpu_block_size"))
              << "gpu_block_size of map '" << node.label
              << "' must be positive integer constants";
          return false;
        }
        node.gpuBlockSize.push_back(*value);
      }
    }
    return !failed;
  }
  if (node.type == "Tasklet") {
    node.kind = Node::Kind::Tasklet;
    connectors("in_connectors", node.inConnectors);
    connectors("out_connectors", node.outConnectors);
    std::optional<Code> code = getCode(attributes->get("code"),
                                       joinJsonPath(attributesPath, "code"),
                                       "the code of " + owner);
    if (!code)
      return false;
    node.code = std::move(*code);
    for (llvm::StringRef key : {"code_global", "code_init", "code_exit"}) {
      const JValue *extra = attributes->get(key);
      if (!extra || extra->kind() == JValue::Null)
        continue;
      const Object *block = extra->getAsObject();
      std::optional<std::string> text =
          block ? getString(*block, "string_data", attributesPath)
                : std::nullopt;
      if (text && !llvm::StringRef(*text).trim().empty()) {
        error(joinJsonPath(attributesPath, key))
            << owner << " has '" << key << "', which is not supported";
        return false;
      }
    }
    if (getBool(*attributes, "side_effects", false, attributesPath)) {
      error(attributesPath) << owner
                            << " has side effects, which is not supported";
      return false;
    }
    std::optional<std::vector<PyStatement>> statements =
        parseStatements(node.code);
    if (!statements)
      return false;
    node.statements = std::move(*statements);
    return !failed;
  }
  std::string classpath = getString(object, "classpath", path).value_or(
      getString(*attributes, "classpath", attributesPath).value_or(""));
  if (node.type == "Reduce" ||
      (node.type == "LibraryNode" &&
       llvm::StringRef(classpath).ends_with("nodes.reduce.Reduce"))) {
    node.kind = Node::Kind::Reduce;
    connectors("in_connectors", node.inConnectors);
    connectors("out_connectors", node.outConnectors);
    if (std::optional<std::string> wcr =
            getString(*attributes, "wcr", attributesPath)) {
      node.reduceWcr =
          parseExpression(*wcr, joinJsonPath(attributesPath, "wcr"));
      if (!node.reduceWcr)
        return false;
    }
    if (const Array *axes = getArray(*attributes, "axes", attributesPath,
                                     false)) {
      node.reduceAxes.emplace();
      for (const JValue &axis : *axes)
        node.reduceAxes->push_back(axis.getAsInteger().value_or(-1));
    }
    if (const JValue *identity = attributes->get("identity");
        identity && identity->kind() != JValue::Null) {
      std::optional<std::string> text = getExpressionText(
          identity, joinJsonPath(attributesPath, "identity"));
      if (!text)
        return false;
      node.reduceIdentity = *text;
    }
    if (!readSchedule(*attributes, attributesPath, owner, node.schedule))
      return false;
    return !failed;
  }
  if (node.type == "NestedSDFG") {
    node.kind = Node::Kind::NestedSDFG;
    connectors("in_connectors", node.inConnectors);
    connectors("out_connectors", node.outConnectors);
    return readNestedSDFG(*attributes, attributesPath, node);
  }
  llvm::StringRef what = node.type;
  if (!classpath.empty() || node.type == "LibraryNode")
    error(path) << "library node '" << node.label << "' ("
                << (classpath.empty() ? node.type : classpath)
                << ") is not supported (only Reduce is)";
  else
    error(path) << "node type '" << what << "' ('" << node.label
                << "') is not supported";
  return false;
}
