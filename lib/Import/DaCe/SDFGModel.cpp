//===- SDFGModel.cpp - Read an SDFG file's JSON into the model ------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// DaCe writes a property only when it differs from its default since 0.15.1
// (dace/serialize.py::all_properties_to_json) and takes the default for a
// missing key when it reads one (set_properties_from_json). This reader does
// the same: every lookup below names DaCe's default (shared/DACE-IMPORT.md
// section 1.2). What it cannot represent is an error at the element.
//
//===----------------------------------------------------------------------===//

#include "ModelReader.h"

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail; // Array, Object, JValue too

void mlir::sdfg::dace::attachStateNote(InFlightDiagnostic &diagnostic,
                                       Location stateLocation,
                                       const ControlFlowBlock &state,
                                       const Node *node) {
  Diagnostic &note = diagnostic.attachNote(stateLocation);
  note << "in ";
  if (node)
    note << "node " << node->id << " (" << node->type << " '" << node->label
         << "') of ";
  note << "state '" << state.label << "' (id " << state.id << ")";
}

/// DaCe writes a Scalar as shape [1] and its memlets as the subset [0]; the
/// importer holds scalars as rank-0 memrefs, read and written without
/// indices.
static void dropScalarSubsets(const SDFGModel &model, ControlFlowRegion &region) {
  auto isScalar = [&](const std::string &name) {
    auto it = model.arrays.find(name);
    return it != model.arrays.end() && it->second.isScalar;
  };
  for (ControlFlowBlock &block : region.blocks) {
    State &state = block.state;
    for (StateEdge &edge : state.edges) {
      Memlet &memlet = edge.memlet;
      if (isScalar(memlet.data))
        memlet.subset.reset();
      if (!memlet.otherSubset)
        continue;
      // other_subset is the subset of the copy's other container.
      const Node &src = state.nodes[state.byId.at(edge.src)];
      const Node &dst = state.nodes[state.byId.at(edge.dst)];
      const std::string &other = memlet.data == src.data ? dst.data : src.data;
      if (src.kind == Node::Kind::Access && dst.kind == Node::Kind::Access &&
          isScalar(other))
        memlet.otherSubset.reset();
    }
    if (block.body)
      dropScalarSubsets(model, *block.body);
    for (auto &branch : block.branches)
      dropScalarSubsets(model, *branch.second);
  }
}

/// `code` without its C and C++ comments (each one a space, as the
/// preprocessor does).
static std::string withoutComments(llvm::StringRef code) {
  std::string out;
  for (size_t i = 0; i < code.size();) {
    if (code.substr(i).starts_with("//")) {
      i = code.find('\n', i);
      out += ' ';
      if (i == llvm::StringRef::npos)
        break;
    } else if (code.substr(i).starts_with("/*")) {
      size_t end = code.find("*/", i + 2);
      out += ' ';
      i = end == llvm::StringRef::npos ? code.size() : end + 2;
    } else {
      out += code[i++];
    }
  }
  return out;
}

/// `text` split at the `separator`s outside parentheses and brackets; nullopt
/// where they do not balance.
static std::optional<llvm::SmallVector<llvm::StringRef>>
splitTopLevel(llvm::StringRef text, char separator) {
  llvm::SmallVector<llvm::StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    if (depth < 0)
      return std::nullopt;
    if (c == separator && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth != 0)
    return std::nullopt;
  parts.push_back(text.substr(start).trim());
  return parts;
}

/// Whether `code` holds nothing but calls of DaCe's runtime functions that
/// set the SDFG's CUDA/HIP streams (dace/codegen/targets/cuda.py):
/// `__dace_gpu_set_all_streams(__state, stream);` and
/// `__dace_gpu_set_stream(__state, id, stream);`, as GT4Py's asynchronous
/// call writes into every GPU SDFG. In SDFGStream the stream is the caller's,
/// passed at every call, so these calls have nothing left to do.
static bool isOnlyStreamSetting(llvm::StringRef code) {
  std::string text = withoutComments(code);
  std::optional<llvm::SmallVector<llvm::StringRef>> statements =
      splitTopLevel(text, ';');
  if (!statements || !statements->back().empty())
    return false; // unbalanced, or a last statement without its ';'
  statements->pop_back();
  for (llvm::StringRef statement : *statements) {
    if (statement.empty())
      continue;
    size_t arity;
    if (statement.consume_front("__dace_gpu_set_all_streams"))
      arity = 2;
    else if (statement.consume_front("__dace_gpu_set_stream"))
      arity = 3;
    else
      return false;
    statement = statement.ltrim();
    if (!statement.consume_front("(") || !statement.consume_back(")"))
      return false;
    std::optional<llvm::SmallVector<llvm::StringRef>> args =
        splitTopLevel(statement, ',');
    if (!args || args->size() != arity || (*args)[0] != "__state" ||
        llvm::any_of(*args, [](llvm::StringRef arg) { return arg.empty(); }))
      return false;
  }
  return true;
}

