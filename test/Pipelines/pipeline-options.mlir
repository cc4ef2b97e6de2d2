// Pipeline options that cannot work are refused before anything runs, with
// a message naming the option and a non-zero exit (format=bogus used to be
// reported by gpu-module-to-binary with exit 0, an unknown chip to abort in
// LLVM instruction selection, an unknown target feature to be ignored with
// a warning).

// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="format=bogus" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: sdfg-lower-to-cuda: unknown format 'bogus' (expected one of: isa, bin, fatbin, llvm)
// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="format=fatbin" 2>&1 | FileCheck %s --check-prefix=ROCM-FORMAT
// ROCM-FORMAT: error: sdfg-lower-to-rocm: unknown format 'fatbin' (expected one of: isa, bin, llvm)

// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="chip=sm_bogus format=isa" 2>&1 | FileCheck %s --check-prefix=CUDA-CHIP
// CUDA-CHIP: error: sdfg-lower-to-cuda: unknown chip 'sm_bogus' for nvptx64-nvidia-cuda (known: {{.*}}sm_90{{.*}})
// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="chip=gfx9999 format=isa" 2>&1 | FileCheck %s --check-prefix=ROCM-CHIP
// ROCM-CHIP: error: sdfg-lower-to-rocm: unknown chip 'gfx9999' for amdgcn-amd-amdhsa (known: {{.*}}gfx90a{{.*}})
// ROCM-CHIP-NOT: LLVM ERROR

// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="opt-level=4 format=isa" 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: sdfg-lower-to-cuda: opt-level must be 0 to 3, not 4

// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="opt-level=99 format=isa" 2>&1 | FileCheck %s --check-prefix=OPT99
// OPT99: error: sdfg-lower-to-rocm: opt-level must be 0 to 3, not 99
// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="opt-level=-1" 2>&1 | FileCheck %s --check-prefix=OPT-NEGATIVE
// OPT-NEGATIVE: for the --opt-level option: '-1' value invalid for uint argument!

// Option names and values the option parser refuses.
// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="bogus=1" 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: no such option bogus
// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="sync-call=maybe" 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: for the --sync-call option: 'maybe' is invalid value for boolean argument!

// Target features LLVM does not know (LLVM itself only warns and ignores
// them), and features without their sign.
// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="features=+ptx80,+bogus format=isa" 2>&1 | FileCheck %s --check-prefix=FEATURE
// FEATURE: error: sdfg-lower-to-cuda: unknown target feature '+bogus' for nvptx64-nvidia-cuda (expected +name or -name, name one of: {{.*}}ptx80{{.*}})
// FEATURE-NOT: not a recognized feature
// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="features=ptx80 format=isa" 2>&1 | FileCheck %s --check-prefix=UNSIGNED
// UNSIGNED: error: sdfg-lower-to-cuda: unknown target feature 'ptx80'
// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="features=+nosuchfeature format=isa" 2>&1 | FileCheck %s --check-prefix=ROCM-FEATURE
// ROCM-FEATURE: error: sdfg-lower-to-rocm: unknown target feature '+nosuchfeature' for amdgcn-amd-amdhsa (expected +name or -name, name one of: {{.*}}xnack{{.*}})

// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="toolkit=%t.missing" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: error: sdfg-lower-to-rocm: toolkit '{{.*}}.missing' is not a directory
// RUN: mkdir -p %t.empty
// RUN: not sdfg-opt %s --sdfg-lower-to-rocm="toolkit=%t.empty format=isa" 2>&1 | FileCheck %s --check-prefix=NO-BITCODE
// NO-BITCODE: error: sdfg-lower-to-rocm: toolkit '{{.*}}.empty' has no ROCm device libraries (amdgcn/bitcode)
// RUN: not sdfg-opt %s --sdfg-lower-to-cuda="toolkit=%t.empty format=bin" 2>&1 | FileCheck %s --check-prefix=NO-PTXAS
// NO-PTXAS: error: sdfg-lower-to-cuda: format=bin needs ptxas, which toolkit '{{.*}}.empty' lacks

// Valid options pass (PTX needs no toolkit; features and the bare-pointer
// conventions are taken; so are known ROCm features).
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="features=+xnack format=isa" -o /dev/null
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="chip=sm_80 features=+ptx80 format=isa opt-level=0 host-bare-ptr-calling-convention=true kernel-bare-ptr-calling-convention=true" | FileCheck %s --check-prefix=VALID
// VALID: gpu.binary @kernels {{ *}}[#gpu.object<#nvvm.target<O = 0, chip = "sm_80", features = "+ptx80"{{(, link = \[".*libdevice.10.bc"\])?}}>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @launch() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
