// A ROCDL intrinsic in a kernel compiled for CUDA is a diagnostic at the op
// (the NVPTX backend would stop the process on it), with a non-zero exit;
// the CUDA side of lower-rocm-nvvm-errors.mlir.
// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-cuda="format=isa" -verify-diagnostics -o /dev/null
// RUN: not sdfg-opt %s -split-input-file --sdfg-lower-to-cuda="format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: LLVM ERROR
// CHECK: error: 'rocdl.workitem.id.x' op is a ROCDL operation
// CHECK-NOT: LLVM ERROR
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<32xi32, #gpu.address_space<global>>) kernel {
      // expected-error @+1 {{'rocdl.workitem.id.x' op is a ROCDL operation in a kernel compiled for NVVM; it has no NVIDIA GPU equivalent}}
      %t = rocdl.workitem.id.x : i32
      %i = arith.index_cast %t : i32 to index
      memref.store %t, %out[%i] : memref<32xi32, #gpu.address_space<global>>
      gpu.return
    }
  }
}

// -----

// So is a ROCDL attribute on a kernel written in the LLVM dialect.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'llvm.func' op has the ROCDL attribute 'rocdl.kernel' in a kernel module compiled for NVVM; it means nothing there (and the backend may abort on it)}}
    llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
}

// -----

// An amdgpu op has no CUDA lowering: it is left over, an error at the op.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      // expected-error @+1 {{'amdgpu.lds_barrier' op was not lowered to the LLVM, NVVM dialect (kernel code)}}
      amdgpu.lds_barrier
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
  // expected-error @+1 {{'gpu.module' op has the target #rocdl.target<chip = "gfx90a">, which the CUDA lowering (sdfg-lower-to-cuda) cannot build}}
  gpu.module @targeted [#rocdl.target<chip = "gfx90a">] {
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
