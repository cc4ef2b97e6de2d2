//===- ImportTranslation.cpp - sdfg-translate --import-dace-sdfg ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Import/DaCe.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

using namespace mlir;
using namespace mlir::sdfg;
using namespace mlir::sdfg::dace;

namespace {
struct TranslationOptions {
  llvm::cl::opt<int64_t> maxConcurrentStreams{
      "dace-max-concurrent-streams",
      llvm::cl::desc("DaCe's compiler.cuda.max_concurrent_streams: 0 gives "
                     "every independent part of a state its own stream "
                     "slot, N > 0 wraps at N, -1 uses one slot"),
      llvm::cl::init(0)};
  llvm::cl::list<int64_t> defaultBlockSize{
      "dace-default-block-size",
      llvm::cl::desc("DaCe's compiler.cuda.default_block_size (x,y,z) for "
                     "GPU maps without gpu_block_size"),
      llvm::cl::CommaSeparated};
};
} // namespace

static llvm::ManagedStatic<TranslationOptions> translationOptions;

void mlir::sdfg::dace::registerImportDaCeSDFGTranslation() {
  *translationOptions;
  static TranslateToMLIRRegistration registration(
      "import-dace-sdfg",
      "import a DaCe SDFG file (.sdfg JSON or gzip-compressed .sdfgz)",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        ImportOptions options;
        options.maxConcurrentStreams =
            translationOptions->maxConcurrentStreams;
        const auto &block = translationOptions->defaultBlockSize;
        if (!block.empty()) {
          if (block.size() > 3 || llvm::any_of(block, [](int64_t size) {
                return size < 1;
              })) {
            emitError(UnknownLoc::get(context))
                << "--dace-default-block-size takes one to three positive "
                   "sizes";
            return nullptr;
          }
          options.defaultBlockSize = {1, 1, 1};
          for (auto [i, size] : llvm::enumerate(block))
            options.defaultBlockSize[i] = size;
        }
        const llvm::MemoryBuffer *main =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        if (!main->getBuffer().starts_with("\x1f\x8b"))
          return importSDFG(sourceMgr, context, options);
        llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> json =
            decompressSDFGFile(llvm::MemoryBuffer::getMemBufferCopy(
                main->getBuffer(), main->getBufferIdentifier()));
        if (!json) {
          emitError(FileLineColLoc::get(context, main->getBufferIdentifier(),
                                        1, 1))
              << llvm::toString(json.takeError());
          return nullptr;
        }
        // Errors point into the JSON text, named after the file.
        unsigned bufferId = sourceMgr.AddNewSourceBuffer(
            llvm::MemoryBuffer::getMemBufferCopy(
                (*json)->getBuffer(),
                (main->getBufferIdentifier() + " (decompressed)").str()),
            llvm::SMLoc());
        return importSDFG(sourceMgr, context, options, bufferId);
      },
      [](DialectRegistry &registry) {
        registry.insert<SDFGDialect, arith::ArithDialect,
                        cf::ControlFlowDialect, gpu::GPUDialect,
                        LLVM::LLVMDialect, math::MathDialect,
                        memref::MemRefDialect, scf::SCFDialect>();
      });
}
