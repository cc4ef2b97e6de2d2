// REQUIRES: rocm-toolkit
// sdfg-lower-to-rocm with default options on a machine with Debian's
// rocm-device-libs and lld-22 and no /opt/rocm: the device libraries are
// found in /usr/lib/<arch>-linux-gnu and the hsaco (format=bin, the
// default) is made by sdfg-assemble-amdgpu-kernels with LLVM's own llvm-mc and
// ld.lld, since gpu-module-to-binary looks for ld.lld only in
// <toolkit>/llvm/bin. Nothing is made by hand.

// RUN: env -u ROCM_PATH -u ROCM_ROOT -u ROCM_HOME sdfg-opt %s --sdfg-lower-to-rocm | FileCheck %s
// RUN: env -u ROCM_PATH -u ROCM_ROOT -u ROCM_HOME sdfg-opt %s --sdfg-lower-to-rocm="toolkit=%rocm_toolkit format=bin" | FileCheck %s
// CHECK: gpu.binary @kernels {{ *}}[#gpu.object<#rocdl.target<O = 3, chip = "gfx90a">, bin = "\7FELF

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

