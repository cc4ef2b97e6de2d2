// Integration program, class 3: tensor cores, through the gpu dialect (wmma:
// gpu.subgroup_mma_*, 16x16x16 f16 -> f32) and through nvgpu (one
// m16n8k16 nvgpu.mma.sync, f16 -> f32, each lane loading its fragments as
// PTX lays them out). Integer-valued inputs, so every result is exact.
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  gpu.module @kernels {
    // d = a * b + c (all row-major 16x16), one warp.
    gpu.func @wmma(%a: memref<16x16xf16>, %b: memref<16x16xf16>,
                   %c: memref<16x16xf32>, %d: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }

    // d (16x8) = a (16x16, row-major) * b (16x8, given transposed as bt,
    // 8x16: the "col" operand) + c (16x8). Lane l holds, with g = l / 4 and
    // q = 2 (l mod 4): a[g | g+8, q..q+1 | q+8..q+9], bt[g, q..q+1 |
    // q+8..q+9], c and d [g | g+8, q..q+1].
    gpu.func @mma_sync(%a: memref<16x16xf16>, %bt: memref<8x16xf16>,
                       %c: memref<16x8xf32>, %d: memref<16x8xf32>) kernel {
      %lane = gpu.lane_id
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %g = arith.divui %lane, %c4 : index
      %r = arith.remui %lane, %c4 : index
      %q = arith.muli %r, %c2 : index
      %g8 = arith.addi %g, %c8 : index
      %q8 = arith.addi %q, %c8 : index
      %a0 = vector.load %a[%g, %q] : memref<16x16xf16>, vector<2xf16>
      %a1 = vector.load %a[%g8, %q] : memref<16x16xf16>, vector<2xf16>
      %a2 = vector.load %a[%g, %q8] : memref<16x16xf16>, vector<2xf16>
      %a3 = vector.load %a[%g8, %q8] : memref<16x16xf16>, vector<2xf16>
      %az = arith.constant dense<0.0> : vector<4x2xf16>
      %A0 = vector.insert %a0, %az [0] : vector<2xf16> into vector<4x2xf16>
      %A1 = vector.insert %a1, %A0 [1] : vector<2xf16> into vector<4x2xf16>
      %A2 = vector.insert %a2, %A1 [2] : vector<2xf16> into vector<4x2xf16>
      %A = vector.insert %a3, %A2 [3] : vector<2xf16> into vector<4x2xf16>
      %b0 = vector.load %bt[%g, %q] : memref<8x16xf16>, vector<2xf16>
      %b1 = vector.load %bt[%g, %q8] : memref<8x16xf16>, vector<2xf16>
      %bz = arith.constant dense<0.0> : vector<2x2xf16>
      %B0 = vector.insert %b0, %bz [0] : vector<2xf16> into vector<2x2xf16>
      %B = vector.insert %b1, %B0 [1] : vector<2xf16> into vector<2x2xf16>
      %c0v = vector.load %c[%g, %q] : memref<16x8xf32>, vector<2xf32>
      %c1v = vector.load %c[%g8, %q] : memref<16x8xf32>, vector<2xf32>
      %cz = arith.constant dense<0.0> : vector<2x2xf32>
      %C0 = vector.insert %c0v, %cz [0] : vector<2xf32> into vector<2x2xf32>
      %C = vector.insert %c1v, %C0 [1] : vector<2xf32> into vector<2x2xf32>
      %D = nvgpu.mma.sync (%A, %B, %C) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %d0 = vector.extract %D[0] : vector<2xf32> from vector<2x2xf32>
      %d1 = vector.extract %D[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %d0, %d[%g, %q] : memref<16x8xf32>, vector<2xf32>
      vector.store %d1, %d[%g8, %q] : memref<16x8xf32>, vector<2xf32>
      gpu.return
    }
  }

  // a[i, k] = (i + 2 k) mod 5 - 2; b[k, j] = (3 k + j) mod 4 - 1;
  // c[i, j] = i - j. Prints the wmma result (16x16), then the mma.sync one
  // (16x8, from the first 8 columns of b).
  func.func @mma() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<16x16xf16>
    %b = memref.alloc() : memref<16x16xf16>
    %bt = memref.alloc() : memref<8x16xf16>
    %c = memref.alloc() : memref<16x16xf32>
    %cn = memref.alloc() : memref<16x8xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %as = arith.addi %i, %j2 : index
        %ar = arith.remui %as, %c5 : index
        %ai = arith.index_cast %ar : index to i32
        %af = arith.sitofp %ai : i32 to f16
        %two = arith.constant 2.0 : f16
        %av = arith.subf %af, %two : f16
        memref.store %av, %a[%i, %j] : memref<16x16xf16>
        // b[i, j] with i as k
        %i3 = arith.muli %i, %c3 : index
        %bs = arith.addi %i3, %j : index
        %br = arith.remui %bs, %c4 : index
        %bi = arith.index_cast %br : index to i32
        %bf = arith.sitofp %bi : i32 to f16
        %one = arith.constant 1.0 : f16
        %bv = arith.subf %bf, %one : f16
        memref.store %bv, %b[%i, %j] : memref<16x16xf16>
        %inside = arith.cmpi ult, %j, %c8 : index
        scf.if %inside {
          memref.store %bv, %bt[%j, %i] : memref<8x16xf16>
        }
        %ii = arith.index_cast %i : index to i32
        %ji = arith.index_cast %j : index to i32
        %cd = arith.subi %ii, %ji : i32
        %cf = arith.sitofp %cd : i32 to f32
        memref.store %cf, %c[%i, %j] : memref<16x16xf32>
        scf.if %inside {
          memref.store %cf, %cn[%i, %j] : memref<16x8xf32>
        }
      }
    }
    %d = memref.alloc() : memref<16x16xf32>
    %dn = memref.alloc() : memref<16x8xf32>

    %da = gpu.alloc () : memref<16x16xf16>
    %db = gpu.alloc () : memref<16x16xf16>
    %dbt = gpu.alloc () : memref<8x16xf16>
    %dc = gpu.alloc () : memref<16x16xf32>
    %dcn = gpu.alloc () : memref<16x8xf32>
    %dd = gpu.alloc () : memref<16x16xf32>
    %ddn = gpu.alloc () : memref<16x8xf32>
    gpu.memcpy %da, %a : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %db, %b : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %dbt, %bt : memref<8x16xf16>, memref<8x16xf16>
    gpu.memcpy %dc, %c : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %dcn, %cn : memref<16x8xf32>, memref<16x8xf32>
    gpu.launch_func @kernels::@wmma blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1)
        args(%da : memref<16x16xf16>, %db : memref<16x16xf16>,
             %dc : memref<16x16xf32>, %dd : memref<16x16xf32>)
    gpu.launch_func @kernels::@mma_sync blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1)
        args(%da : memref<16x16xf16>, %dbt : memref<8x16xf16>,
             %dcn : memref<16x8xf32>, %ddn : memref<16x8xf32>)
    gpu.memcpy %d, %dd : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %dn, %ddn : memref<16x8xf32>, memref<16x8xf32>
    gpu.dealloc %da : memref<16x16xf16>
    gpu.dealloc %db : memref<16x16xf16>
    gpu.dealloc %dbt : memref<8x16xf16>
    gpu.dealloc %dc : memref<16x16xf32>
    gpu.dealloc %dcn : memref<16x8xf32>
    gpu.dealloc %dd : memref<16x16xf32>
    gpu.dealloc %ddn : memref<16x8xf32>

    %ud = memref.cast %d : memref<16x16xf32> to memref<*xf32>
    %udn = memref.cast %dn : memref<16x8xf32> to memref<*xf32>
    call @printMemrefF32(%ud) : (memref<*xf32>) -> ()
    call @printMemrefF32(%udn) : (memref<*xf32>) -> ()
    memref.dealloc %a : memref<16x16xf16>
    memref.dealloc %b : memref<16x16xf16>
    memref.dealloc %bt : memref<8x16xf16>
    memref.dealloc %c : memref<16x16xf32>
    memref.dealloc %cn : memref<16x8xf32>
    memref.dealloc %d : memref<16x16xf32>
    memref.dealloc %dn : memref<16x8xf32>
    return
  }
}
