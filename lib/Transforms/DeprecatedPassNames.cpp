//===- DeprecatedPassNames.cpp - The passes' names before the prefix ------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Each old name is a pass pipeline of one pass: the pass registered under
// the new name, given the same options text (so `-insert-host-syncs` and
// `insert-host-syncs{...}` in a --pass-pipeline keep working).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Transforms/DeprecatedPassNames.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

static const std::pair<StringRef, StringRef> kDeprecatedNames[] = {
    {"add-external-gpu-stream", "sdfg-add-external-gpu-stream"},
    {"make-sync-call", "sdfg-make-sync-call"},
    {"insert-host-syncs", "sdfg-insert-host-syncs"},
    {"insert-failure-exits", "sdfg-insert-failure-exits"},
    {"check-argument-devices", "sdfg-check-argument-devices"},
    {"instrument-timers", "sdfg-instrument-timers"},
    {"verify-stream-discipline", "sdfg-verify-stream-discipline"},
    {"verify-kernel-targets", "sdfg-verify-kernel-targets"},
    {"verify-fully-lowered", "sdfg-verify-fully-lowered"},
    {"assemble-amdgpu-kernels", "sdfg-assemble-amdgpu-kernels"},
};

ArrayRef<std::pair<StringRef, StringRef>>
mlir::sdfg::getDeprecatedPassNames() {
  return kDeprecatedNames;
}

/// Warns once per process and name.
static void warnDeprecated(StringRef name, StringRef replacement) {
  static std::mutex mutex;
  static llvm::StringSet<> warned;
  std::lock_guard<std::mutex> lock(mutex);
  if (warned.insert(name).second)
    llvm::errs() << "warning: pass name '" << name
                 << "' is deprecated; use '" << replacement << "'\n";
}

void mlir::sdfg::registerDeprecatedPassNames() {
  for (auto [name, replacement] : kDeprecatedNames) {
    registerPassPipeline(
        name, "Deprecated name of -" + replacement.str(),
        [name = name, replacement = replacement](
            OpPassManager &pm, StringRef options,
            function_ref<LogicalResult(const Twine &)> errorHandler) {
          const PassInfo *info = PassInfo::lookup(replacement);
          if (!info)
            return errorHandler("deprecated pass name '" + name +
                                "': pass '" + replacement +
                                "' is not registered");
          warnDeprecated(name, replacement);
          return info->addToPipeline(pm, options, errorHandler);
        },
        [](function_ref<void(const detail::PassOptions &)>) {});
  }
}
