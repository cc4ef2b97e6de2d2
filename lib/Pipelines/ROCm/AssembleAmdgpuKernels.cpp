//===- AssembleAmdgpuKernels.cpp - AMDGCN assembly to HSA code objects ----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// gpu-module-to-binary makes an HSA code object by assembling the kernels'
// AMDGCN and linking the object with `<toolkit>/llvm/bin/ld.lld`: one
// toolkit folder for the device libraries and the linker. Distributions
// install them apart, so this pass runs the same two steps on the assembly
// that format=isa gives, with tools found anywhere.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Pipelines/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_ASSEMBLEAMDGPUKERNELS
#include "SDFGStream/Pipelines/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct AssembleAmdgpuKernels
    : public sdfg::impl::AssembleAmdgpuKernelsBase<AssembleAmdgpuKernels> {
  using AssembleAmdgpuKernelsBase::AssembleAmdgpuKernelsBase;
  void runOnOperation() override;
};

/// A temporary file, removed when this goes out of scope.
struct TemporaryFile {
  SmallString<128> path;
  std::optional<llvm::FileRemover> remover;

  LogicalResult create(StringRef suffix) {
    int fd;
    if (llvm::sys::fs::createTemporaryFile("sdfg-kernel", suffix, fd, path))
      return failure();
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    remover.emplace(path);
    return success();
  }
};
} // namespace

/// The path of `tool`: a path as given; a bare name from the LLVM that MLIR
/// comes from first (PATH may hold another version's llvm-mc, which does
/// not know this one's directives), then from PATH.
static FailureOr<std::string> findTool(StringRef tool) {
  if (tool.contains('/')) {
    if (llvm::sys::fs::can_execute(tool))
      return tool.str();
    return failure();
  }
  if (llvm::ErrorOr<std::string> found =
          llvm::sys::findProgramByName(tool, {SDFGSTREAM_LLVM_TOOLS_DIR}))
    return *found;
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(tool))
    return *found;
  return failure();
}

/// Runs `tool args...`; on failure reports its output at `binary`.
static LogicalResult run(gpu::BinaryOp binary, StringRef tool,
                         ArrayRef<StringRef> args) {
  TemporaryFile output;
  if (failed(output.create("log")))
    return binary.emitError() << "cannot create a temporary file";
  std::optional<StringRef> redirects[] = {std::nullopt, output.path.str(),
                                          output.path.str()};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(tool, args, std::nullopt, redirects,
                                         0, 0, &message);
  if (status == 0)
    return success();
  auto log = llvm::MemoryBuffer::getFile(output.path);
  return binary.emitError()
         << "kernels of '" << binary.getName() << "': " << tool
         << " failed (" << (message.empty() ? "exit " + std::to_string(status)
                                            : message)
         << ")" << (log ? ": " + (*log)->getBuffer().trim().str() : "");
}

/// The HSA code object of AMDGCN `assembly` for `target`.
static FailureOr<std::string> assembleAndLink(gpu::BinaryOp binary,
                                              ROCDL::ROCDLTargetAttr target,
                                              StringRef assembly,
                                              StringRef llvmMc, StringRef lld) {
  TemporaryFile source, object, codeObject;
  if (failed(source.create("s")) || failed(object.create("o")) ||
      failed(codeObject.create("hsaco")))
    return binary.emitError() << "cannot create a temporary file";
  {
    std::error_code error;
    llvm::raw_fd_ostream os(source.path, error);
    if (error)
      return binary.emitError() << "cannot write " << source.path;
    os << assembly;
  }
  std::string triple = ("-triple=" + target.getTriple()).str();
  std::string chip = ("-mcpu=" + target.getChip()).str();
  std::string features = ("-mattr=" + target.getFeatures()).str();
  SmallVector<StringRef> mcArgs = {llvmMc, triple, chip, "-filetype=obj"};
  if (!target.getFeatures().empty())
    mcArgs.push_back(features);
  mcArgs.append({source.path.str(), "-o", object.path.str()});
  if (failed(run(binary, llvmMc, mcArgs)) ||
      failed(run(binary, lld,
                 {lld, "-shared", object.path.str(), "-o",
                  codeObject.path.str()})))
    return failure();
  auto buffer = llvm::MemoryBuffer::getFile(codeObject.path);
  if (!buffer)
    return binary.emitError() << "cannot read " << codeObject.path;
  return (*buffer)->getBuffer().str();
}

void AssembleAmdgpuKernels::runOnOperation() {
  MLIRContext *context = &getContext();
  FailureOr<std::string> mc = findTool(llvmMc), lld = findTool(ldLld);
  for (auto binary : getOperation().getOps<gpu::BinaryOp>()) {
    SmallVector<Attribute> objects;
    bool changed = false;
    for (Attribute attribute : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attribute);
      auto target = dyn_cast<ROCDL::ROCDLTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
        objects.push_back(object);
        continue;
      }
      if (failed(mc) || failed(lld)) {
        binary.emitError() << "kernels of '" << binary.getName()
                           << "' need " << (failed(mc) ? llvmMc : ldLld)
                           << " to become a code object; it was not found";
        return signalPassFailure();
      }
      FailureOr<std::string> code = assembleAndLink(
          binary, target, object.getObject().getValue(), *mc, *lld);
      if (failed(code))
        return signalPassFailure();
      objects.push_back(gpu::ObjectAttr::get(
          context, target, gpu::CompilationTarget::Binary,
          StringAttr::get(context, *code), object.getProperties(),
          object.getKernels()));
      changed = true;
    }
    if (changed)
      binary.setObjectsAttr(ArrayAttr::get(context, objects));
  }
}
