// RUN: sdfg-opt %s -split-input-file --sdfg-verify-kernel-targets=vendor=cuda -verify-diagnostics | FileCheck %s --check-prefix=CUDA
// RUN: not sdfg-opt %s --sdfg-verify-kernel-targets=vendor=opencl -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// Kernel modules a producer targeted itself, and kernels it brought
// compiled: a lowering keeps its own vendor's and refuses the other's, at
// the op, naming the target. The CUDA direction; the ROCm one is
// verify-kernel-targets-rocm.mlir.

// OPTION: error: sdfg-verify-kernel-targets: vendor must be cuda or rocm, not 'opencl'

// The vendor's own target stays as the producer wrote it.
// CUDA-LABEL: gpu.module @sm80 [#nvvm.target<O = 3, chip = "sm_80">]
module attributes {gpu.container_module} {
  gpu.module @sm80 [#nvvm.target<chip = "sm_80", O = 3>] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op has the target #rocdl.target<chip = "gfx90a">, which the CUDA lowering (sdfg-lower-to-cuda) cannot build: it builds #nvvm.target only; lower it with sdfg-lower-to-rocm or leave the target out}}
  gpu.module @gfx90a [#rocdl.target<chip = "gfx90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Both vendors' targets on one module: the other's is refused (each
// pipeline builds one vendor's kernels).
module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op has the target #rocdl.target<chip = "gfx942">, which the CUDA lowering}}
  gpu.module @both [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx942">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// A target of neither vendor: nothing to suggest but leaving it out.
module attributes {gpu.container_module} {
  // expected-error @+1 {{cannot build: it builds #nvvm.target only; leave the target out}}
  gpu.module @spirv [#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Compiled kernels: the object the binary embeds (the first by default)
// must be the vendor's.
// CUDA-LABEL: gpu.binary @nvvm_first
module attributes {gpu.container_module} {
  gpu.binary @nvvm_first [#gpu.object<#nvvm.target, "PTX">,
                          #gpu.object<#rocdl.target, "HSACO">]
}

// -----

// ... or the one #gpu.select_object names, by index or by target.
// CUDA-LABEL: gpu.binary @by_index
// CUDA-LABEL: gpu.binary @by_target
module attributes {gpu.container_module} {
  gpu.binary @by_index <#gpu.select_object<1>> [
      #gpu.object<#rocdl.target, "HSACO">, #gpu.object<#nvvm.target, "PTX">]
  gpu.binary @by_target <#gpu.select_object<#nvvm.target>> [
      #gpu.object<#rocdl.target, "HSACO">, #gpu.object<#nvvm.target, "PTX">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.binary' op embeds an object built for #rocdl.target, which the CUDA runtime cannot load: it loads objects of #nvvm.target only}}
  gpu.binary @rocdl_selected <#gpu.select_object<#rocdl.target>> [
      #gpu.object<#rocdl.target, "HSACO">, #gpu.object<#nvvm.target, "PTX">]
}
