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

#include "SDFGModel.h"
#include "SDFGFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::sdfg::dace;
using llvm::json::Array;
using llvm::json::Object;
using JValue = llvm::json::Value;

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

namespace {

/// Reads one SDFG. Errors go to the diagnostic engine; `failed` records
/// that one was reported, and readers return early on it.
class ModelReader {
public:
  ModelReader(MLIRContext *context,
              llvm::function_ref<Location(llvm::StringRef)> locate,
              const JsonLocator &locator, llvm::StringRef text)
      : context(context), locate(locate), locator(locator), text(text) {}

  std::unique_ptr<SDFGModel> readSDFG(const JValue &value,
                                      llvm::StringRef path);

private:
  InFlightDiagnostic error(llvm::StringRef path) {
    failed = true;
    InFlightDiagnostic diagnostic = emitError(locate(path));
    if (currentState)
      attachStateNote(diagnostic, locate(currentState->path), *currentState,
                      currentNode);
    return diagnostic;
  }
  /// The state and node being read, named in a note under every error.
  const ControlFlowBlock *currentState = nullptr;
  const Node *currentNode = nullptr;

  // JSON access with DaCe's defaults.
  const Object *asObject(const JValue *value, llvm::StringRef path,
                         llvm::StringRef what);
  const Array *getArray(const Object &object, llvm::StringRef key,
                        llvm::StringRef path, bool required);
  std::optional<std::string> getString(const Object &object,
                                       llvm::StringRef key,
                                       llvm::StringRef path);
  bool getBool(const Object &object, llvm::StringRef key, bool fallback,
               llvm::StringRef path);
  /// A number or a string as expression text ("" for null or missing).
  std::optional<std::string> getExpressionText(const JValue *value,
                                               llvm::StringRef path);
  /// A CodeBlock ({string_data, language}) or a plain string; the language
  /// must be Python.
  std::optional<Code> getCode(const JValue *value, llvm::StringRef path,
                              llvm::StringRef what);

  std::optional<SymExpr> parseExpression(std::string text,
                                         llvm::StringRef path);
  std::optional<std::vector<PyStatement>>
  parseStatements(const Code &code);
  void reportParseError(llvm::Error error, llvm::StringRef text,
                        llvm::StringRef path);

  Type parseDtype(const JValue *value, llvm::StringRef path);
  std::optional<Subset> parseSubset(const JValue *value, llvm::StringRef path);

  bool readArrays(const Object &attributes, llvm::StringRef path,
                  SDFGModel &model);
  bool readDescriptor(llvm::StringRef name, const JValue &value,
                      llvm::StringRef path, DataDesc &desc);
  bool readRegion(const Object &object, llvm::StringRef path, ControlFlowRegion &region);
  bool readBlock(const Object &object, llvm::StringRef path, ControlFlowBlock &block);
  bool readState(const Object &object, llvm::StringRef path, State &state);
  bool readNode(const Object &object, llvm::StringRef path, Node &node);
  bool readMemlet(const JValue *value, llvm::StringRef path, Memlet &memlet);
  bool readInterstateEdge(const Object &object, llvm::StringRef path,
                          InterstateEdge &edge);
  std::optional<Storage> parseStorage(llvm::StringRef text,
                                      llvm::StringRef path,
                                      llvm::StringRef owner);
  std::optional<Schedule> parseSchedule(llvm::StringRef text,
                                        llvm::StringRef path,
                                        llvm::StringRef owner);

  MLIRContext *context;
  llvm::function_ref<Location(llvm::StringRef)> locate;
  /// The keys of the object at `path`, in the file's order.
  std::vector<std::string> keysInOrder(llvm::StringRef path);

  const JsonLocator &locator;
  llvm::StringRef text;
  bool failed = false;
};

} // namespace

/// Drops a Python enum's class prefix ("StorageType.GPU_Global"), which
/// old files write.
static llvm::StringRef enumValue(llvm::StringRef text) {
  size_t dot = text.rfind('.');
  return dot == llvm::StringRef::npos ? text : text.drop_front(dot + 1);
}

const Object *ModelReader::asObject(const JValue *value, llvm::StringRef path,
                                    llvm::StringRef what) {
  if (value)
    if (const Object *object = value->getAsObject())
      return object;
  error(path) << "expected " << what << " to be a JSON object";
  return nullptr;
}

