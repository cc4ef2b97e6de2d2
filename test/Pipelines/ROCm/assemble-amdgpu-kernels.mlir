// REQUIRES: rocm-toolkit
// RUN: sdfg-opt %s --gpu-module-to-binary="format=isa toolkit=%rocm_toolkit" --sdfg-assemble-amdgpu-kernels="ld-lld=%ld_lld" | FileCheck %s

// AMDGCN assembly becomes an HSA code object (an ELF file), assembled with
// the llvm-mc of MLIR's LLVM (not an older one in PATH).
// CHECK: gpu.binary @rocm {{ *}}[#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "\7FELF
module attributes {gpu.container_module} {
  gpu.module @rocm [#rocdl.target<chip = "gfx90a">] {
    llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
}