std::unique_ptr<SDFGModel> ModelReader::readSDFG(const JValue &value,
                                                 llvm::StringRef path) {
  const Object *object = asObject(&value, path, "the SDFG");
  if (!object)
    return nullptr;
  if (const Object *errorObject = object->getObject("error")) {
    InFlightDiagnostic diag = error(joinJsonPath(path, "error"));
    diag << "DaCe saved this SDFG after it failed validation: "
         << getString(*errorObject, "message", path).value_or("(no message)");
    for (llvm::StringRef key : {"cfg_id", "state_id", "node_id"})
      if (const JValue *id = errorObject->get(key))
        if (std::optional<int64_t> number = id->getAsInteger())
          diag << ", " << key << " " << *number;
    return nullptr;
  }
  if (!object->get("dace_version") &&
      (object->get("undefined_symbols") || object->get("scalar_parameters"))) {
    error(path) << "this SDFG file is in DaCe's 2019 format, which is not "
                   "supported (load and save it again with DaCe 0.14 or "
                   "later)";
    return nullptr;
  }
  std::string type = getString(*object, "type", path).value_or("SDFG");
  if (type != "SDFG") {
    error(path) << "expected an SDFG, found '" << type << "'";
    return nullptr;
  }
  std::string attributesPath = joinJsonPath(path, "attributes");
  const Object *attributes =
      asObject(object->get("attributes"), attributesPath, "'attributes'");
  if (!attributes)
    return nullptr;
  auto model = std::make_unique<SDFGModel>();
  model->path = path.str();
  model->name = getString(*attributes, "name", attributesPath).value_or("");
  if (model->name.empty()) {
    error(attributesPath) << "the SDFG has no name";
    return nullptr;
  }
  // Code DaCe's frame code generator pastes into the program: nothing the
  // importer can represent, but for the stream-setting calls in init_code.
  for (llvm::StringRef key : {"global_code", "init_code", "exit_code"}) {
    std::string keyPath = joinJsonPath(attributesPath, key);
    const JValue *codes = attributes->get(key);
    if (!codes || codes->kind() == JValue::Null)
      continue;
    // A dict {location: CodeBlock or string}; older files write one string.
    llvm::SmallVector<std::pair<std::string, const JValue *>> blocks;
    if (const Object *byLocation = codes->getAsObject()) {
      if (byLocation->get("string_data"))
        blocks.emplace_back("", codes); // one CodeBlock
      else
        for (const auto &entry : *byLocation)
          blocks.emplace_back(entry.first.str(), &entry.second);
    } else {
      blocks.emplace_back("", codes);
    }
    for (const auto &[location, block] : blocks) {
      std::optional<std::string> text;
      if (std::optional<llvm::StringRef> plain = block->getAsString())
        text = plain->str();
      else if (const Object *codeBlock = block->getAsObject())
        text = getString(*codeBlock, "string_data", keyPath);
      if (!text) {
        error(keyPath) << "expected " << key
                       << " to be code (a string or a CodeBlock)";
        return nullptr;
      }
      llvm::StringRef code = llvm::StringRef(*text).trim();
      if (code.empty() || (key == "init_code" && isOnlyStreamSetting(code)))
        continue;
      InFlightDiagnostic diag = error(keyPath);
      diag << "SDFG '" << model->name << "' has " << key;
      if (!location.empty())
        diag << " (location '" << location << "')";
      diag << " with C++ code, which is not supported";
      if (key == "init_code")
        diag << " (only DaCe's stream-setting calls "
                "__dace_gpu_set_all_streams/__dace_gpu_set_stream are, and "
                "dropped: the stream is the caller's)";
      diag << ": '" << code << "'";
      return nullptr;
    }
  }
  if (const Object *constants = attributes->getObject("constants_prop"))
    if (!constants->empty()) {
      error(joinJsonPath(attributesPath, "constants_prop"))
          << "SDFG '" << model->name
          << "' has compile-time constants, which are not supported yet";
      return nullptr;
    }
  if (!readArrays(*attributes, attributesPath, *model))
    return nullptr;
  if (const Object *symbols = attributes->getObject("symbols")) {
    for (const auto &[name, dtype] : *symbols) {
      Type type = parseDtype(
          &dtype, joinJsonPath(joinJsonPath(attributesPath, "symbols"),
                               name.str()));
      if (!type)
        return nullptr;
      model->symbols.emplace(llvm::StringRef(name).ltrim('$').str(), type);
    }
  }
  model->cfg.label = model->name;
  if (!readRegion(*object, path, model->cfg))
    return nullptr;
  dropScalarSubsets(*model, model->cfg);
  return model;
}

std::unique_ptr<SDFGModel> mlir::sdfg::dace::readSDFGModel(
    const JValue &root, MLIRContext *context,
    llvm::function_ref<Location(llvm::StringRef)> locate,
    const JsonLocator &locator, llvm::StringRef text) {
  return ModelReader(context, locate, locator, text).readSDFG(root, "");
}
