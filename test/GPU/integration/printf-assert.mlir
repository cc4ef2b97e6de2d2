// Integration program, class 8: gpu.printf and cf.assert in kernels.
// @printf_assert: asserts that hold, printf of index, integer and float
// arguments from two blocks. @assert_fails: an assert that fails for one
// thread; the call returns the failure (the device assert is sticky: the
// call's sync reports it) instead of aborting.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  gpu.module @kernels {
    gpu.func @hello(%data: memref<8xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %c4 = arith.constant 4 : index
      %inside = arith.cmpi ult, %t, %c4 : index
      cf.assert %inside, "thread id below 4"
      %bn = arith.muli %b, %n : index
      %i = arith.addi %bn, %t : index
      %v = memref.load %data[%i] : memref<8xf32>
      %zero = arith.constant 0.0 : f32
      %positive = arith.cmpf ogt, %v, %zero : f32
      cf.assert %positive, "positive input"
      %ti = arith.index_cast %t : index to i32
      %small = arith.trunci %ti : i32 to i8
      gpu.printf "block %lld thread %d (%d): %f\n", %b, %ti, %small, %v : index, i32, i8, f32
      gpu.return
    }
  }

  func.func @printf_assert() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %q = arith.constant 0.25 : f32
      %g = arith.addf %f, %q : f32
      memref.store %g, %host[%i] : memref<8xf32>
    }
    %data = gpu.alloc () : memref<8xf32>
    gpu.memcpy %data, %host : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@hello blocks in (%c2, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%data : memref<8xf32>)
    gpu.dealloc %data : memref<8xf32>
    memref.dealloc %host : memref<8xf32>
    return
  }

  // The same kernel on an input whose element 6 is negative: thread 2 of
  // block 1 fails "positive input". The copy back makes the call wait, so
  // the call itself sees the failure.
  func.func @assert_fails() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc() : memref<8xf32>
    %one = arith.constant 1.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %one, %host[%i] : memref<8xf32>
    }
    %minus = arith.constant -1.0 : f32
    memref.store %minus, %host[%c6] : memref<8xf32>
    %data = gpu.alloc () : memref<8xf32>
    gpu.memcpy %data, %host : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@hello blocks in (%c2, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%data : memref<8xf32>)
    gpu.memcpy %host, %data : memref<8xf32>, memref<8xf32>
    gpu.dealloc %data : memref<8xf32>
    %u = memref.cast %host : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<8xf32>
    return
  }
}
