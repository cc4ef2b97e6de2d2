// Integration program, class 7: sm_90 thread block clusters, launched with
// gpu.launch_func ... clusters in (...) and with gpu.launch clusters(...).
// Every block writes where it is: its cluster, its rank in the cluster, the
// cluster's shape and the number of clusters.
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    // where[block, 0..3] = cluster_id.x, cluster_block_id.x,
    // cluster_dim_blocks.x, cluster_dim.x
    gpu.func @where(%where: memref<8x4xi32>) kernel {
      %block = gpu.block_id x
      %cluster = gpu.cluster_id x
      %rank = gpu.cluster_block_id x
      %size = gpu.cluster_dim_blocks x
      %count = gpu.cluster_dim x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %v0 = arith.index_cast %cluster : index to i32
      %v1 = arith.index_cast %rank : index to i32
      %v2 = arith.index_cast %size : index to i32
      %v3 = arith.index_cast %count : index to i32
      memref.store %v0, %where[%block, %c0] : memref<8x4xi32>
      memref.store %v1, %where[%block, %c1] : memref<8x4xi32>
      memref.store %v2, %where[%block, %c2] : memref<8x4xi32>
      memref.store %v3, %where[%block, %c3] : memref<8x4xi32>
      gpu.return
    }
  }

  func.func @clusters() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %host = memref.alloc() : memref<8x4xi32>
    %where = gpu.alloc () : memref<8x4xi32>
    // 8 blocks in clusters of 4.
    gpu.launch_func @kernels::@where clusters in (%c4, %c1, %c1)
        blocks in (%c8, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%where : memref<8x4xi32>)
    gpu.memcpy %host, %where : memref<8x4xi32>, memref<8x4xi32>
    %u = memref.cast %host : memref<8x4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()

    // A 4x2 grid in 2x2 clusters: grid[by, bx] = 10 * cluster rank y +
    // cluster rank x + 100 * (cluster id y * 2 + cluster id x).
    %grid = gpu.alloc () : memref<2x4xi32>
    gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c2, %sy = %c2, %sz = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%nx = %c1, %ny = %c1, %nz = %c1) {
      %rx = gpu.cluster_block_id x
      %ry = gpu.cluster_block_id y
      %ix = gpu.cluster_id x
      %iy = gpu.cluster_id y
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %a = arith.muli %ry, %c10 : index
      %b = arith.addi %a, %rx : index
      %k = arith.muli %iy, %c2 : index
      %k1 = arith.addi %k, %ix : index
      %k2 = arith.muli %k1, %c100 : index
      %v = arith.addi %b, %k2 : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %grid[%by, %bx] : memref<2x4xi32>
      gpu.terminator
    }
    %hgrid = memref.alloc() : memref<2x4xi32>
    gpu.memcpy %hgrid, %grid : memref<2x4xi32>, memref<2x4xi32>
    %ug = memref.cast %hgrid : memref<2x4xi32> to memref<*xi32>
    call @printMemrefI32(%ug) : (memref<*xi32>) -> ()
    gpu.dealloc %where : memref<8x4xi32>
    gpu.dealloc %grid : memref<2x4xi32>
    memref.dealloc %host : memref<8x4xi32>
    memref.dealloc %hgrid : memref<2x4xi32>
    return
  }
}
