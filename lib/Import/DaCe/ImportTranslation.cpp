//===- ImportTranslation.cpp - sdfg-translate --import-dace-sdfg ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Import/DaCe.h"

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

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

namespace {
/// DaCe 1.0 and later write an SDFG file as one line of JSON, often
/// hundreds of kilobytes long. The usual diagnostic printer shows the whole
/// source line under a message; this one shows at most kExcerpt characters
/// of it around the column, for diagnostics (and their notes) on such lines.
class ExcerptDiagnostics : public ScopedDiagnosticHandler {
public:
  static constexpr unsigned kExcerpt = 120;

  ExcerptDiagnostics(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : ScopedDiagnosticHandler(context), sourceMgr(sourceMgr) {
    setHandler([this](Diagnostic &diagnostic) -> LogicalResult {
      if (!onLongLine(diagnostic.getLocation()) &&
          llvm::none_of(diagnostic.getNotes(), [&](Diagnostic &note) {
            return onLongLine(note.getLocation());
          }))
        return failure();
      print(diagnostic);
      for (Diagnostic &note : diagnostic.getNotes())
        print(note);
      return success();
    });
  }

private:
  /// The text of the line `location` points at, if it is in a buffer.
  std::optional<llvm::StringRef> lineOf(FileLineColLoc location) {
    for (unsigned id = 1; id <= sourceMgr.getNumBuffers(); ++id) {
      const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
      if (buffer->getBufferIdentifier() != location.getFilename().getValue())
        continue;
      llvm::SMLoc start =
          sourceMgr.FindLocForLineAndColumn(id, location.getLine(), 1);
      if (!start.isValid())
        return std::nullopt;
      llvm::StringRef rest(start.getPointer(),
                           buffer->getBufferEnd() - start.getPointer());
      return rest.take_until([](char c) { return c == '\n' || c == '\r'; });
    }
    return std::nullopt;
  }

  bool onLongLine(Location location) {
    auto file = dyn_cast<FileLineColLoc>(location);
    if (!file)
      return false;
    std::optional<llvm::StringRef> line = lineOf(file);
    return line && line->size() > kExcerpt;
  }

  void print(Diagnostic &diagnostic) {
    llvm::raw_ostream &os = llvm::errs();
    Location location = diagnostic.getLocation();
    auto file = dyn_cast<FileLineColLoc>(location);
    if (file)
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn() << ": ";
    else if (!isa<UnknownLoc>(location))
      os << location << ": ";
    switch (diagnostic.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << diagnostic.str() << "\n";
    std::optional<llvm::StringRef> line =
        file ? lineOf(file) : std::optional<llvm::StringRef>();
    if (!line)
      return;
    size_t column = file.getColumn() ? file.getColumn() - 1 : 0;
    size_t begin = column > kExcerpt / 2 ? column - kExcerpt / 2 : 0;
    llvm::StringRef excerpt = line->substr(begin, kExcerpt);
    llvm::StringRef before = begin > 0 ? "..." : "";
    llvm::StringRef after = begin + excerpt.size() < line->size() ? "..." : "";
    os << before << excerpt << after << "\n";
    os.indent(before.size() + column - begin) << "^\n";
  }

  llvm::SourceMgr &sourceMgr;
};
} // namespace

void mlir::sdfg::dace::registerImportDaCeSDFGTranslation() {
  *translationOptions;
  static TranslateToMLIRRegistration registration(
      "import-dace-sdfg",
      "import a DaCe SDFG file (.sdfg JSON or gzip-compressed .sdfgz)",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        ExcerptDiagnostics excerpts(sourceMgr, context);
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
                        complex::ComplexDialect,
                        cf::ControlFlowDialect, gpu::GPUDialect,
                        LLVM::LLVMDialect, math::MathDialect,
                        memref::MemRefDialect, scf::SCFDialect>();
      });
}
