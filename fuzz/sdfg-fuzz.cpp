//===- sdfg-fuzz.cpp - libFuzzer harness over the stream passes -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Design rule 7: bad input gets a diagnostic, never a crash, and no pass
// turns valid IR into invalid IR. The input bytes are parsed as MLIR with
// every dialect sdfg-opt registers; an input that parses and verifies goes
// through sdfg-add-external-gpu-stream, sdfg-insert-host-syncs and
// sdfg-make-sync-call, then, each on its own copy, through sdfg-lower-to-cuda
// and sdfg-lower-to-rocm with kernels emitted as assembly (format=isa: LLVM's
// own NVPTX / AMDGPU back ends, no ptxas or device libraries).
//
// A pass may fail with a diagnostic: that is bad input handled well. The
// harness aborts when a pass that succeeded leaves IR the verifier rejects
// (after printing the pass, the diagnostics and the IR), and libFuzzer
// reports every crash and sanitizer finding.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Pipelines/Pipelines.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {
/// Verifies the IR after every pass that succeeded, and aborts, naming the
/// pass, if it is invalid. The pass manager's own verifier would only turn
/// that into a failure, which is indistinguishable from a pass rejecting
/// bad input.
class AbortOnInvalidIR : public PassInstrumentation {
public:
  explicit AbortOnInvalidIR(const std::string &diagnostics)
      : diagnostics(diagnostics) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "sdfg-fuzz: pass '" << pass->getArgument()
                 << "' succeeded but left IR that does not verify:\n"
                 << diagnostics << "\n";
    op->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
    llvm::errs() << "\n";
    std::abort();
  }

private:
  const std::string &diagnostics;
};
} // namespace

/// Every dialect and extension sdfg-opt registers (tools/sdfg-opt), built
/// once.
static const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    registerAllDialects(*result);
    registerAllExtensions(*result);
    registerAllToLLVMIRTranslations(*result);
    result->insert<sdfg::SDFGDialect>();
    return result;
  }();
  return *registry;
}

/// Returns true if a gpu.launch_func names no kernel or passes operands
/// that its kernel does not take. The gpu.container_module verifier of
/// MLIR 22 checks that only for launches directly in a function body, not
/// in nested regions (scf.for, scf.if, ...), so such a launch verifies
/// until a pass such as convert-scf-to-cf moves it out: invalid input, not
/// a bug of the pass.
static bool hasMismatchedLaunch(ModuleOp module) {
  WalkResult result = module->walk([&](gpu::LaunchFuncOp launch) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    return kernel && llvm::equal(launch.getKernelOperands().getTypes(),
                                 kernel.getArgumentTypes())
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return result.wasInterrupted();
}

/// Runs the passes that `build` adds on `module`, every one checked by
/// AbortOnInvalidIR. Returns false if a pass failed.
static bool runChecked(MLIRContext &context, ModuleOp module,
                       const std::string &diagnostics,
                       function_ref<void(OpPassManager &)> build) {
  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<AbortOnInvalidIR>(diagnostics));
  build(pm);
  return succeeded(pm.run(module));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh single-threaded context per input: nothing an input interns or
  // loads carries over to the next one, so every finding replays alone.
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    diagnosticStream << diagnostic.getLocation() << ": " << diagnostic.str()
                     << "\n";
    return success();
  });

  // The lexer relies on the NUL that a copied MemoryBuffer ends with; the
  // fuzzer's bytes have none.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "input"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module || hasMismatchedLaunch(*module))
    return 0;

  if (!runChecked(context, *module, diagnostics, [](OpPassManager &pm) {
        pm.addPass(sdfg::createAddExternalGpuStream());
        pm.addPass(sdfg::createInsertHostSyncs());
        pm.addPass(sdfg::createMakeSyncCall());
      }))
    return 0;

  for (sdfg::GpuVendor vendor : sdfg::getGpuVendors()) {
    OwningOpRef<ModuleOp> copy = module->clone();
    runChecked(context, *copy, diagnostics, [&](OpPassManager &pm) {
      sdfg::LowerToGpuPipelineOptions options;
      options.format = "isa";
      sdfg::buildLowerToGpuPipeline(pm, vendor, options);
    });
  }
  return 0;
}
