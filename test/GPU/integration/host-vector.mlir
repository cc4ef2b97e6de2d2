// Integration program, class 4: vector code on host memrefs around GPU
// work. The host fills the input with vector.transfer_write, a kernel
// squares it on the device, and the host reads the copied-back result with
// vector.transfer_read (out of bounds padded, and transposed), reduces it
// and prints it with vector.print.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @square_plus(%data: memref<4x4xf32>, %plus: f32) kernel {
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %v = memref.load %data[%i, %j] : memref<4x4xf32>
      %s = arith.mulf %v, %v : f32
      %r = arith.addf %s, %plus : f32
      memref.store %r, %data[%i, %j] : memref<4x4xf32>
      gpu.return
    }
  }

  func.func @host_vector() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc() : memref<4x4xf32>
    // Row i: (0, 1, 2, 3) + i - 1.
    %step = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : vector<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %m1 = arith.constant 1 : i32
      %o = arith.subi %ii, %m1 : i32
      %of = arith.sitofp %o : i32 to f32
      %splat = vector.broadcast %of : f32 to vector<4xf32>
      %row = arith.addf %step, %splat : vector<4xf32>
      vector.transfer_write %row, %host[%i, %c0] {in_bounds = [true]} : vector<4xf32>, memref<4x4xf32>
    }
    %device = gpu.alloc () : memref<4x4xf32>
    gpu.memcpy %device, %host : memref<4x4xf32>, memref<4x4xf32>
    %plus = arith.constant 0.5 : f32
    gpu.launch_func @kernels::@square_plus blocks in (%c4, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%device : memref<4x4xf32>, %plus : f32)
    gpu.memcpy %host, %device : memref<4x4xf32>, memref<4x4xf32>
    gpu.dealloc %device : memref<4x4xf32>

    // The whole result, transposed.
    %pad = arith.constant -7.0 : f32
    %t = vector.transfer_read %host[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x4xf32>, vector<4x4xf32>
    vector.print %t : vector<4x4xf32>
    // Row 2 from column 1, 6 wide: the last three lanes are padding.
    %c2 = arith.constant 2 : index
    %tail = vector.transfer_read %host[%c2, %c1], %pad : memref<4x4xf32>, vector<6xf32>
    vector.print %tail : vector<6xf32>
    %flat = vector.shape_cast %t : vector<4x4xf32> to vector<16xf32>
    %sum = vector.reduction <add>, %flat : vector<16xf32> into f32
    %max = vector.reduction <maxnumf>, %tail : vector<6xf32> into f32
    vector.print str "sum "
    vector.print %sum : f32
    vector.print str "max "
    vector.print %max : f32
    memref.dealloc %host : memref<4x4xf32>
    return
  }
}
