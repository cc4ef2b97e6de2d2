//===- sdfg-import-fuzz.cpp - libFuzzer harness over the DaCe importer ----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Design rule 7 for the DaCe importer: any bytes, as a `.sdfg` or (gzip
// magic first) a `.sdfgz` file, give either a module that verifies or at
// least one error diagnostic; never a crash, a hang or a silent failure.
// A module that imports then goes through sdfg-add-external-gpu-stream,
// sdfg-insert-host-syncs and sdfg-make-sync-call, and every pass that succeeds
// must leave IR that verifies (the lowering to GPU code is sdfg-fuzz's job).
//
// The harness aborts, printing what it saw, when the importer fails
// without an error, returns a module that does not verify, or a pass
// leaves invalid IR; libFuzzer reports crashes and sanitizer findings.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"
#include "SDFGStream/Import/DaCe.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {
[[noreturn]] void fail(const std::string &what, const std::string &diagnostics,
                       Operation *op) {
  llvm::errs() << "sdfg-import-fuzz: " << what << "\n" << diagnostics << "\n";
  if (op) {
    op->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
    llvm::errs() << "\n";
  }
  std::abort();
}

/// Aborts when a pass that succeeded leaves IR that does not verify.
class AbortOnInvalidIR : public PassInstrumentation {
public:
  explicit AbortOnInvalidIR(const std::string &diagnostics)
      : diagnostics(diagnostics) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    if (failed(verify(op)))
      fail("pass '" + pass->getArgument().str() +
               "' succeeded but left IR that does not verify:",
           diagnostics, op);
  }

private:
  const std::string &diagnostics;
};

const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    registerAllDialects(*result);
    result->insert<sdfg::SDFGDialect>();
    return result;
  }();
  return *registry;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  unsigned errors = 0;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    diagnosticStream << diagnostic.getLocation() << ": " << diagnostic.str()
                     << "\n";
    return success();
  });

  // As sdfg-translate reads a file: gzip is decompressed first.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> json =
      sdfg::dace::decompressSDFGFile(llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "input"));
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*json), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = sdfg::dace::importSDFG(sourceMgr, &context);
  if (!module) {
    if (errors == 0)
      fail("the import failed without an error", diagnostics, nullptr);
    return 0;
  }
  if (failed(verify(*module)))
    fail("the imported module does not verify:", diagnostics, *module);

  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<AbortOnInvalidIR>(diagnostics));
  pm.addPass(sdfg::createAddExternalGpuStream());
  pm.addPass(sdfg::createInsertHostSyncs());
  pm.addPass(sdfg::createMakeSyncCall());
  (void)pm.run(*module);
  return 0;
}