const Array *ModelReader::getArray(const Object &object, llvm::StringRef key,
                                   llvm::StringRef path, bool required) {
  const JValue *value = object.get(key);
  if (!value || value->kind() == JValue::Null) {
    if (required)
      error(path) << "missing '" << key << "'";
    return nullptr;
  }
  if (const Array *array = value->getAsArray())
    return array;
  error(joinJsonPath(path, key)) << "expected '" << key << "' to be a list";
  return nullptr;
}

std::optional<std::string> ModelReader::getString(const Object &object,
                                                  llvm::StringRef key,
                                                  llvm::StringRef path) {
  const JValue *value = object.get(key);
  if (!value || value->kind() == JValue::Null)
    return std::nullopt;
  if (std::optional<llvm::StringRef> text = value->getAsString())
    return text->str();
  error(joinJsonPath(path, key)) << "expected '" << key << "' to be a string";
  return std::nullopt;
}

bool ModelReader::getBool(const Object &object, llvm::StringRef key,
                          bool fallback, llvm::StringRef path) {
  const JValue *value = object.get(key);
  if (!value || value->kind() == JValue::Null)
    return fallback;
  if (std::optional<bool> flag = value->getAsBoolean())
    return *flag;
  error(joinJsonPath(path, key)) << "expected '" << key << "' to be a boolean";
  return fallback;
}

std::optional<std::string>
ModelReader::getExpressionText(const JValue *value, llvm::StringRef path) {
  if (!value || value->kind() == JValue::Null)
    return std::string();
  if (std::optional<llvm::StringRef> text = value->getAsString())
    return text->str();
  if (std::optional<int64_t> number = value->getAsInteger())
    return std::to_string(*number);
  if (std::optional<double> number = value->getAsNumber()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << *number;
    return text;
  }
  error(path) << "expected a number or an expression string";
  return std::nullopt;
}

std::optional<Code> ModelReader::getCode(const JValue *value,
                                         llvm::StringRef path,
                                         llvm::StringRef what) {
  Code code;
  code.path = path.str();
  if (!value || value->kind() == JValue::Null)
    return code;
  if (std::optional<llvm::StringRef> text = value->getAsString()) {
    code.text = text->str();
    return code;
  }
  const Object *object = value->getAsObject();
  if (!object) {
    error(path) << "expected " << what << " to be a code block";
    return std::nullopt;
  }
  std::optional<std::string> text = getString(*object, "string_data", path);
  std::optional<std::string> language = getString(*object, "language", path);
  if (failed)
    return std::nullopt;
  if (language && enumValue(*language) != "Python") {
    error(path) << what << " in language '" << *language
                << "' is not supported (only Python)";
    return std::nullopt;
  }
  code.text = text.value_or("");
  return code;
}

void ModelReader::reportParseError(llvm::Error err, llvm::StringRef text,
                                   llvm::StringRef path) {
  std::string message;
  size_t offset = 0;
  llvm::handleAllErrors(
      std::move(err),
      [&](const PyParseError &parseError) {
        message = parseError.message;
        offset = parseError.offset;
      },
      [&](const llvm::ErrorInfoBase &other) { message = other.message(); });
  error(path) << "cannot parse '" << text << "': " << message
              << " (at character " << offset + 1 << ")";
}

std::optional<SymExpr> ModelReader::parseExpression(std::string text,
                                                    llvm::StringRef path) {
  SymExpr result;
  result.text = std::move(text);
  result.path = path.str();
  if (llvm::StringRef(result.text).trim().empty())
    return result;
  llvm::Expected<PyExprPtr> expr = parsePythonExpression(result.text);
  if (!expr) {
    reportParseError(expr.takeError(), result.text, path);
    return std::nullopt;
  }
  result.expr = std::move(*expr);
  return result;
}

std::optional<std::vector<PyStatement>>
ModelReader::parseStatements(const Code &code) {
  llvm::Expected<std::vector<PyStatement>> statements =
      parsePythonStatements(code.text);
  if (!statements) {
    reportParseError(statements.takeError(), code.text, code.path);
    return std::nullopt;
  }
  return std::move(*statements);
}

