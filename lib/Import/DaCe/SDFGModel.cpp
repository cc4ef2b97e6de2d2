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
  for (llvm::StringRef key : {"global_code", "init_code", "exit_code"}) {
    const Object *codes = attributes->getObject(key);
    if (!codes)
      continue;
    for (const auto &entry : *codes) {
      const Object *block = entry.second.getAsObject();
      std::optional<std::string> text =
          block ? getString(*block, "string_data", attributesPath)
                : std::nullopt;
      if (text && !llvm::StringRef(*text).trim().empty()) {
        error(joinJsonPath(attributesPath, key))
            << "SDFG '" << model->name << "' has " << key
            << " (C++ code), which is not supported";
        return nullptr;
      }
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
