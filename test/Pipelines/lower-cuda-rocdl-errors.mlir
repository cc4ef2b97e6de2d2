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
