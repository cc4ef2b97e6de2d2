//===- ImportSDFG.cpp - The DaCe importer's entry points ------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// JSON text in (llvm::json), one `sdfg.sdfg` program per SDFG out, in a
// `gpu.container_module` module. Errors are located at the JSON element
// they are about (JsonLocator), so that `file.sdfg:LINE:COL: error: ...`
// points into the file.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Import/DaCe.h"

#include "ProgramEmitter.h"
#include "SDFGFile.h"
#include "SDFGModel.h"
#include "StateScopes.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::sdfg;
using namespace mlir::sdfg::dace;

OwningOpRef<ModuleOp>
mlir::sdfg::dace::importSDFG(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                             const ImportOptions &options,
                             unsigned bufferId) {
  context->loadDialect<SDFGDialect, arith::ArithDialect, complex::ComplexDialect,
                       cf::ControlFlowDialect,
                       gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
                       memref::MemRefDialect, scf::SCFDialect>();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(bufferId ? bufferId
                                         : sourceMgr.getMainFileID());
  llvm::StringRef text = buffer->getBuffer();
  StringAttr fileName = StringAttr::get(context, buffer->getBufferIdentifier());
  JsonLocator locator(text);
  auto locate = [&](llvm::StringRef path) -> Location {
    auto [line, column] = locator.lineAndColumn(locator.offsetOf(path));
    return FileLineColLoc::get(fileName, line, column);
  };

  // llvm::json::parse recurses once per level: refuse a file nested deeper
  // than an SDFG may be before it descends.
  if (std::optional<size_t> tooDeep = locator.getTooDeepOffset()) {
    auto [line, column] = locator.lineAndColumn(*tooDeep);
    emitError(FileLineColLoc::get(fileName, line, column))
        << "JSON nested deeper than " << JsonLocator::kMaxNesting
        << " levels; DaCe's own loader cannot read this file either";
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    std::string message = llvm::toString(json.takeError());
    // llvm::json reports "[N:M, byte=B]: message"; point at the byte.
    unsigned line = 1, column = 1;
    size_t at = message.find("byte=");
    if (at != std::string::npos) {
      size_t offset = std::strtoull(message.c_str() + at + 5, nullptr, 10);
      std::tie(line, column) = locator.lineAndColumn(offset);
    }
    emitError(FileLineColLoc::get(fileName, line, column))
        << "malformed JSON: " << message;
    return nullptr;
  }

  std::unique_ptr<SDFGModel> model =
      readSDFGModel(*json, context, locate, locator, text);
  if (!model)
    return nullptr;

  Location moduleLocation = locate("");
  OwningOpRef<ModuleOp> module = ModuleOp::create(moduleLocation);
  (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                     UnitAttr::get(context));
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module->getBody());
  ProgramEmitter emitter(*model, options, locate, builder);
  if (failed(placeTransients(emitter)))
    return nullptr;
  SDFGOp program = emitter.emit();
  if (!program)
    return nullptr;
  // Whatever the input, the importer must either report a located error
  // or build IR that verifies: anything else is a bug in the importer.
  if (failed(verify(*module))) {
    emitError(moduleLocation)
        << importerBugMessage
        << "; this is an importer bug, please report it with the input file";
    return nullptr;
  }
  return module;
}
