//===- ModelReader.h - Reads an SDFG's JSON into the model ------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The reader behind readSDFGModel (SDFGModel.cpp), private to the importer:
// its field readers and parsers (ModelFields.cpp), descriptors, memlets and
// nodes (ModelNodes.cpp), and states, edges, blocks and regions
// (ModelControlFlow.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_IMPORT_DACE_MODELREADER_H
#define SDFGSTREAM_LIB_IMPORT_DACE_MODELREADER_H

#include "SDFGModel.h"
#include "SDFGFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"

namespace mlir {
namespace sdfg {
namespace dace {
namespace detail {

using llvm::json::Array;
using llvm::json::Object;
using JValue = llvm::json::Value;

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
  /// The expression a number or string holds, parsed (an empty one for
  /// null or missing).
  std::optional<SymExpr> readExpression(const JValue *value,
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
  /// An array's `total_size` and `start_offset` (of transients only).
  bool readLayout(const Object &attributes, llvm::StringRef path,
                  DataDesc &desc);
  bool readRegion(const Object &object, llvm::StringRef path, ControlFlowRegion &region);
  bool readBlock(const Object &object, llvm::StringRef path, ControlFlowBlock &block);
  bool readState(const Object &object, llvm::StringRef path, State &state);
  bool readNode(const Object &object, llvm::StringRef path, Node &node);
  /// A NestedSDFG node's attributes (ModelNested.cpp).
  bool readNestedSDFG(const Object &attributes, llvm::StringRef path,
                      Node &node);
  bool readMemlet(const JValue *value, llvm::StringRef path, Memlet &memlet);
  bool readInterstateEdge(const Object &object, llvm::StringRef path,
                          InterstateEdge &edge);
  std::optional<Storage> parseStorage(llvm::StringRef text,
                                      llvm::StringRef path,
                                      llvm::StringRef owner);
  /// Reads the optional "schedule" of `attributes` (at `path`) into
  /// `schedule`; false where it names no schedule DaCe has.
  bool readSchedule(const Object &attributes, llvm::StringRef path,
                    llvm::StringRef owner, Schedule &schedule);

  MLIRContext *context;
  llvm::function_ref<Location(llvm::StringRef)> locate;
  /// The keys of the object at `path`, in the file's order.
  std::vector<std::string> keysInOrder(llvm::StringRef path);

  const JsonLocator &locator;
  llvm::StringRef text;
  bool failed = false;
};

/// Drops a Python enum's class prefix ("StorageType.GPU_Global"), which
/// old files write.
inline llvm::StringRef enumValue(llvm::StringRef text) {
  size_t dot = text.rfind('.');
  return dot == llvm::StringRef::npos ? text : text.drop_front(dot + 1);
}

} // namespace detail
} // namespace dace
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_LIB_IMPORT_DACE_MODELREADER_H
