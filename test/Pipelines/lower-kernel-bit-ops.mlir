// Integer bit ops of the math dialect in kernels (count leading and
// trailing zeros, population count, absolute value), as generated code uses
// them for bit tricks and hashing: both lowerings turn them into the
// LLVM intrinsics, which each backend selects to its instructions. CUDA's
// kernel lowering (gpu-to-nvvm) leaves them to math-to-llvm; they were
// refused ("'math.ctlz' op was not lowered to the LLVM, NVVM dialect").

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | FileCheck %s --check-prefix=PTX
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit" | FileCheck %s --check-prefix=GCN

// PTX: gpu.binary @bits_kernel
// PTX-SAME: clz.b32
// PTX-SAME: popc.b32
// PTX-SAME: popc.b64
// GCN: gpu.binary @bits_kernel
// GCN-SAME: v_ffbh_u32
// GCN-SAME: v_bcnt_u32_b32
module attributes {gpu.container_module} {
  func.func @bits(%words: memref<64xi32, #gpu.address_space<global>>,
                  %longs: memref<64xi64, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c64, %v = %c1, %w = %c1) {
      %word = memref.load %words[%tx] : memref<64xi32, #gpu.address_space<global>>
      %leading = math.ctlz %word : i32
      %trailing = math.cttz %leading : i32
      %ones = math.ctpop %trailing : i32
      %abs = math.absi %ones : i32
      memref.store %abs, %words[%tx] : memref<64xi32, #gpu.address_space<global>>
      %long = memref.load %longs[%tx] : memref<64xi64, #gpu.address_space<global>>
      %longOnes = math.ctpop %long : i64
      memref.store %longOnes, %longs[%tx] : memref<64xi64, #gpu.address_space<global>>
      gpu.terminator
    }
    return
  }
}
