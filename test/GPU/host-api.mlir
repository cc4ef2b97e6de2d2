// The program of the host API GPU test (StreamTests.cu, TEST(HostApi,
// RebindingKeepsTheCallsInOrder)), compiled by sdfg-compile into a program
// library that the test loads with sdfgstream::Library:
//   x[i] += 1, in place, on the caller's stream.

module attributes {gpu.container_module} {
  gpu.module @host_api_kernels {
    gpu.func @increment(%x: memref<?xf32, #gpu.address_space<global>>,
                        %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %one = arith.constant 1.0 : f32
        %v = memref.load %x[%i] : memref<?xf32, #gpu.address_space<global>>
        %r = arith.addf %v, %one : f32
        memref.store %r, %x[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }

  sdfg.sdfg @add_one(%x: memref<?xf32, #gpu.address_space<global>>,
                     %n: index) target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @host_api_kernels::@increment
        blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32, #gpu.address_space<global>>, %n : index)
    sdfg.return
  }
}
