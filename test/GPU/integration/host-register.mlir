// Integration program, class 1: host memory registered with
// gpu.host_register (ranked memrefs cast to memref<*xT>), written by kernels
// through the host pointers and printed with printMemref* in both of the ABI
// forms upstream's tests use (plain and llvm.emit_c_interface). The two
// buffers are small, so they may share a page, as in upstream's tests.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

  gpu.module @kernels {
    // data[row, col] *= factor, one block per row.
    gpu.func @scale(%data: memref<?x?xf32>, %factor: f32) kernel {
      %row = gpu.block_id x
      %col = gpu.thread_id x
      %v = memref.load %data[%row, %col] : memref<?x?xf32>
      %s = arith.mulf %v, %factor : f32
      memref.store %s, %data[%row, %col] : memref<?x?xf32>
      gpu.return
    }
    // squares[i] = i * i - shift
    gpu.func @squares(%squares: memref<6xi32>, %shift: i32) kernel {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      %sq = arith.muli %v, %v : i32
      %r = arith.subi %sq, %shift : i32
      memref.store %r, %squares[%i] : memref<6xi32>
      gpu.return
    }
  }

  func.func @host_register() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %data = memref.alloc(%c3, %c4) : memref<?x?xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %k = arith.muli %i, %c4 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        memref.store %f, %data[%i, %j] : memref<?x?xf32>
      }
    }
    %squares = memref.alloc() : memref<6xi32>
    %minus = arith.constant -1 : i32
    scf.for %i = %c0 to %c6 step %c1 {
      memref.store %minus, %squares[%i] : memref<6xi32>
    }
    %udata = memref.cast %data : memref<?x?xf32> to memref<*xf32>
    %usquares = memref.cast %squares : memref<6xi32> to memref<*xi32>
    gpu.host_register %udata : memref<*xf32>
    gpu.host_register %usquares : memref<*xi32>

    %half = arith.constant 0.5 : f32
    gpu.launch_func @kernels::@scale blocks in (%c3, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%data : memref<?x?xf32>, %half : f32)
    %shift = arith.constant 2 : i32
    gpu.launch_func @kernels::@squares blocks in (%c1, %c1, %c1)
        threads in (%c6, %c1, %c1) args(%squares : memref<6xi32>, %shift : i32)
    call @printMemrefF32(%udata) : (memref<*xf32>) -> ()
    call @printMemrefI32(%usquares) : (memref<*xi32>) -> ()

    // Again on the printed buffer: the host's next read waits for this
    // launch as well.
    %quarter = arith.constant 4.0 : f32
    gpu.launch_func @kernels::@scale blocks in (%c3, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%data : memref<?x?xf32>, %quarter : f32)
    call @printMemrefF32(%udata) : (memref<*xf32>) -> ()

    gpu.host_unregister %udata : memref<*xf32>
    gpu.host_unregister %usquares : memref<*xi32>
    memref.dealloc %data : memref<?x?xf32>
    memref.dealloc %squares : memref<6xi32>
    return
  }
}
