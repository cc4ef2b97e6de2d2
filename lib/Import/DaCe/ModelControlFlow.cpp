//===- ModelControlFlow.cpp - States, edges, regions ----------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// ModelReader's readers of states (their nodes and edges in order),
// interstate edges, control-flow blocks and regions (ModelReader.h).
//
//===----------------------------------------------------------------------===//

#include "ModelReader.h"

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail; // Array, Object, JValue too

bool ModelReader::readState(const Object &object, llvm::StringRef path,
                            State &state) {
  if (const Array *nodes = getArray(object, "nodes", path, false)) {
    for (auto [i, value] : llvm::enumerate(*nodes)) {
      std::string nodePath = joinJsonPath(joinJsonPath(path, "nodes"), i);
      const Object *nodeObject = asObject(&value, nodePath, "a node");
      if (!nodeObject)
        return false;
      Node node;
      currentNode = &node;
      bool read = readNode(*nodeObject, nodePath, node);
      currentNode = nullptr;
      if (!read)
        return false;
      if (!state.byId.emplace(node.id, state.nodes.size()).second) {
        error(nodePath) << "node id " << node.id << " appears twice";
        return false;
      }
      state.nodes.push_back(std::move(node));
    }
  }
  if (failed)
    return false;
  const Array *edges = getArray(object, "edges", path, false);
  if (!edges)
    return !failed;
  for (auto [i, value] : llvm::enumerate(*edges)) {
    std::string edgePath = joinJsonPath(joinJsonPath(path, "edges"), i);
    const Object *edgeObject = asObject(&value, edgePath, "an edge");
    if (!edgeObject)
      return false;
    StateEdge edge;
    edge.path = edgePath;
    for (auto [key, out] : {std::pair{"src", &edge.src}, {"dst", &edge.dst}}) {
      std::optional<std::string> text =
          getExpressionText(edgeObject->get(key), edgePath);
      int64_t id;
      if (!text || llvm::StringRef(*text).getAsInteger(10, id) ||
          !state.byId.count(id)) {
        error(edgePath) << "edge " << key << " '" << text.value_or("")
                        << "' is not a node of the state";
        return false;
      }
      *out = id;
    }
    edge.srcConnector =
        getString(*edgeObject, "src_connector", edgePath).value_or("");
    edge.dstConnector =
        getString(*edgeObject, "dst_connector", edgePath).value_or("");
    std::string attributesPath = joinJsonPath(edgePath, "attributes");
    const Object *attributes = asObject(edgeObject->get("attributes"),
                                        attributesPath, "'attributes'");
    if (!attributes ||
        !readMemlet(attributes->get("data"),
                    joinJsonPath(attributesPath, "data"), edge.memlet))
      return false;
    auto checkConnector = [&](int64_t id, const std::string &name,
                              bool outgoing) {
      if (name.empty())
        return true;
      const Node &node = state.nodes[state.byId[id]];
      const std::vector<std::string> &list =
          outgoing ? node.outConnectors : node.inConnectors;
      if (node.kind == Node::Kind::Access || llvm::is_contained(list, name))
        return true;
      error(edgePath) << "edge uses connector '" << name << "', which "
                      << node.type << " '" << node.label << "' (node "
                      << node.id << ") does not have";
      return false;
    };
    if (!checkConnector(edge.src, edge.srcConnector, true) ||
        !checkConnector(edge.dst, edge.dstConnector, false))
      return false;
    state.edges.push_back(std::move(edge));
  }
  return !failed;
}

std::vector<std::string> ModelReader::keysInOrder(llvm::StringRef path) {
  // Scan the object's text: a key is a string at depth one followed by ':'.
  std::vector<std::string> keys;
  size_t offset = locator.offsetOf(path);
  if (offset >= text.size() || text[offset] != '{')
    return keys;
  int depth = 0;
  for (size_t i = offset; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      size_t end = i + 1;
      std::string value;
      while (end < text.size() && text[end] != '"') {
        if (text[end] == '\\' && end + 1 < text.size())
          ++end;
        value += text[end++];
      }
      size_t after = end + 1;
      while (after < text.size() && isspace(text[after]))
        ++after;
      if (depth == 1 && after < text.size() && text[after] == ':')
        keys.push_back(value);
      i = end;
      continue;
    }
    if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      if (--depth == 0)
        break;
  }
  return keys;
}

