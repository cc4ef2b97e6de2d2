//===- sdfg-opt.cpp - The SDFGStream optimizer driver ---------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt with the sdfg dialect and SDFGStream passes on top of every
// upstream dialect, extension and pass, so that inputs can be written,
// transformed and lowered with one tool.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGDialect.h"
#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Pipelines/Pipelines.h"
#include "SDFGStream/Conversion/SDFGToLLVM/SDFGToLLVM.h"
#include "SDFGStream/Transforms/DeprecatedPassNames.h"
#include "SDFGStream/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef SDFGSTREAM_INCLUDE_TESTS
#include "TestAnalysisPasses.h"
#endif

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::sdfg::registerSDFGStreamTransformsPasses();
  mlir::sdfg::registerSDFGStreamConversionPasses();
  mlir::sdfg::registerLowerToGpuPipelines();
  mlir::sdfg::registerDeprecatedPassNames();
#ifdef SDFGSTREAM_INCLUDE_TESTS
  mlir::sdfg::test::registerTestAnalysisPasses();
#endif

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::sdfg::SDFGDialect>();
  // convert-to-llvm lowers the sdfg ops too.
  mlir::sdfg::registerConvertSDFGToLLVMInterface(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "SDFGStream optimizer driver\n", registry));
}
