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
// mlir-translate opens its output only after reading its input, so `-o`
// naming the input would silently replace it (an imported `.sdfg` with the
// MLIR read from it) and exit 0: the driver refuses that first.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Import/DaCe.h"
#include "SDFGStream/Target/CHeader.h"
#include "SDFGStream/Target/LibraryInterface.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

/// The output file named by `-o FILE` or `-o=FILE` (either with one or two
/// dashes), and every other argument that is not an option: the input and
/// any file an option names as a separate value. Writing over any of those
/// is refused.
static bool writesOverAnArgument(int argc, char **argv) {
  llvm::StringRef output;
  llvm::SmallVector<llvm::StringRef> others;
  bool optionsEnded = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (!optionsEnded && arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && (arg == "-o" || arg == "--o")) {
      if (i + 1 < argc)
        output = argv[++i];
      continue;
    }
    if (!optionsEnded &&
        (arg.consume_front("-o=") || arg.consume_front("--o="))) {
      output = arg;
      continue;
    }
    if (optionsEnded || !arg.starts_with("-"))
      others.push_back(arg);
  }
  if (output.empty() || output == "-")
    return false;
  for (llvm::StringRef other : others) {
    if (other == "-" || !llvm::sys::fs::equivalent(other, output))
      continue;
    llvm::errs() << argv[0] << ": the output file '" << output
                 << "' is the input file '" << other
                 << "'; refusing to overwrite it\n";
    return true;
  }
  return false;
}

int main(int argc, char **argv) {
  if (writesOverAnArgument(argc, argv))
    return 2;
  mlir::registerAllTranslations();
  mlir::sdfg::registerToCHeaderTranslation();
  mlir::sdfg::registerLibraryInterfaceTranslations();
  mlir::sdfg::dace::registerImportDaCeSDFGTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "SDFGStream translation driver"));
}
