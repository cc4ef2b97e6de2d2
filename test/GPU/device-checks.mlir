// A program compiled with `sdfg-compile --check-devices` for the GPU tests
// (StreamTests.cu, TEST(DeviceChecks, ...)): x[i] += 1 on the caller's
// stream, with the device of `x` checked against the stream's first.

module attributes {gpu.container_module} {
  gpu.module @device_check_kernels {
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

  sdfg.sdfg @checked_add_one(%x: memref<?xf32, #gpu.address_space<global>>,
                     %n: index) target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @device_check_kernels::@increment
        blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32, #gpu.address_space<global>>, %n : index)
    sdfg.return
  }
}
