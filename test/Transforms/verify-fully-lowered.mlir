// RUN: sdfg-opt %s -split-input-file --sdfg-verify-fully-lowered -verify-diagnostics

// Whatever a lowering left behind is an error at the op: in host code
// anything but the LLVM dialect (and the GPU ops the translation handles),
// in kernels anything but LLVM and the kernel's vendor dialect.

llvm.func @host(%f: f32) {
  // expected-error @+1 {{'vector.broadcast' op was not lowered to the LLVM dialect (host code)}}
  %0 = vector.broadcast %f : f32 to vector<4xf32>
  llvm.return
}

// -----

// An unconverted region op is reported once; what it holds is not.
llvm.func @region() {
  // expected-error @+1 {{'async.execute' op was not lowered to the LLVM dialect (host code)}}
  %t = async.execute {
    %c = arith.constant 1 : i32
    async.yield
  }
  llvm.return
}

// -----

// A cast is reported only where nothing else is left.
llvm.func @cast_only(%i: i64) -> i64 {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op was not lowered to the LLVM dialect (host code)}}
  %0 = builtin.unrealized_conversion_cast %i : i64 to index
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op was not lowered}}
  %1 = builtin.unrealized_conversion_cast %0 : index to i64
  llvm.return %1 : i64
}

// -----

llvm.func @cast_and_op(%i: i64) {
  %0 = builtin.unrealized_conversion_cast %i : i64 to index
  // expected-error @+1 {{'index.add' op was not lowered to the LLVM dialect (host code)}}
  %1 = index.add %0, %0
  llvm.return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @rocm [#rocdl.target<chip = "gfx90a">] {
    llvm.func @kernel() attributes {gpu.kernel} {
      // expected-error @+1 {{'nvvm.barrier0' op is an NVVM operation in a kernel compiled for ROCDL; it has no AMD GPU equivalent}}
      nvvm.barrier0
      %0 = rocdl.workitem.id.x : i32
      llvm.return
    }
  }
  gpu.module @cuda [#nvvm.target<chip = "sm_90">] {
    llvm.func @kernel() attributes {gpu.kernel} {
      // expected-error @+1 {{'rocdl.workitem.id.x' op is a ROCDL operation in a kernel compiled for NVVM; it has no NVIDIA GPU equivalent}}
      %0 = rocdl.workitem.id.x : i32
      nvvm.barrier0
      // expected-error @+1 {{'gpu.barrier' op was not lowered to the LLVM, NVVM dialect (kernel code)}}
      gpu.barrier
      llvm.return
    }
  }
  // Lowered host code passes: LLVM ops and the launch the GPU
  // translation handles.
  llvm.func @host(%stream: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func <%stream : !llvm.ptr> @cuda::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}