bool ModelReader::readInterstateEdge(const Object &object,
                                     llvm::StringRef path,
                                     InterstateEdge &edge) {
  edge.path = path.str();
  std::string attributesPath = joinJsonPath(path, "attributes");
  const Object *attributes = object.getObject("attributes");
  const Object *data = attributes ? attributes->getObject("data") : nullptr;
  const Object *dataAttributes =
      data ? data->getObject("attributes") : nullptr;
  if (!dataAttributes)
    return true;
  std::string dataPath =
      joinJsonPath(joinJsonPath(attributesPath, "data"), "attributes");
  std::optional<Code> condition =
      getCode(dataAttributes->get("condition"),
              joinJsonPath(dataPath, "condition"), "an edge condition");
  if (!condition)
    return false;
  std::optional<SymExpr> parsed =
      parseExpression(condition->text, condition->path);
  if (!parsed)
    return false;
  edge.condition = std::move(*parsed);
  const JValue *assignments = dataAttributes->get("assignments");
  if (!assignments || assignments->kind() == JValue::Null)
    return true;
  std::string assignmentsPath = joinJsonPath(dataPath, "assignments");
  const Object *map = asObject(assignments, assignmentsPath, "assignments");
  if (!map)
    return false;
  // Assignments run in the file's key order, which llvm::json::Object does
  // not keep.
  for (const std::string &key : keysInOrder(assignmentsPath)) {
    const JValue *value = map->get(key);
    if (!value)
      continue;
    std::string valuePath = joinJsonPath(assignmentsPath, key);
    std::optional<SymExpr> expr = readExpression(value, valuePath);
    if (!expr)
      return false;
    if (!expr->expr) {
      error(valuePath) << "empty assignment to '" << key << "'";
      return false;
    }
    edge.assignments.emplace_back(llvm::StringRef(key).ltrim('$').str(),
                                  std::move(*expr));
  }
  if (edge.assignments.size() != map->size()) {
    error(assignmentsPath) << "cannot read the assignments in order";
    return false;
  }
  return true;
}

bool ModelReader::readBlock(const Object &object, llvm::StringRef path,
                            ControlFlowBlock &block) {
  block.path = path.str();
  block.type = getString(object, "type", path).value_or("");
  block.label = getString(object, "label", path).value_or("");
  if (const JValue *id = object.get("id"))
    block.id = id->getAsInteger().value_or(0);
  std::string attributesPath = joinJsonPath(path, "attributes");
  const Object *attributes = object.getObject("attributes");
  static const Object empty;
  if (!attributes)
    attributes = &empty;

  if (block.type == "SDFGState") {
    block.kind = ControlFlowBlock::Kind::State;
    currentState = &block;
    bool read = readState(object, path, block.state);
    currentState = nullptr;
    return read;
  }
  if (block.type == "BreakBlock" || block.type == "ContinueBlock" ||
      block.type == "ReturnBlock") {
    block.kind = block.type == "BreakBlock"      ? ControlFlowBlock::Kind::Break
                 : block.type == "ContinueBlock" ? ControlFlowBlock::Kind::Continue
                                                 : ControlFlowBlock::Kind::Return;
    return true;
  }
  if (block.type == "LoopRegion") {
    block.kind = ControlFlowBlock::Kind::Loop;
    block.loopVariable = llvm::StringRef(getString(*attributes, "loop_variable",
                                                   attributesPath)
                                             .value_or(""))
                             .ltrim('$')
                             .str();
    std::optional<Code> init =
        getCode(attributes->get("init_statement"),
                joinJsonPath(attributesPath, "init_statement"),
                "a loop's init statement");
    std::optional<Code> update =
        getCode(attributes->get("update_statement"),
                joinJsonPath(attributesPath, "update_statement"),
                "a loop's update statement");
    std::optional<Code> condition =
        getCode(attributes->get("loop_condition"),
                joinJsonPath(attributesPath, "loop_condition"),
                "a loop condition");
    if (!init || !update || !condition)
      return false;
    std::optional<std::vector<PyStatement>> initStatements =
        parseStatements(*init);
    std::optional<std::vector<PyStatement>> updateStatements =
        parseStatements(*update);
    std::optional<SymExpr> conditionExpr =
        parseExpression(condition->text, condition->path);
    if (!initStatements || !updateStatements || !conditionExpr)
      return false;
    block.init = std::move(*initStatements);
    block.update = std::move(*updateStatements);
    block.initText = init->text;
    block.updateText = update->text;
    block.loopCondition = std::move(*conditionExpr);
    block.inverted = getBool(*attributes, "inverted", false, attributesPath);
    block.updateBeforeCondition =
        getBool(*attributes, "update_before_condition", true, attributesPath);
    block.body = std::make_unique<ControlFlowRegion>();
    block.body->label = block.label;
    return readRegion(object, path, *block.body);
  }
  if (block.type == "ConditionalBlock") {
    block.kind = ControlFlowBlock::Kind::Conditional;
    // DaCe 1.0 writes `branches` at the block's top level, later versions
    // may keep it under `attributes`.
    const Array *branches = getArray(object, "branches", path, false);
    std::string branchesPath = joinJsonPath(path, "branches");
    if (!branches) {
      branches = getArray(*attributes, "branches", attributesPath, false);
      branchesPath = joinJsonPath(attributesPath, "branches");
    }
    if (!branches) {
      error(path) << "ConditionalBlock '" << block.label << "' has no branches";
      return false;
    }
    for (auto [i, value] : llvm::enumerate(*branches)) {
      std::string branchPath = joinJsonPath(branchesPath, i);
      const Array *pair = value.getAsArray();
      if (!pair || pair->size() != 2) {
        error(branchPath) << "expected a branch [condition, region]";
        return false;
      }
      std::optional<SymExpr> condition;
      std::string conditionPath = joinJsonPath(branchPath, 0);
      if ((*pair)[0].kind() != JValue::Null) {
        std::optional<Code> code =
            getCode(&(*pair)[0], conditionPath, "a branch condition");
        if (!code)
          return false;
        condition = parseExpression(code->text, conditionPath);
        if (!condition)
          return false;
      }
      std::string regionPath = joinJsonPath(branchPath, 1);
      const Object *regionObject =
          asObject(&(*pair)[1], regionPath, "a branch region");
      if (!regionObject)
        return false;
      auto region = std::make_unique<ControlFlowRegion>();
      region->label = getString(*regionObject, "label", regionPath).value_or("");
      if (!readRegion(*regionObject, regionPath, *region))
        return false;
      block.branches.emplace_back(std::move(condition), std::move(region));
    }
    return true;
  }
  if (block.type == "ControlFlowRegion" || block.type == "NamedRegion" ||
      block.type == "FunctionCallRegion") {
    // A plain nested region runs like a one-branch conditional; a named one
    // and a function call's (the Python frontend's inlined call, whose
    // `arguments` only record the names it was called with) as well
    // (dace/sdfg/state.py::FunctionCallRegion: no code generator of its own).
    block.kind = ControlFlowBlock::Kind::Conditional;
    auto region = std::make_unique<ControlFlowRegion>();
    region->label = block.label;
    if (!readRegion(object, path, *region))
      return false;
    block.branches.emplace_back(std::nullopt, std::move(region));
    return true;
  }
  error(path) << "control-flow block '" << block.label << "' of type '"
              << block.type << "' is not supported";
  return false;
}

