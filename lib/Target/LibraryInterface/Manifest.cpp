//===- Manifest.cpp - The manifest of a program library -------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A caller that loads a program library at run time (the Python package, an
// XLA FFI handler) needs each program's signature without a C parser: the
// manifest says it as JSON, written from the same C interface as the header
// (CInterface.h), so names and types agree with it. Whether a call
// synchronizes the host is decided by running the passes that insert host
// syncs (sdfg-insert-host-syncs, and sdfg-make-sync-call for --sync-call) on a
// copy of the module, as the lowering does; whether it makes stream-ordered
// allocations, by its gpu.alloc ops. Together they say whether a graph captured
// from a call can be a child graph (XLA's command buffers).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"
#include "SDFGStream/Analysis/BufferAliasAnalysis.h"
#include "SDFGStream/Target/CInterface.h"
#include "SDFGStream/Target/LibraryInterface.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::sdfg;

/// MLIR's spelling of a scalar type ("f32", "i64", "ui8", "index").
static std::string spell(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

static llvm::json::Value dimensionsOrNull(ArrayRef<int64_t> values) {
  llvm::json::Array array;
  for (int64_t value : values)
    array.push_back(ShapedType::isDynamic(value) ? llvm::json::Value(nullptr)
                                                 : llvm::json::Value(value));
  return array;
}

/// Where the program's memrefs live: "device" (a GPU memory space), "host"
/// (an SDFG program's memref without one: DaCe's CPU containers), "any" (a
/// func.func's memref without one, which upstream's GPU programs give device
/// buffers as well).
static StringRef getMemory(BaseMemRefType type, FunctionOpInterface program) {
  if (isGpuMemorySpace(type.getMemorySpace()))
    return "device";
  return isa<SDFGOp>(program) ? "host" : "any";
}

static llvm::json::Object describeParameter(const CParameter &parameter,
                                            FunctionOpInterface program) {
  llvm::json::Object object{{"name", parameter.name},
                            {"c_type", parameter.cType}};
  switch (parameter.kind) {
  case CParameter::Kind::Stream:
    object["kind"] = "stream";
    break;
  case CParameter::Kind::Pointer:
    object["kind"] = "pointer";
    break;
  case CParameter::Kind::Scalar:
    object["kind"] = "scalar";
    object["type"] = spell(parameter.type);
    break;
  case CParameter::Kind::UnrankedMemRef: {
    auto type = cast<UnrankedMemRefType>(parameter.type);
    object["kind"] = "unranked_memref";
    object["element"] = spell(type.getElementType());
    object["memory"] = getMemory(type, program);
    break;
  }
  case CParameter::Kind::MemRef: {
    auto type = cast<MemRefType>(parameter.type);
    object["kind"] = "memref";
    object["element"] = spell(type.getElementType());
    object["shape"] = dimensionsOrNull(type.getShape());
    object["memory"] = getMemory(type, program);
    // The identity layout takes strides and offset from the shape (the
    // descriptor's are not read): the caller's array must be row-major
    // contiguous. A strided layout reads the descriptor's where the type
    // leaves them dynamic.
    if (type.getLayout().isIdentity()) {
      object["layout"] = "identity";
    } else {
      SmallVector<int64_t> strides;
      int64_t offset;
      if (succeeded(type.getStridesAndOffset(strides, offset))) {
        object["layout"] = "strided";
        object["strides"] = dimensionsOrNull(strides);
        object["offset"] = ShapedType::isDynamic(offset)
                               ? llvm::json::Value(nullptr)
                               : llvm::json::Value(offset);
      } else {
        object["layout"] = "other";
      }
    }
    break;
  }
  }
  return object;
}

/// "file:line:col" of a location, or "".
static std::string spellLocation(Location loc) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return (fileLoc.getFilename().getValue() + ":" +
            Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
        .str();
  return "";
}

namespace {
/// Whether a program, or a program it calls, has an op that `matches`: an
/// sdfg.sync (a host sync, as sdfg-insert-host-syncs and sdfg-make-sync-call
/// write it), or a gpu.alloc (a stream-ordered allocation: CUDA cannot use a
/// graph captured from such a call as a child graph, which is how XLA's command
/// buffers take a custom call in).
class CalleeFinder {
public:
  explicit CalleeFinder(function_ref<bool(Operation *)> matches)
      : matches(matches) {}

  bool find(Operation *program) {
    auto [it, inserted] = memo.try_emplace(program, false);
    if (!inserted)
      return it->second; // Recursion: the other visit decides.
    bool found = false;
    program->walk([&](Operation *op) {
      if (matches(op))
        found = true;
      else if (auto call = dyn_cast<CallOpInterface>(op))
        if (Operation *callee = call.resolveCallableInTable(&symbolTables))
          found |= find(callee);
      return found ? WalkResult::interrupt() : WalkResult::advance();
    });
    memo[program] = found;
    return found;
  }

private:
  function_ref<bool(Operation *)> matches;
  SymbolTableCollection symbolTables;
  llvm::DenseMap<Operation *, bool> memo;
};
} // namespace

FailureOr<llvm::json::Value>
mlir::sdfg::buildManifest(ModuleOp module, ArrayRef<CProgram> programs,
                          const LibraryInterfaceOptions &options) {
  // The host syncs the lowering will insert, found on a copy.
  OwningOpRef<ModuleOp> synced = module.clone();
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  pm.addPass(createInsertHostSyncs());
  if (options.syncCall)
    pm.addPass(createMakeSyncCall());
  if (failed(pm.run(*synced)))
    return module.emitError(
        "the manifest could not tell where calls synchronize the host "
        "(sdfg-insert-host-syncs failed)");
  CalleeFinder syncs([](Operation *op) { return isa<SyncOp>(op); });
  CalleeFinder allocations([](Operation *op) { return isa<gpu::AllocOp>(op); });

  llvm::json::Array entries;
  for (const CProgram &program : programs) {
    llvm::json::Array parameters;
    std::optional<std::string> streamName;
    for (const CParameter &parameter : program.parameters) {
      parameters.push_back(describeParameter(parameter, program.op));
      if (parameter.kind == CParameter::Kind::Stream)
        streamName = parameter.name;
    }
    Operation *copy = SymbolTable::lookupSymbolIn(*synced, program.name);
    llvm::json::Value result = program.returnsStatus ? "status"
                               : program.resultCType == "void"
                                   ? llvm::json::Value("void")
                                   : llvm::json::Value(spell(
                                         program.op.getResultTypes().front()));
    entries.push_back(llvm::json::Object{
        {"name", program.name},
        {"kind", isa<SDFGOp>(program.op) ? "sdfg" : "func"},
        {"entry", "_mlir_ciface_" + program.name},
        {"packed", "_sdfgstream_packed_" + program.name},
        {"result", std::move(result)},
        {"stream", streamName ? llvm::json::Value(*streamName)
                              : llvm::json::Value(nullptr)},
        {"host_sync", copy && syncs.find(copy)},
        {"stream_allocations", copy && allocations.find(copy)},
        {"location", spellLocation(program.op.getLoc())},
        {"parameters", std::move(parameters)}});
  }
  return llvm::json::Value(llvm::json::Object{
      {"format", "sdfgstream-manifest"},
      {"version", 1},
      {"sync_call", options.syncCall},
      {"programs", std::move(entries)}});
}