/// dace/dtypes.py::json_to_typeclass, for the types a program can compute
/// with. Unsigned integers keep their signedness here (arith needs signless
/// types; the importer converts where it builds ops).
Type ModelReader::parseDtype(const JValue *value, llvm::StringRef path) {
  if (!value || value->kind() == JValue::Null)
    return IntegerType::get(context, 32);
  if (const Object *object = value->getAsObject()) {
    std::optional<std::string> type = getString(*object, "type", path);
    error(path) << "element type '" << type.value_or("?")
                << "' is not supported (scalars of bool, integer, float and "
                   "complex types are)";
    return nullptr;
  }
  std::optional<llvm::StringRef> name = value->getAsString();
  if (!name) {
    error(path) << "expected a type name";
    return nullptr;
  }
  llvm::StringRef text = enumValue(*name);
  Builder b(context);
  Type type = llvm::StringSwitch<Type>(text)
                  .Case("bool", b.getI1Type())
                  .Case("bool_", b.getI1Type())
                  .Case("int8", b.getI8Type())
                  .Case("int16", b.getI16Type())
                  .Case("int32", b.getI32Type())
                  .Case("int64", b.getI64Type())
                  .Case("uint8", IntegerType::get(context, 8,
                                                  IntegerType::Unsigned))
                  .Case("uint16", IntegerType::get(context, 16,
                                                   IntegerType::Unsigned))
                  .Case("uint32", IntegerType::get(context, 32,
                                                   IntegerType::Unsigned))
                  .Case("uint64", IntegerType::get(context, 64,
                                                   IntegerType::Unsigned))
                  .Case("float16", b.getF16Type())
                  .Case("bfloat16", b.getBF16Type())
                  .Case("float32", b.getF32Type())
                  .Case("float64", b.getF64Type())
                  .Case("complex64", ComplexType::get(b.getF32Type()))
                  .Case("complex128", ComplexType::get(b.getF64Type()))
                  .Default(Type());
  if (!type)
    error(path) << "element type '" << *name << "' is not supported";
  return type;
}

std::optional<Storage> ModelReader::parseStorage(llvm::StringRef text,
                                                 llvm::StringRef path,
                                                 llvm::StringRef owner) {
  std::optional<Storage> storage =
      llvm::StringSwitch<std::optional<Storage>>(enumValue(text))
          .Case("Default", Storage::Default)
          .Case("Register", Storage::Register)
          .Case("CPU_Heap", Storage::CPUHeap)
          .Case("CPU_Pinned", Storage::CPUPinned)
          .Case("GPU_Global", Storage::GPUGlobal)
          .Case("GPU_Shared", Storage::GPUShared)
          .Default(std::nullopt);
  if (!storage || *storage == Storage::GPUShared)
    error(path) << "storage '" << text << "' of " << owner
                << " is not supported";
  return storage;
}

std::optional<Schedule> ModelReader::parseSchedule(llvm::StringRef text,
                                                   llvm::StringRef path,
                                                   llvm::StringRef owner) {
  std::optional<Schedule> schedule =
      llvm::StringSwitch<std::optional<Schedule>>(enumValue(text))
          .Case("Default", Schedule::Default)
          .Case("Sequential", Schedule::Sequential)
          .Case("CPU_Multicore", Schedule::CPUMulticore)
          .Case("CPU_Persistent", Schedule::CPUMulticore)
          .Case("GPU_Device", Schedule::GPUDevice)
          .Case("GPU_ThreadBlock", Schedule::GPUThreadBlock)
          .Default(std::nullopt);
  if (!schedule || *schedule == Schedule::GPUThreadBlock)
    error(path) << "schedule '" << text << "' of " << owner
                << " is not supported";
  return schedule;
}