bool ModelReader::readRegion(const Object &object, llvm::StringRef path,
                             ControlFlowRegion &region) {
  region.path = path.str();
  const Array *nodes = getArray(object, "nodes", path, false);
  if (nodes) {
    for (auto [i, value] : llvm::enumerate(*nodes)) {
      std::string blockPath = joinJsonPath(joinJsonPath(path, "nodes"), i);
      const Object *blockObject = asObject(&value, blockPath, "a block");
      if (!blockObject)
        return false;
      ControlFlowBlock block;
      if (!readBlock(*blockObject, blockPath, block))
        return false;
      region.blocks.push_back(std::move(block));
    }
  }
  if (const Array *edges = getArray(object, "edges", path, false)) {
    for (auto [i, value] : llvm::enumerate(*edges)) {
      std::string edgePath = joinJsonPath(joinJsonPath(path, "edges"), i);
      const Object *edgeObject = asObject(&value, edgePath, "an edge");
      if (!edgeObject)
        return false;
      InterstateEdge edge;
      for (auto [key, out] :
           {std::pair{"src", &edge.src}, {"dst", &edge.dst}}) {
        std::optional<std::string> text =
            getExpressionText(edgeObject->get(key), edgePath);
        size_t index;
        if (!text || llvm::StringRef(*text).getAsInteger(10, index) ||
            index >= region.blocks.size()) {
          error(edgePath) << "interstate edge " << key << " '"
                          << text.value_or("") << "' is not a block of '"
                          << region.label << "'";
          return false;
        }
        *out = index;
      }
      if (!readInterstateEdge(*edgeObject, edgePath, edge))
        return false;
      region.edges.push_back(std::move(edge));
    }
  }
  // The start block: `start_block` (0.16+, int or null) or `start_state`
  // (older), at the region's top level or under its attributes; otherwise
  // the block nothing leads to.
  std::optional<int64_t> start;
  const Object *attributes = object.getObject("attributes");
  for (const Object *owner : {&object, attributes}) {
    if (!owner)
      continue;
    for (llvm::StringRef key : {"start_block", "start_state"})
      if (const JValue *value = owner->get(key))
        if (!start) {
          start = value->getAsInteger();
          if (!start)
            if (std::optional<llvm::StringRef> text = value->getAsString()) {
              int64_t parsed;
              if (!text->getAsInteger(10, parsed))
                start = parsed;
            }
        }
  }
  if (region.blocks.empty())
    return true;
  // As DaCe (ControlFlowRegion.start_block): the one block nothing leads to,
  // else the stored start (a file's start_block can be stale after
  // transformations).
  std::vector<bool> reached(region.blocks.size());
  for (const InterstateEdge &edge : region.edges)
    reached[edge.dst] = true;
  if (llvm::count(reached, false) == 1) {
    region.start = llvm::find(reached, false) - reached.begin();
    return true;
  }
  if (start && *start >= 0 &&
      static_cast<size_t>(*start) < region.blocks.size()) {
    region.start = *start;
    return true;
  }
  error(path) << "'" << region.label
              << "' has no unique start block and no valid start_block";
  return false;
}
