// Integration program, class 2: gpu.all_reduce (uniform and not, with an
// operation and with a region, on floats and integers), gpu.subgroup_reduce
// and gpu.shuffle in all four modes. Two blocks of 64 threads (two warps
// each, so the block reductions cross warps through shared memory); inputs
// made on the host, copied in and out on the caller's stream, printed.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    // Per block b: sums[b, 0, 2, 3] = add, min, mul of the block's values
    // (small, so the product is exact); ints[b, 0..3] = and, or, xor, maxsi
    // of the block's integer values; ints[b, 4] = the sum over the first
    // warp (subgroup_reduce). In a gpu.func, upstream's lowering takes only
    // reductions marked uniform (all threads of the block reach them); the
    // launch body in @all_reduce_shuffle has the non-uniform form.
    gpu.func @reduce(%values: memref<2x64xf32>, %bits: memref<2x64xi32>,
                     %sums: memref<2x4xf32>, %ints: memref<2x5xi32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %values[%b, %t] : memref<2x64xf32>
      %w = memref.load %bits[%b, %t] : memref<2x64xi32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %min = gpu.all_reduce minnumf %v uniform {} : (f32) -> f32
      %c16 = arith.constant 16 : index
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      // The product of 64 factors: 2 for 16 of the threads, 1 for the rest.
      %low = arith.cmpi ult, %t, %c16 : index
      %factor = arith.select %low, %two, %one : f32
      %prod = gpu.all_reduce mul %factor uniform {} : (f32) -> f32
      %and = gpu.all_reduce and %w uniform {} : (i32) -> i32
      %or = gpu.all_reduce or %w uniform {} : (i32) -> i32
      %xor = gpu.all_reduce xor %w uniform {} : (i32) -> i32
      %maxsi = gpu.all_reduce maxsi %w uniform {} : (i32) -> i32
      %warp = gpu.subgroup_reduce add %w uniform : (i32) -> i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %sum, %sums[%b, %c0] : memref<2x4xf32>
        memref.store %min, %sums[%b, %c2] : memref<2x4xf32>
        memref.store %prod, %sums[%b, %c3] : memref<2x4xf32>
        memref.store %and, %ints[%b, %c0] : memref<2x5xi32>
        memref.store %or, %ints[%b, %c1] : memref<2x5xi32>
        memref.store %xor, %ints[%b, %c2] : memref<2x5xi32>
        memref.store %maxsi, %ints[%b, %c3] : memref<2x5xi32>
        memref.store %warp, %ints[%b, %c4] : memref<2x5xi32>
      }
      gpu.return
    }

    // shuffled[m, lane] for the first warp of block 0: xor 1, down 3, up 2,
    // idx 5 of the lane's value; -1 where the source lane is out of range.
    gpu.func @shuffle(%values: memref<2x64xf32>, %shuffled: memref<4x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %lane = gpu.thread_id x
      %v = memref.load %values[%c0, %lane] : memref<2x64xf32>
      %width = arith.constant 32 : i32
      %one = arith.constant 1 : i32
      %three = arith.constant 3 : i32
      %two = arith.constant 2 : i32
      %five = arith.constant 5 : i32
      %none = arith.constant -1.0 : f32
      %x, %xv = gpu.shuffle xor %v, %one, %width : f32
      %d, %dv = gpu.shuffle down %v, %three, %width : f32
      %u, %uv = gpu.shuffle up %v, %two, %width : f32
      %i, %iv = gpu.shuffle idx %v, %five, %width : f32
      %x1 = arith.select %xv, %x, %none : f32
      %d1 = arith.select %dv, %d, %none : f32
      %u1 = arith.select %uv, %u, %none : f32
      %i1 = arith.select %iv, %i, %none : f32
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      memref.store %x1, %shuffled[%c0, %lane] : memref<4x32xf32>
      memref.store %d1, %shuffled[%c1, %lane] : memref<4x32xf32>
      memref.store %u1, %shuffled[%c2, %lane] : memref<4x32xf32>
      memref.store %i1, %shuffled[%c3, %lane] : memref<4x32xf32>
      gpu.return
    }
  }

  func.func @all_reduce_shuffle() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    // values[b, t] = (5 t + 3 b) mod 17 - 4; bits[b, t] = t * (b + 1) + 256
    %values = memref.alloc() : memref<2x64xf32>
    %bits = memref.alloc() : memref<2x64xi32>
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c17 = arith.constant 17 : index
    %c4i = arith.constant 4 : i32
    %c256 = arith.constant 256 : index
    scf.for %b = %c0 to %c2 step %c1 {
      scf.for %t = %c0 to %c64 step %c1 {
        %a = arith.muli %t, %c5 : index
        %bb = arith.muli %b, %c3 : index
        %s = arith.addi %a, %bb : index
        %r = arith.remui %s, %c17 : index
        %ri = arith.index_cast %r : index to i32
        %rs = arith.subi %ri, %c4i : i32
        %f = arith.sitofp %rs : i32 to f32
        memref.store %f, %values[%b, %t] : memref<2x64xf32>
        %b1 = arith.addi %b, %c1 : index
        %m = arith.muli %t, %b1 : index
        %m2 = arith.addi %m, %c256 : index
        %mi = arith.index_cast %m2 : index to i32
        memref.store %mi, %bits[%b, %t] : memref<2x64xi32>
      }
    }
    %sums = memref.alloc() : memref<2x4xf32>
    %ints = memref.alloc() : memref<2x5xi32>
    %shuffled = memref.alloc() : memref<4x32xf32>

    %dvalues = gpu.alloc () : memref<2x64xf32>
    %dbits = gpu.alloc () : memref<2x64xi32>
    %dsums = gpu.alloc () : memref<2x4xf32>
    %dints = gpu.alloc () : memref<2x5xi32>
    %dshuffled = gpu.alloc () : memref<4x32xf32>
    gpu.memcpy %dvalues, %values : memref<2x64xf32>, memref<2x64xf32>
    gpu.memcpy %dbits, %bits : memref<2x64xi32>, memref<2x64xi32>
    gpu.launch_func @kernels::@reduce blocks in (%c2, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%dvalues : memref<2x64xf32>, %dbits : memref<2x64xi32>,
             %dsums : memref<2x4xf32>, %dints : memref<2x5xi32>)
    // sums[b, 1] = max of the block's values, the region form without
    // `uniform` (directly in a launch body, it is uniform after folding).
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%nx = %c64, %ny = %c1, %nz = %c1) {
      %v = memref.load %dvalues[%bx, %tx] : memref<2x64xf32>
      %max = gpu.all_reduce %v {
      ^bb(%lhs : f32, %rhs : f32):
        %m = arith.maximumf %lhs, %rhs : f32
        gpu.yield %m : f32
      } : (f32) -> (f32)
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %max, %dsums[%bx, %c1] : memref<2x4xf32>
      }
      gpu.terminator
    }
    gpu.launch_func @kernels::@shuffle blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1)
        args(%dvalues : memref<2x64xf32>, %dshuffled : memref<4x32xf32>)
    gpu.memcpy %sums, %dsums : memref<2x4xf32>, memref<2x4xf32>
    gpu.memcpy %ints, %dints : memref<2x5xi32>, memref<2x5xi32>
    gpu.memcpy %shuffled, %dshuffled : memref<4x32xf32>, memref<4x32xf32>
    gpu.dealloc %dvalues : memref<2x64xf32>
    gpu.dealloc %dbits : memref<2x64xi32>
    gpu.dealloc %dsums : memref<2x4xf32>
    gpu.dealloc %dints : memref<2x5xi32>
    gpu.dealloc %dshuffled : memref<4x32xf32>

    %usums = memref.cast %sums : memref<2x4xf32> to memref<*xf32>
    %uints = memref.cast %ints : memref<2x5xi32> to memref<*xi32>
    %ushuffled = memref.cast %shuffled : memref<4x32xf32> to memref<*xf32>
    call @printMemrefF32(%usums) : (memref<*xf32>) -> ()
    call @printMemrefI32(%uints) : (memref<*xi32>) -> ()
    call @printMemrefF32(%ushuffled) : (memref<*xf32>) -> ()
    memref.dealloc %values : memref<2x64xf32>
    memref.dealloc %bits : memref<2x64xi32>
    memref.dealloc %sums : memref<2x4xf32>
    memref.dealloc %ints : memref<2x5xi32>
    memref.dealloc %shuffled : memref<4x32xf32>
    return
  }
}
