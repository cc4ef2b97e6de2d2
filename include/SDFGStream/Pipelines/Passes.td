//===- Passes.td - SDFGStream's lowering pipelines' passes -*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The passes that belong to the GPU targets of the lowering pipelines
// (lib/Pipelines): the check of kernel targets, which reads every vendor's
// target description, and the passes that only one vendor's lowering runs
// (lib/Pipelines/ROCm). registerLowerToGpuPipelines() registers them with
// the pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_PIPELINES_PASSES_TD
#define SDFGSTREAM_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifyKernelTargets : Pass<"sdfg-verify-kernel-targets", "ModuleOp"> {
  let summary = "Fail on kernels already built or targeted for another vendor";
  let description = [{
    Producers may attach compilation targets to their kernel modules
    themselves (`nvvm-attach-target`, `rocdl-attach-target`, or
    `gpu.module @k [#nvvm.target<chip = "sm_80">]` written out) or bring
    kernels already compiled (`gpu.binary`). A lowering for one vendor keeps
    targets and objects of that vendor as they are, but cannot build or load
    those of the other: a ROCDL target on a module lowered to NVVM (or the
    reverse) makes the backend abort the process. This check reports, before
    anything is lowered,

    * every `gpu.module` target that is not the vendor's (its target
      description says which: `#nvvm.target` for CUDA, `#rocdl.target` for
      ROCm), and
    * every `gpu.binary` whose embedded object (the one its
      `#gpu.select_object` handler picks: by default the first) is built
      for another target than the vendor's,

    at the op, naming the target. Both lowering pipelines run it first.
  }];
  let options = [
    Option<"vendor", "vendor", "std::string", /*default=*/"\"cuda\"",
           "The vendor the kernels are lowered for, as its pipeline names it: "
           "cuda or rocm">
  ];
}

//===----------------------------------------------------------------------===//
// ROCm
//===----------------------------------------------------------------------===//

def AssembleAmdgpuKernels : Pass<"sdfg-assemble-amdgpu-kernels", "ModuleOp"> {
  let summary = "Turn AMDGCN assembly kernels into HSA code objects";
  let description = [{
    Replaces every `#rocdl.target` object of a `gpu.binary` that is AMDGCN
    assembly (`gpu-module-to-binary` with `format=isa`) by the HSA code
    object (`bin`) that `llvm-mc` and `ld.lld -shared` make of it, the two
    steps `gpu-module-to-binary` itself runs for `format=bin` with an
    `ld.lld` that it only looks for at `<toolkit>/llvm/bin`. It lets
    `sdfg-lower-to-rocm` make code objects where the device libraries and
    LLVM's tools are installed apart (Debian: `rocm-device-libs` in
    `/usr/lib/<arch>-linux-gnu`, `lld-22` in `/usr/lib/llvm-22/bin`).

    Example: `sdfg-opt --gpu-module-to-binary=format=isa
    --sdfg-assemble-amdgpu-kernels="ld-lld=/usr/lib/llvm-22/bin/ld.lld
    llvm-mc=/usr/lib/llvm-22/bin/llvm-mc"`.
  }];
  let options = [
    Option<"llvmMc", "llvm-mc", "std::string", /*default=*/"\"llvm-mc\"",
           "The llvm-mc to assemble with (a path, or a name looked up in "
           "the tools of the LLVM that MLIR comes from, then in PATH)">,
    Option<"ldLld", "ld-lld", "std::string", /*default=*/"\"ld.lld\"",
           "The ld.lld to link with (a path, or a name looked up as for "
           "llvm-mc)">
  ];
}

def ConvertKernelAssertsToTraps
    : Pass<"convert-kernel-asserts-to-traps", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower cf.assert in kernels to gpu.printf and a trap";
  let description = [{
    Rewrites every `cf.assert` in the kernels of a `gpu.module` into a
    branch to a block that prints the assert's message with `gpu.printf`,
    naming the op's location, block and thread, and ends the kernel with
    `llvm.intr.trap` (as HIP's own `__assert_fail` does). `sdfg-lower-to-rocm`
    runs it before `convert-gpu-to-rocdl`, whose `cf.assert` lowering (the
    host's, from `cf-to-llvm`) puts the message in the host module, where the
    kernel cannot reference it: invalid IR. (NVVM kernels have
    `__assertfail` and need no such pass.)

    Example: `cf.assert %ok, "negative input"` at `prog.mlir:9:7` becomes
    `cf.cond_br %ok, ^next, ^failed` with `^failed: gpu.printf
    "prog.mlir:9:7: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld]
    Assertion `negative input` failed.\n" ...; llvm.intr.trap;
    llvm.unreachable`.
  }];
  let dependentDialects = [
    "::mlir::cf::ControlFlowDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // SDFGSTREAM_PIPELINES_PASSES_TD