std::optional<Subset> ModelReader::parseSubset(const JValue *value,
                                               llvm::StringRef path) {
  const Object *object = asObject(value, path, "a subset");
  if (!object)
    return std::nullopt;
  Subset subset;
  subset.path = path.str();
  std::string type = getString(*object, "type", path).value_or("Range");
  if (type == "Indices") {
    const Array *indices = getArray(*object, "indices", path, true);
    if (!indices)
      return std::nullopt;
    for (auto [i, index] : llvm::enumerate(*indices)) {
      std::string indexPath = joinJsonPath(joinJsonPath(path, "indices"), i);
      std::optional<std::string> text = getExpressionText(&index, indexPath);
      if (!text)
        return std::nullopt;
      std::optional<SymExpr> start = parseExpression(*text, indexPath);
      std::optional<SymExpr> end = parseExpression(*text, indexPath);
      std::optional<SymExpr> step = parseExpression("1", indexPath);
      if (!start || !end || !step)
        return std::nullopt;
      subset.dims.push_back(
          {std::move(*start), std::move(*end), std::move(*step)});
    }
    return subset;
  }
  if (type != "Range") {
    error(path) << "subset of type '" << type << "' is not supported";
    return std::nullopt;
  }
  const Array *ranges = getArray(*object, "ranges", path, true);
  if (!ranges)
    return std::nullopt;
  for (auto [i, range] : llvm::enumerate(*ranges)) {
    std::string rangePath = joinJsonPath(joinJsonPath(path, "ranges"), i);
    const Object *dim = asObject(&range, rangePath, "a range");
    if (!dim)
      return std::nullopt;
    std::optional<std::string> start =
        getExpressionText(dim->get("start"), rangePath);
    std::optional<std::string> end =
        getExpressionText(dim->get("end"), rangePath);
    std::optional<std::string> step =
        getExpressionText(dim->get("step"), rangePath);
    std::optional<std::string> tile =
        getExpressionText(dim->get("tile"), rangePath);
    if (!start || !end || !step || !tile)
      return std::nullopt;
    if (!tile->empty() && llvm::StringRef(*tile).trim() != "1") {
      error(rangePath) << "a range with tile size '" << *tile
                       << "' is not supported";
      return std::nullopt;
    }
    std::optional<SymExpr> startExpr = parseExpression(*start, rangePath);
    std::optional<SymExpr> endExpr = parseExpression(*end, rangePath);
    std::optional<SymExpr> stepExpr =
        parseExpression(step->empty() ? "1" : *step, rangePath);
    if (!startExpr || !endExpr || !stepExpr)
      return std::nullopt;
    if (!startExpr->expr || !endExpr->expr) {
      error(rangePath) << "a range needs a start and an end";
      return std::nullopt;
    }
    subset.dims.push_back(
        {std::move(*startExpr), std::move(*endExpr), std::move(*stepExpr)});
  }
  return subset;
}

bool ModelReader::readDescriptor(llvm::StringRef name, const JValue &value,
                                 llvm::StringRef path, DataDesc &desc) {
  const Object *object = asObject(&value, path, "a data descriptor");
  if (!object)
    return false;
  desc.name = name.str();
  desc.path = path.str();
  std::string type = getString(*object, "type", path).value_or("");
  if (type != "Array" && type != "Scalar") {
    error(path) << "data container '" << name << "' is a '" << type
                << "', which is not supported (Array and Scalar are)";
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
  desc.transient = getBool(*attributes, "transient", false, attributesPath);
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
  if (std::optional<std::string> startOffset = getExpressionText(
          attributes->get("start_offset"), attributesPath)) {
    if (!startOffset->empty() && llvm::StringRef(*startOffset).trim() != "0") {
      error(joinJsonPath(attributesPath, "start_offset"))
          << "array '" << name << "' has start_offset " << *startOffset
          << ", which is not supported";
      return false;
    }
  }
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
    if (std::optional<std::string> schedule =
            getString(*attributes, "schedule", attributesPath)) {
      std::optional<Schedule> parsed = parseSchedule(
          *schedule, joinJsonPath(attributesPath, "schedule"), owner);
      if (!parsed)
        return false;
      node.schedule = *parsed;
    }
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
    if (std::optional<std::string> schedule =
            getString(*attributes, "schedule", attributesPath)) {
      std::optional<Schedule> parsed = parseSchedule(
          *schedule, joinJsonPath(attributesPath, "schedule"), owner);
      if (!parsed)
        return false;
      node.schedule = *parsed;
    }
    return !failed;
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
    std::optional<std::string> text = getExpressionText(value, valuePath);
    if (!text)
      return false;
    std::optional<SymExpr> expr = parseExpression(*text, valuePath);
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
  if (block.type == "ControlFlowRegion") {
    // A plain nested region runs like a one-branch conditional.
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
