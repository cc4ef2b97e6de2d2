// RUN: sdfg-opt %s -split-input-file --sdfg-verify-kernel-targets=vendor=rocm -verify-diagnostics | FileCheck %s

// The ROCm direction of verify-kernel-targets.mlir: ROCDL targets and
// objects stay, NVVM ones are refused.

// CHECK-LABEL: gpu.module @gfx90a [#rocdl.target<chip = "gfx90a">]
module attributes {gpu.container_module} {
  gpu.module @gfx90a [#rocdl.target<chip = "gfx90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op has the target #nvvm.target<chip = "sm_90">, which the ROCm lowering (sdfg-lower-to-rocm) cannot build: it builds #rocdl.target only; lower it with sdfg-lower-to-cuda or leave the target out}}
  gpu.module @both [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx942">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: gpu.binary @rocdl_selected
module attributes {gpu.container_module} {
  gpu.binary @rocdl_selected <#gpu.select_object<#rocdl.target>> [
      #gpu.object<#nvvm.target, "PTX">, #gpu.object<#rocdl.target, "HSACO">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.binary' op embeds an object built for #nvvm.target, which the ROCm runtime cannot load: it loads objects of #rocdl.target only}}
  gpu.binary @nvvm_first [#gpu.object<#nvvm.target, "PTX">,
                          #gpu.object<#rocdl.target, "HSACO">]
}
