//===- Pipelines.h - The SDFGStream lowering pipelines ----------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfg-lower-to-cuda and sdfg-lower-to-rocm: SDFGStream's passes and
// upstream's, in one pipeline per vendor (as upstream's MLIRGPUPipelines
// holds gpu-lower-to-nvvm-pipeline). Its own library, on top of the
// Transforms and Conversion libraries.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_PIPELINES_PIPELINES_H
#define SDFGSTREAM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class OpPassManager;

namespace sdfg {

/// Options of the lowering pipelines `sdfg-lower-to-cuda` and
/// `sdfg-lower-to-rocm`.
struct LowerToGpuPipelineOptions
    : public PassPipelineOptions<LowerToGpuPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture to compile kernels for (default: "
                     "sm_90 for CUDA, gfx90a for ROCm)")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel binary format: fatbin (CUDA default), bin "
                     "(cubin / hsaco; ROCm default), isa (PTX / AMDGCN "
                     "assembly, compiled when first loaded) or llvm (LLVM "
                     "IR, for offloading)")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Target features of the kernels (e.g. +ptx80 for CUDA, "
                     "+xnack for ROCm; default: the chip's)")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("Toolkit path for the kernel compiler (CUDA: where "
                     "bin/ptxas lives; ROCm: where amdgcn/bitcode lives, "
                     "found in ROCM_PATH, /opt/rocm or Debian's "
                     "/usr/lib/<arch>-linux-gnu when not given)")};
  PassOptions::Option<std::string> compilerOptions{
      *this, "compiler-options",
      llvm::cl::desc("Options for the downstream kernel compiler (ptxas)")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("Kernel optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> hostBarePtrCallConv{
      *this, "host-bare-ptr-calling-convention",
      llvm::cl::desc("Host functions take statically shaped memrefs as bare "
                     "pointers (as upstream's option of that name)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> kernelBarePtrCallConv{
      *this, "kernel-bare-ptr-calling-convention",
      llvm::cl::desc("Kernels take statically shaped memrefs as bare "
                     "pointers (as upstream's option of that name)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> syncCall{
      *this, "sync-call",
      llvm::cl::desc("Make calls synchronous (sdfg-make-sync-call)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> checkDevices{
      *this, "check-devices",
      llvm::cl::desc("Fail a call whose GPU buffers are on another device "
                     "than its stream (sdfg-check-argument-devices)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> timers{
      *this, "timers",
      llvm::cl::desc("Time each call on its streams (sdfg-instrument-timers)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> concurrentStreams{
      *this, "concurrent-streams",
      llvm::cl::desc("Run the stream slots of programs with more than one "
                     "concurrently, forked from and joined to the caller's "
                     "stream (sdfg-add-external-gpu-stream "
                     "concurrent-streams)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> serializeAsync{
      *this, "serialize-async",
      llvm::cl::desc("Run the token chains of programs in upstream's async "
                     "form on the caller's one stream instead of concurrent "
                     "slots (sdfg-add-external-gpu-stream serialize-async)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> graphMode{
      *this, "graph-mode",
      llvm::cl::desc("Launch each program call's GPU work between host syncs "
                     "as cached CUDA graphs (convert-sdfg-to-func "
                     "graph-mode; on HIP the calls run eagerly)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> testOmitHostSyncs{
      *this, "test-omit-host-syncs",
      llvm::cl::desc("Test only: insert no host syncs (sdfg-insert-host-syncs "
                     "test-omit-syncs), for the negative controls of the "
                     "GPU hazard tests"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> testOmitStreamWaits{
      *this, "test-omit-stream-waits",
      llvm::cl::desc("Test only: no waits between streams, no join of "
                     "concurrent slots (sdfg-add-external-gpu-stream "
                     "test-omit-stream-waits), for the negative controls of "
                     "the GPU stream-ordering tests"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> testOmitGraphModeChecks{
      *this, "test-omit-graph-mode-checks",
      llvm::cl::desc("Test only: no graph flush before calls that leave the "
                     "runtime, graph mode where allocations escape "
                     "(convert-sdfg-to-func test-omit-graph-mode-checks), "
                     "for the negative controls of the graph-mode ordering "
                     "tests"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> testOmitFailureExits{
      *this, "test-omit-failure-exits",
      llvm::cl::desc("Test only: do not run sdfg-insert-failure-exits (a "
                     "failed call runs its host code to the end), for the "
                     "negative controls of the fail-fast tests"),
      llvm::cl::init(false)};
};

/// The GPU vendor a pipeline lowers to. Everything else is shared. The
/// vendors are those of the build's SDFGSTREAM_GPU_TARGETS (Targets.def).
enum class GpuVendor {
#define SDFGSTREAM_GPU_TARGET(Vendor, Option, Runtime) Vendor,
#include "SDFGStream/Pipelines/Targets.def"
};

/// Every vendor, in Targets.def's order.
ArrayRef<GpuVendor> getGpuVendors();

/// The vendor as options name it ("cuda", "rocm"): its pipeline is
/// sdfg-lower-to-<this>.
StringRef getGpuVendorOptionName(GpuVendor vendor);

/// Fails, with the reason in `error`, for options the pipeline cannot work
/// with (unknown format or chip, opt-level above 3, a toolkit without what
/// the format needs). The registered pipelines check this first; callers
/// of buildLowerToGpuPipeline should too.
LogicalResult verifyLowerToGpuPipelineOptions(
    GpuVendor vendor, const LowerToGpuPipelineOptions &options,
    std::string &error);

/// Adds the whole lowering of SDFGStream programs to `pm`: library node
/// expansion, the external stream, host code to the LLVM dialect on the
/// caller's stream, kernels to NVVM/ROCDL binaries, and a final
/// sdfg-verify-stream-discipline.
void buildLowerToGpuPipeline(OpPassManager &pm, GpuVendor vendor,
                             const LowerToGpuPipelineOptions &options);

/// Registers `sdfg-lower-to-cuda` and `sdfg-lower-to-rocm`, and the passes
/// of their targets (SDFGStream/Pipelines/Passes.h:
/// `sdfg-verify-kernel-targets`, `sdfg-assemble-amdgpu-kernels`,
/// `convert-kernel-asserts-to-traps`).
void registerLowerToGpuPipelines();

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_PIPELINES_PIPELINES_H
