//===- sdfg-translate.cpp - The SDFGStream translation driver -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// mlir-translate plus `--sdfg-to-c-header`, which writes the C declarations
// of the programs an ahead-of-time build exports, `--sdfg-to-manifest` and
// `--sdfg-to-library-interface` (what a program library tells callers that
// load it at run time), and `--import-dace-sdfg`, which reads a DaCe SDFG
// file.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Import/DaCe.h"
#include "SDFGStream/Target/CHeader.h"
#include "SDFGStream/Target/LibraryInterface.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  mlir::sdfg::registerToCHeaderTranslation();
  mlir::sdfg::registerLibraryInterfaceTranslations();
  mlir::sdfg::dace::registerImportDaCeSDFGTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "SDFGStream translation driver"));
}
