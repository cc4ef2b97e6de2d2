// The benchmark program: one H2D copy, a chain of 8 elementwise kernels
// ping-ponging between two device buffers, one D2H copy.
//   out[i] = in[i] + 8
// The same program serves both benchmarks: n = 4096 floats (launch-bound)
// and n = 16 Mi floats = 64 MiB per array (bandwidth-bound). Device buffers
// are arguments (memory space 1 = GPU global memory), so no call allocates.
//
// It is a plain func.func with gpu ops in sync form, so that the same input
// is lowered by SDFGStream (sdfg-compile) and by upstream MLIR 22 alone
// (mlir-opt; see bench/CMakeLists.txt).

module attributes {gpu.container_module} {
  gpu.module @chain_kernels {
    // y[i] = a * x[i] + b
    gpu.func @axpb(%x: memref<?xf32, 1>, %y: memref<?xf32, 1>, %a: f32,
                   %b: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : memref<?xf32, 1>
        %m = arith.mulf %a, %v : f32
        %r = arith.addf %m, %b : f32
        memref.store %r, %y[%i] : memref<?xf32, 1>
      }
      gpu.return
    }
  }

  func.func @chain(%in: memref<?xf32>, %out: memref<?xf32>,
                   %d0: memref<?xf32, 1>, %d1: memref<?xf32, 1>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.memcpy %d0, %in : memref<?xf32, 1>, memref<?xf32>
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d0 : memref<?xf32, 1>, %d1 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d1 : memref<?xf32, 1>, %d0 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d0 : memref<?xf32, 1>, %d1 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d1 : memref<?xf32, 1>, %d0 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d0 : memref<?xf32, 1>, %d1 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d1 : memref<?xf32, 1>, %d0 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d0 : memref<?xf32, 1>, %d1 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.launch_func @chain_kernels::@axpb blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d1 : memref<?xf32, 1>, %d0 : memref<?xf32, 1>, %one : f32, %one : f32, %n : index)
    gpu.memcpy %out, %d0 : memref<?xf32>, memref<?xf32, 1>
    return
  }
}
