// A kernel writes managed memory; the host reads it right after.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%x: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
  sdfg.sdfg @host_read(%x: memref<4xf32>, %out: memref<f32>) target(gpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    %v = memref.load %x[%c0] : memref<4xf32>
    memref.store %v, %out[] : memref<f32>
    sdfg.return
  }
}
