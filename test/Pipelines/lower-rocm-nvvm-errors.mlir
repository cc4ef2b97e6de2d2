// REQUIRES: rocm-toolkit
// An NVVM intrinsic in a kernel compiled for ROCm is a diagnostic at the op
// (the ROCDL backend would crash on it), with a non-zero exit.
// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-rocm -verify-diagnostics -o /dev/null
// RUN: not sdfg-opt %s -split-input-file --sdfg-lower-to-rocm -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: LLVM ERROR
// CHECK: error: 'nvvm.read.ptx.sreg.tid.x' op is an NVVM operation
// CHECK-NOT: LLVM ERROR
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<32xi32, #gpu.address_space<global>>) kernel {
      // expected-error @+1 {{'nvvm.read.ptx.sreg.tid.x' op is an NVVM operation in a kernel compiled for ROCDL; it has no AMD GPU equivalent}}
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %i = arith.index_cast %t : i32 to index
      memref.store %t, %out[%i] : memref<32xi32, #gpu.address_space<global>>
      gpu.return
    }
  }
}

// -----

// So is an NVVM attribute on a kernel written in the LLVM dialect: with
// `nvvm.kernel` the AMDGPU backend aborted ("unsupported calling
// convention"; found by the fuzzer in test/Conversion/SDFGToLLVM/linkage.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'llvm.func' op has the NVVM attribute 'nvvm.kernel' in a kernel module compiled for ROCDL; it means nothing there (and the backend may abort on it)}}
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// nvgpu ops have no ROCm lowering: they are left over, errors at the op.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      // expected-error @+1 {{'nvgpu.device_async_create_group' op was not lowered to the LLVM, ROCDL dialect (kernel code)}}
      %group = nvgpu.device_async_create_group
      // expected-error @+1 {{'nvgpu.device_async_wait' op was not lowered to the LLVM, ROCDL dialect (kernel code)}}
      nvgpu.device_async_wait %group
      gpu.return
    }
  }
}

// -----

// A kernel module the producer targeted at the other vendor itself (as
// its attach-target pass does) is refused before anything is lowered:
// serialized for that target from IR lowered for this one, it made the
// backend abort the process.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op has the target #nvvm.target<chip = "sm_80">, which the ROCm lowering (sdfg-lower-to-rocm) cannot build}}
  gpu.module @targeted [#nvvm.target<chip = "sm_80">] {
    gpu.func @fill(%out: memref<16xf32, 1>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%t] : memref<16xf32, 1>
      gpu.return
    }
  }
  func.func @fill(%out: memref<16xf32, 1>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @targeted::@fill blocks in (%c1, %c1, %c1)
        threads in (%c16, %c1, %c1) args(%out : memref<16xf32, 1>)
    return
  }
}
