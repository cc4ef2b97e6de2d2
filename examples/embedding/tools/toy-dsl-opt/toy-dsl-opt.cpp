//===- toy-dsl-opt.cpp - The toy DSL's optimizer driver -------------------===//
//
// Part of the toy-dsl example of embedding SDFGStream.
//
//===----------------------------------------------------------------------===//
//
// An opt tool of another DSL compiler that embeds SDFGStream: the sdfg
// dialect, SDFGStream's passes and lowering pipelines next to the DSL's own
// pass and pipelines, on top of the upstream dialects.
//
//===----------------------------------------------------------------------===//

#include "ToyDSL/Passes.h"

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Pipelines/Pipelines.h"
#include "SDFGStream/Conversion/SDFGToLLVM/SDFGToLLVM.h"
#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  // SDFGStream: sdfg-add-external-gpu-stream, sdfg-make-sync-call, ..., the
  // convert-sdfg-to-* passes and sdfg-lower-to-cuda / sdfg-lower-to-rocm.
  mlir::sdfg::registerSDFGStreamTransformsPasses();
  mlir::sdfg::registerSDFGStreamConversionPasses();
  mlir::sdfg::registerLowerToGpuPipelines();
  // The DSL's own pass and pipelines.
  mlir::toy_dsl::registerToyDSLPasses();
  mlir::toy_dsl::registerToyDSLPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::sdfg::SDFGDialect>();
  // convert-to-llvm lowers the sdfg ops (and the gpu ops on the stream).
  mlir::sdfg::registerConvertSDFGToLLVMInterface(registry);
  // The lowering pipelines use upstream dialects, their conversion
  // interfaces (extensions) and, to build kernel binaries, their LLVM IR
  // translations.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Toy DSL optimizer driver (with SDFGStream)\n", registry));
}
