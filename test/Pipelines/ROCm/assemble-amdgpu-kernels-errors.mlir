// REQUIRES: rocm-toolkit
// RUN: sdfg-opt %s --gpu-module-to-binary="format=isa toolkit=%rocm_toolkit" --sdfg-assemble-amdgpu-kernels="ld-lld=%t.missing/ld.lld" -verify-diagnostics -o /dev/null

// A tool that cannot be found is an error at the binary.
module attributes {gpu.container_module} {
  // expected-error @+1 {{kernels of 'missing_tool' need}}
  gpu.module @missing_tool [#rocdl.target<chip = "gfx90a">] {
    llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
}
