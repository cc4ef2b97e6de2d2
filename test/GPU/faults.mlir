// Programs of the fault tests (FaultTests.cu, issue 12): a call that fails
// on the H200 returns its status at once, gives back what it took, and
// leaves the process usable where CUDA allows it.

#global = #gpu.address_space<global>
module attributes {gpu.container_module} {
  gpu.module @fault_kernels {
    // x[i] = value for i < n
    gpu.func @fill(%x: memref<?xf32, #global>, %value: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        memref.store %value, %x[%i] : memref<?xf32, #global>
      }
      gpu.return
    }
  }

  // out = value in `small` GPU elements, through a transient; a second
  // transient of `extra` elements is taken first (too large for the device
  // in the tests), after = 7 at the end.
  func.func @two_transients(%out: memref<?xf32>, %small: index, %extra: index,
                            %value: f32, %after: memref<i32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %seven = arith.constant 7 : i32
    %a = gpu.alloc (%small) : memref<?xf32, #global>
    %blocks = arith.ceildivui %small, %c256 : index
    gpu.launch_func @fault_kernels::@fill blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32, #global>, %value : f32, %small : index)
    %b = gpu.alloc (%extra) : memref<?xf32, #global>
    gpu.memcpy %out, %a : memref<?xf32>, memref<?xf32, #global>
    memref.store %seven, %after[] : memref<i32>
    gpu.dealloc %b : memref<?xf32, #global>
    gpu.dealloc %a : memref<?xf32, #global>
    return
  }

  // Fills `target` (n elements, given by the caller: in the fault test an
  // address that is no GPU memory), copies one element of a transient back
  // and reads it on the host; after = 7 once the read is done.
  func.func @fill_then_read(%target: memref<?xf32, #global>, %n: index,
                            %out: memref<1xf32>, %after: memref<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %seven = arith.constant 7 : i32
    %value = arith.constant 2.0 : f32
    %t = gpu.alloc (%c1) : memref<?xf32, #global>
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @fault_kernels::@fill blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%target : memref<?xf32, #global>, %value : f32, %n : index)
    gpu.launch_func @fault_kernels::@fill blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%t : memref<?xf32, #global>, %value : f32, %c1 : index)
    %first = memref.subview %t[0] [1] [1]
        : memref<?xf32, #global> to memref<1xf32, strided<[1]>, #global>
    gpu.memcpy %out, %first
        : memref<1xf32>, memref<1xf32, strided<[1]>, #global>
    %v = memref.load %out[%c0] : memref<1xf32>
    %twice = arith.addf %v, %v : f32
    memref.store %twice, %out[%c0] : memref<1xf32>
    memref.store %seven, %after[] : memref<i32>
    gpu.dealloc %t : memref<?xf32, #global>
    return
  }
}
