// Integration program, class 5: the form gpu-async-region gives (and
// upstream's tests write): gpu.wait async starts a chain, every op takes
// the tokens it depends on, gpu.wait [...] ends it. Two chains, joined by a
// launch that depends on both; the result copied back, waited for and
// printed.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  gpu.module @kernels {
    // data[i] = data[i] * 2 + i
    gpu.func @twice_plus_index(%data: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<16xf32>
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %v, %two : f32
      %r = arith.addf %d, %f : f32
      memref.store %r, %data[%i] : memref<16xf32>
      gpu.return
    }
    // data[i] -= other[i]
    gpu.func @subtract(%data: memref<16xf32>, %other: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<16xf32>
      %w = memref.load %other[%i] : memref<16xf32>
      %r = arith.subf %v, %w : f32
      memref.store %r, %data[%i] : memref<16xf32>
      gpu.return
    }
  }

  func.func @async_region() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %host = memref.alloc() : memref<16xf32>
    %ten = arith.constant 10.0 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %ten, %host[%i] : memref<16xf32>
    }
    %t0 = gpu.wait async
    %data, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %t2 = gpu.memcpy async [%t1] %data, %host : memref<16xf32>, memref<16xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@twice_plus_index
        blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%data : memref<16xf32>)
    %u0 = gpu.wait async
    %other, %u1 = gpu.alloc async [%u0] () : memref<16xf32>
    %three = arith.constant 3.0 : f32
    %u2 = gpu.memset async [%u1] %other, %three : memref<16xf32>, f32
    %t4 = gpu.launch_func async [%t3, %u2] @kernels::@subtract
        blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%data : memref<16xf32>, %other : memref<16xf32>)
    %t5 = gpu.memcpy async [%t4] %host, %data : memref<16xf32>, memref<16xf32>
    %t6 = gpu.dealloc async [%t5] %data : memref<16xf32>
    %t7 = gpu.dealloc async [%t4] %other : memref<16xf32>
    gpu.wait [%t6, %t7]
    %u = memref.cast %host : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<16xf32>
    return
  }
}
