// Programs shaped like upstream MLIR's GPU integration tests, through both
// lowerings: uniform and non-uniform gpu.all_reduce, gpu.shuffle,
// gpu.printf and cf.assert in a kernel, vector code on the host. Each
// lowers completely (mlir-translate accepts the output) and the kernels use
// the vendor's instructions for them.

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" > %t.cuda.mlir
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.cuda.mlir | FileCheck %s --check-prefix=HOST
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa" > %t.rocm.mlir
// RUN: FileCheck %s --check-prefix=ROCM < %t.rocm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.rocm.mlir | FileCheck %s --check-prefix=HOST

// Butterfly shuffles (the shuffle and both reductions), a barrier between
// the warps' partial results, printf through the vendor's runtime.
// CUDA-DAG: shfl.sync.bfly.b32
// CUDA-DAG: bar.sync
// CUDA-DAG: vprintf
// ROCM-DAG: ds_bpermute_b32
// ROCM-DAG: __ockl_hostcall_internal
// cf.assert in a kernel: __assertfail (CUDA); the message printed through
// the hostcall buffer, then a trap (ROCm: convert-kernel-asserts-to-traps;
// upstream's lowering gave IR that does not verify).
// CUDA-DAG: __assertfail
// ROCM-DAG: s_trap 2

// The host: the launch on the program's stream, the vector code as LLVM
// vector operations.
// HOST-LABEL: define dso_local i32 @reductions(
// HOST-SAME: ptr %[[S:[0-9]+]])
// HOST: call void @mgpuLaunchKernel({{.*}}, ptr %[[S]],
// HOST-LABEL: define dso_local float @host_vector(
// HOST: load <8 x float>
// HOST: call float @llvm.vector.reduce.fadd.v8f32(
module attributes {gpu.container_module} {
  func.func @reductions(%data: memref<64xf32, #gpu.address_space<global>>, %out: memref<2xf32, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c64, %v = %c1, %w = %c1) {
      %val = memref.load %data[%tx] : memref<64xf32, #gpu.address_space<global>>
      %sum = gpu.all_reduce add %val uniform {} : (f32) -> f32
      %c32 = arith.constant 32 : index
      %low = arith.cmpi ult, %tx, %c32 : index
      %max = gpu.all_reduce %val {
      ^bb(%lhs : f32, %rhs : f32):
        %m = arith.maximumf %lhs, %rhs : f32
        gpu.yield %m : f32
      } : (f32) -> (f32)
      %width = arith.constant 32 : i32
      %offset = arith.constant 1 : i32
      %shuffled, %valid = gpu.shuffle xor %val, %offset, %width : f32
      gpu.printf "thread %lld: %f\n", %tx, %shuffled : index, f32
      %c0 = arith.constant 0 : index
      memref.store %sum, %out[%c0] : memref<2xf32, #gpu.address_space<global>>
      memref.store %max, %out[%c1] : memref<2xf32, #gpu.address_space<global>>
      gpu.terminator
    }
    return
  }

  func.func @checked(%data: memref<32xf32, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
      %v0 = memref.load %data[%tx] : memref<32xf32, #gpu.address_space<global>>
      %zero = arith.constant 0.0 : f32
      %ok = arith.cmpf oge, %v0, %zero : f32
      cf.assert %ok, "negative input"
      gpu.terminator
    }
    return
  }

  // Vector code on the host, as upstream's tests print results.
  func.func @host_vector(%A: memref<8xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %A[%c0], %pad : memref<8xf32>, vector<8xf32>
    %r = vector.reduction <add>, %v : vector<8xf32> into f32
    return %r : f32
  }
}
