// Integration program, class 6: gpu.alloc host_shared (managed memory),
// written and read by the host and by kernels in turn: each host access
// must wait for the kernel before it (the write as well as the read), and
// the dealloc too.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  gpu.module @kernels {
    // data[i] = data[i] * data[i] + 1
    gpu.func @square_plus_one(%data: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<8xf32>
      %s = arith.mulf %v, %v : f32
      %one = arith.constant 1.0 : f32
      %r = arith.addf %s, %one : f32
      memref.store %r, %data[%i] : memref<8xf32>
      gpu.return
    }
  }

  func.func @host_shared() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %data = gpu.alloc host_shared () : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %data[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@square_plus_one blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%data : memref<8xf32>)
    %u = memref.cast %data : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // The host halves the first half, the kernel runs again.
    %c4 = arith.constant 4 : index
    %half = arith.constant 0.5 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %data[%i] : memref<8xf32>
      %h = arith.mulf %v, %half : f32
      memref.store %h, %data[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@square_plus_one blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%data : memref<8xf32>)
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %data : memref<8xf32>
    return
  }
}
