// Program of the sparse GPU test (SparseTests.cu): SpMV and SpMM of one CSR
// matrix through the gpu dialect's sparse ops, written as upstream's sparse
// GPU tests write them (a gpu.wait async chain), on the caller's stream.
// Computes y = A x + y and C = A B + C (alpha = beta = 1, as upstream's
// runtime does); B and C are row-major, n columns.

#global = #gpu.address_space<global>
module attributes {gpu.container_module} {
  func.func @spmv_spmm(%rows: index, %cols: index, %nnz: index, %n: index,
                       %pos: memref<?xi32, #global>, %crd: memref<?xi32, #global>,
                       %val: memref<?xf32, #global>, %x: memref<?xf32, #global>,
                       %y: memref<?xf32, #global>, %b: memref<?xf32, #global>,
                       %c: memref<?xf32, #global>) {
    %t0 = gpu.wait async
    %a, %t1 = gpu.create_csr async [%t0] %rows, %cols, %nnz, %pos, %crd, %val
        : memref<?xi32, #global>, memref<?xi32, #global>, memref<?xf32, #global>
    %dx, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols : index into memref<?xf32, #global>
    %dy, %t3 = gpu.create_dn_tensor async [%t2] %y, %rows : index into memref<?xf32, #global>
    %size, %t4 = gpu.spmv_buffer_size async [%t3] %a, %dx, %dy into f32
    %buffer, %t5 = gpu.alloc async [%t4] (%size) : memref<?xi8, #global>
    %t6 = gpu.spmv async [%t5] %a, %dx, %dy, %buffer : memref<?xi8, #global> into f32
    %mb, %t7 = gpu.create_dn_tensor async [%t6] %b, %cols, %n : index, index into memref<?xf32, #global>
    %mc, %t8 = gpu.create_dn_tensor async [%t7] %c, %rows, %n : index, index into memref<?xf32, #global>
    %size2, %t9 = gpu.spmm_buffer_size async [%t8] %a, %mb, %mc : index into f32
    %buffer2, %t10 = gpu.alloc async [%t9] (%size2) : memref<?xi8, #global>
    %t11 = gpu.spmm async [%t10] %a, %mb, %mc, %buffer2 : memref<?xi8, #global> into f32
    %t12 = gpu.destroy_dn_tensor async [%t11] %mc
    %t13 = gpu.destroy_dn_tensor async [%t12] %mb
    %t14 = gpu.destroy_dn_tensor async [%t13] %dy
    %t15 = gpu.destroy_dn_tensor async [%t14] %dx
    %t16 = gpu.destroy_sp_mat async [%t15] %a
    %t17 = gpu.dealloc async [%t16] %buffer2 : memref<?xi8, #global>
    %t18 = gpu.dealloc async [%t17] %buffer : memref<?xi8, #global>
    gpu.wait [%t18]
    return
  }
}
