// The default binary formats: a CUDA fatbin (needs ptxas) and a ROCm hsaco
// (needs ROCm device bitcode and ld.lld, here from Debian's rocm-device-libs
// and lld-22, arranged as the toolkit layout the ROCm target expects).
// REQUIRES: ptxas, rocm-toolkit

// RUN: sdfg-opt %s --sdfg-lower-to-cuda | FileCheck %s --check-prefix=CUDA
// RUN: rm -rf %t && mkdir -p %t/amdgcn %t/llvm/bin
// RUN: ln -s %rocm_bitcode %t/amdgcn/bitcode && ln -s %ld_lld %t/llvm/bin/ld.lld
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="toolkit=%t" | FileCheck %s --check-prefix=ROCM

// CUDA: gpu.binary @kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90"{{(, link = \[".*libdevice.10.bc"\])?}}>, properties = {{.*}}, "
// CUDA: llvm.func @scale(
// CUDA: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@scale
// ROCM: gpu.binary @kernels  [#gpu.object<#rocdl.target<O = 3, chip = "gfx90a">, {{.*}}bin = "
// ROCM: llvm.func @scale(
// ROCM: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@scale

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<64xf32, #gpu.address_space<global>>, %a: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32, #gpu.address_space<global>>
      %s = arith.mulf %v, %a : f32
      memref.store %s, %x[%i] : memref<64xf32, #gpu.address_space<global>>
      gpu.return
    }
  }
  sdfg.sdfg @scale(%x: memref<64xf32, #gpu.address_space<global>>, %a: f32) target(gpu) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<64xf32, #gpu.address_space<global>>, %a : f32)
    sdfg.return
  }
}
