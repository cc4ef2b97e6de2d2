// Programs of the fail-fast tests (FailFastTest.cpp), written as upstream
// MLIR writes GPU code (func.func, synchronous gpu ops, scf loops) and as an
// SDFG code generator does (sdfg.sdfg, nested programs, a library node).
// sdfg-compile builds them twice: as is, and with
// --test-omit-failure-exits, the negative control in which a failed call
// runs its host code to the end. The tests run them on the fake driver, whose
// kernels do nothing: a flag that a kernel would set stays unset.

#global = #gpu.address_space<global>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // x[0] = value
    gpu.func @set(%x: memref<1xi32, #global>, %value: i32) kernel {
      %c0 = arith.constant 0 : index
      memref.store %value, %x[%c0] : memref<1xi32, #global>
      gpu.return
    }
    // x[i] = 1 for every thread i
    gpu.func @ones(%x: memref<?xf32, #global>) kernel {
      %i = gpu.global_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %x[%i] : memref<?xf32, #global>
      gpu.return
    }
  }

  // Waits on the host for a flag that a kernel sets in GPU memory: copies it
  // back until it is set, at most `limit` times, then stores the number of
  // copies in `copies`.
  func.func @wait_for_flag(%copies: memref<i64>, %limit: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %none = arith.constant 0 : i64
    %step = arith.constant 1 : i64
    %flag = gpu.alloc () : memref<1xi32, #global>
    gpu.memset %flag, %zero : memref<1xi32, #global>, i32
    gpu.launch_func @kernels::@set blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%flag : memref<1xi32, #global>, %one : i32)
    %host = memref.alloc() : memref<1xi32>
    %n = scf.while (%made = %none) : (i64) -> i64 {
      %below = arith.cmpi slt, %made, %limit : i64
      scf.condition(%below) %made : i64
    } do {
    ^bb0(%made: i64):
      gpu.memcpy %host, %flag : memref<1xi32>, memref<1xi32, #global>
      %f = memref.load %host[%c0] : memref<1xi32>
      %set = arith.cmpi ne, %f, %zero : i32
      %next = arith.addi %made, %step : i64
      %stop = arith.select %set, %limit, %next : i64
      scf.yield %stop : i64
    }
    memref.store %n, %copies[] : memref<i64>
    memref.dealloc %host : memref<1xi32>
    gpu.dealloc %flag : memref<1xi32, #global>
    return
  }

  // Transients on the GPU and on the host around a kernel and a copy back;
  // `done` = 1 at the end.
  func.func @transients(%n: index, %done: memref<i32>) {
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %device = gpu.alloc (%n) : memref<?xf32, #global>
    %host = memref.alloc(%n) : memref<?xf32>
    gpu.launch_func @kernels::@ones blocks in (%n, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%device : memref<?xf32, #global>)
    gpu.memcpy %host, %device : memref<?xf32>, memref<?xf32, #global>
    memref.store %one, %done[] : memref<i32>
    memref.dealloc %host : memref<?xf32>
    gpu.dealloc %device : memref<?xf32, #global>
    return
  }

  // The same written as upstream's tests write programs: a function that
  // returns the value it read back (it keeps its signature; its calls are
  // bracketed all the same, and a failed one returns poison).
  func.func @transients_value(%n: index, %done: memref<i32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %device = gpu.alloc (%n) : memref<?xf32, #global>
    %host = memref.alloc(%n) : memref<?xf32>
    gpu.launch_func @kernels::@ones blocks in (%n, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%device : memref<?xf32, #global>)
    gpu.memcpy %host, %device : memref<?xf32>, memref<?xf32, #global>
    %value = memref.load %host[%c0] : memref<?xf32>
    memref.store %one, %done[] : memref<i32>
    memref.dealloc %host : memref<?xf32>
    gpu.dealloc %device : memref<?xf32, #global>
    return %value : f32
  }

  // A nested function with GPU work; its caller marks `after` = 7 once the
  // call returned.
  func.func private @nested_launch(%x: memref<1xi32, #global>) {
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    gpu.launch_func @kernels::@set blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%x : memref<1xi32, #global>, %one : i32)
    return
  }
  func.func @calls_nested(%after: memref<i32>) {
    %seven = arith.constant 7 : i32
    %x = gpu.alloc () : memref<1xi32, #global>
    call @nested_launch(%x) : (memref<1xi32, #global>) -> ()
    memref.store %seven, %after[] : memref<i32>
    gpu.dealloc %x : memref<1xi32, #global>
    return
  }

  // The same through an SDFG: a nested program whose library node (a
  // reduction, expanded into a program of its own) fails; `after` = 7 after
  // the nested call.
  sdfg.sdfg private @reduce_into(%x: memref<?xf32, #global>,
                                 %sum: memref<f32, #global>) target(gpu) {
    sdfg.reduce add %x into %sum : memref<?xf32, #global> -> memref<f32, #global>
    sdfg.return
  }
  sdfg.sdfg @sdfg_nested(%x: memref<?xf32, #global>, %sum: memref<f32, #global>,
                         %after: memref<i32>) target(gpu) {
    %seven = arith.constant 7 : i32
    sdfg.call @reduce_into(%x, %sum)
        : (memref<?xf32, #global>, memref<f32, #global>) -> ()
    memref.store %seven, %after[] : memref<i32>
    sdfg.return
  }
}
