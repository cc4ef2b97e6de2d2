//===- ModelFields.cpp - An SDFG's fields: values, code, types ------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The field readers of ModelReader (ModelReader.h): objects, arrays,
// strings and flags with DaCe's defaults, expressions and code, data
// types, storage, schedules and subsets.
//
//===----------------------------------------------------------------------===//

#include "ModelReader.h"

using namespace mlir;
using namespace mlir::sdfg::dace;
using namespace mlir::sdfg::dace::detail; // Array, Object, JValue too

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

std::optional<SymExpr> ModelReader::readExpression(const JValue *value,
                                                   llvm::StringRef path) {
  std::optional<std::string> text = getExpressionText(value, path);
  if (!text)
    return std::nullopt;
  return parseExpression(*text, path);
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

bool ModelReader::readSchedule(const Object &attributes, llvm::StringRef path,
                               llvm::StringRef owner, Schedule &schedule) {
  std::optional<std::string> text = getString(attributes, "schedule", path);
  if (!text)
    return true;
  std::optional<Schedule> parsed =
      llvm::StringSwitch<std::optional<Schedule>>(enumValue(*text))
          .Case("Default", Schedule::Default)
          .Case("Sequential", Schedule::Sequential)
          .Case("CPU_Multicore", Schedule::CPUMulticore)
          .Case("CPU_Persistent", Schedule::CPUMulticore)
          .Case("GPU_Device", Schedule::GPUDevice)
          .Case("GPU_ThreadBlock", Schedule::GPUThreadBlock)
          .Default(std::nullopt);
  if (!parsed || *parsed == Schedule::GPUThreadBlock)
    error(joinJsonPath(path, "schedule"))
        << "schedule '" << *text << "' of " << owner << " is not supported";
  if (!parsed)
    return false;
  schedule = *parsed;
  return true;
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

/// dace/data/core.py::Array: DaCe allocates `total_size` elements (the
/// shape's product when the file omits it) and moves the pointer
/// `start_offset` elements in (dace/codegen/targets/cpu.py::CPUCodeGen.
/// allocate_array); a view has the viewed container's and allocates none.
bool ModelReader::readLayout(const Object &attributes, llvm::StringRef path,
                             DataDesc &desc) {
  std::string totalPath = joinJsonPath(path, "total_size");
  std::optional<std::string> total =
      getExpressionText(attributes.get("total_size"), totalPath);
  if (!total)
    return false;
  if (!llvm::StringRef(*total).trim().empty()) {
    std::optional<SymExpr> parsed = parseExpression(*total, totalPath);
    if (!parsed)
      return false;
    desc.totalSize = std::move(*parsed);
  }
  std::string startPath = joinJsonPath(path, "start_offset");
  const JValue *start = attributes.get("start_offset");
  if (!start || start->kind() == JValue::Null)
    return true;
  std::optional<int64_t> value = start->getAsInteger();
  if (!value || *value < 0) {
    error(startPath) << "expected 'start_offset' to be a non-negative integer";
    return false;
  }
  if (*value != 0 && !desc.transient) {
    error(startPath) << "array '" << desc.name << "' has start_offset "
                     << *value
                     << ", which is not supported for a non-transient";
    return false;
  }
  desc.startOffset = desc.isView ? 0 : *value;
  return true;
}
