// Programs of the host-sync hazard tests (HazardTests.cu, issue 10): each
// one has a host access that is right only if the host waits for GPU work
// still queued on the caller's stream. scripts build it twice: as is, and
// with the waits withheld (sdfg-compile --test-omit-host-syncs, or
// --test-omit-stream-waits for @joined) as the negative control that must
// go wrong in the same run.

#global = #gpu.address_space<global>
module attributes {gpu.container_module} {
  gpu.module @hazard_kernels {
    // x[i] = value (x in GPU memory)
    gpu.func @fill(%x: memref<?xf32, #global>, %value: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        memref.store %value, %x[%i] : memref<?xf32, #global>
      }
      gpu.return
    }
    // x[i] = value (x in host memory the GPU can address: pinned, mapped)
    gpu.func @fill_host(%x: memref<?xf32>, %value: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        memref.store %value, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
    // *counter += 1
    gpu.func @increment(%counter: memref<i32, #global>) kernel {
      %one = arith.constant 1 : i32
      %v = memref.load %counter[] : memref<i32, #global>
      %w = arith.addi %v, %one : i32
      memref.store %w, %counter[] : memref<i32, #global>
      gpu.return
    }
  }

  // Class 1 (aliases): the copied-back result is read through a reinterpret
  // cast, an arith.select, an scf.if result and a round trip through an
  // unranked memref.  out = h[n - 1] (= value).
  sdfg.sdfg @alias_read(%d: memref<?xf32, #global>, %h: memref<?xf32>,
                        %spare: memref<?xf32>, %out: memref<f32>, %n: index,
                        %value: f32, %pick: i1) target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @hazard_kernels::@fill blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d : memref<?xf32, #global>, %value : f32, %n : index)
    gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32, #global>
    %r = memref.reinterpret_cast %h to offset: [0], sizes: [%n], strides: [1]
        : memref<?xf32> to memref<?xf32>
    %s = arith.select %pick, %r, %spare : memref<?xf32>
    %v = scf.if %pick -> memref<?xf32> {
      scf.yield %s : memref<?xf32>
    } else {
      scf.yield %spare : memref<?xf32>
    }
    %u = memref.cast %v : memref<?xf32> to memref<*xf32>
    %back = memref.cast %u : memref<*xf32> to memref<?xf32>
    %last = arith.subi %n, %c1 : index
    %x = memref.load %back[%last] : memref<?xf32>
    memref.store %x, %out[] : memref<f32>
    sdfg.return
  }

  // Class 2 (unranked memrefs): a host function that takes the result as
  // memref<*xf32>, the way printMemrefF32 does.  out = h[n - 1].
  func.func private @last_element(%u: memref<*xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.cast %u : memref<*xf32> to memref<?xf32>
    %n = memref.dim %r, %c0 : memref<?xf32>
    %last = arith.subi %n, %c1 : index
    %x = memref.load %r[%last] : memref<?xf32>
    return %x : f32
  }
  sdfg.sdfg @unranked_read(%d: memref<?xf32, #global>, %h: memref<?xf32>,
                           %out: memref<f32>, %n: index, %value: f32) target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @hazard_kernels::@fill blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%d : memref<?xf32, #global>, %value : f32, %n : index)
    gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32, #global>
    %u = memref.cast %h : memref<?xf32> to memref<*xf32>
    %x = func.call @last_element(%u) : (memref<*xf32>) -> f32
    memref.store %x, %out[] : memref<f32>
    sdfg.return
  }

  // Class 3 (write after read): the host overwrites the source of the
  // upload while the upload may still be queued.  back = old h (= value),
  // h = overwrite afterwards.
  sdfg.sdfg @write_after_read(%h: memref<?xf32>, %d: memref<?xf32, #global>,
                              %back: memref<?xf32>, %n: index,
                              %overwrite: f32) target(gpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.memcpy %d, %h : memref<?xf32, #global>, memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      memref.store %overwrite, %h[%i] : memref<?xf32>
    }
    gpu.memcpy %back, %d : memref<?xf32>, memref<?xf32, #global>
    sdfg.return
  }

  // Class 4 (region control flow): an scf.while whose before region reads
  // the counter that its after region copies back.  iterations = limit.
  sdfg.sdfg @while_count(%dcount: memref<i32, #global>, %hcount: memref<i32>,
                         %iterations: memref<i32>, %limit: i32) target(gpu) {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %cap = arith.constant 100000 : i32
    gpu.memset %dcount, %zero : memref<i32, #global>, i32
    gpu.memcpy %hcount, %dcount : memref<i32>, memref<i32, #global>
    %count = scf.while (%k = %zero) : (i32) -> i32 {
      %c = memref.load %hcount[] : memref<i32>
      %more = arith.cmpi slt, %c, %limit : i32
      %bounded = arith.cmpi slt, %k, %cap : i32
      %go = arith.andi %more, %bounded : i1
      scf.condition(%go) %k : i32
    } do {
    ^bb0(%k: i32):
      gpu.launch_func @hazard_kernels::@increment blocks in (%c1, %c1, %c1)
          threads in (%c1, %c1, %c1) args(%dcount : memref<i32, #global>)
      gpu.memcpy %hcount, %dcount : memref<i32>, memref<i32, #global>
      %next = arith.addi %k, %one : i32
      scf.yield %next : i32
    }
    memref.store %count, %iterations[] : memref<i32>
    sdfg.return
  }

  // Class 5 (what memory a buffer is): a kernel writes host memory that the
  // GPU addresses directly (pinned, mapped); the host reads it.
  // out = h[n - 1] (= value).
  sdfg.sdfg @mapped_write(%h: memref<?xf32>, %out: memref<f32>, %n: index,
                          %value: f32) target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @hazard_kernels::@fill_host blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%h : memref<?xf32>, %value : f32, %n : index)
    %last = arith.subi %n, %c1 : index
    %x = memref.load %h[%last] : memref<?xf32>
    memref.store %x, %out[] : memref<f32>
    sdfg.return
  }

  // Class 8 (joined streams): d is filled on another stream the caller
  // passes; the copy back on the program's stream depends on both, and a
  // blocking gpu.wait follows.  out = h[n - 1] (= value).
  // (A stream argument that is not the last one is another stream; the
  // last is the caller's.)
  sdfg.sdfg @joined(%d: memref<?xf32, #global>, %h: memref<?xf32>,
                    %out: memref<f32>, %other: !sdfg.stream, %n: index,
                    %value: f32) target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    %t0 = sdfg.stream_token %other
    %t1 = gpu.launch_func async [%t0] @hazard_kernels::@fill
        blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%d : memref<?xf32, #global>, %value : f32, %n : index)
    %t2 = gpu.wait async
    %t3 = gpu.memcpy async [%t2, %t1] %h, %d : memref<?xf32>, memref<?xf32, #global>
    gpu.wait [%t3]
    %last = arith.subi %n, %c1 : index
    %x = memref.load %h[%last] : memref<?xf32>
    memref.store %x, %out[] : memref<f32>
    sdfg.return
  }
}
