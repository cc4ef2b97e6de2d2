// RUN: sdfg-opt %s --gpu-to-llvm --sdfg-verify-stream-discipline -verify-diagnostics

// Upstream's gpu-to-llvm declares the mgpu* entries it calls with its own
// signatures; the lint checks each call against the runtime's table
// (RuntimeEntries.def), so this program, which makes upstream declare
// the memory, copy, set, host-registration, device and sparse entries,
// shows that the runtime implements them as upstream calls them. Only the
// stream that upstream creates for gpu.wait is reported (the lowering of
// SDFGStream never lets upstream lower these ops on a stream of its own).

module attributes {gpu.container_module} {
  func.func @upstream_entries(%n: index, %v: i32, %v16: i16, %dev: i32, %arg0: index) {
    // expected-error @+1 {{creates a stream (mgpuStreamCreate)}}
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf64>
    %mi, %t1b = gpu.alloc async [%t1] (%n) : memref<?xi32>
    %m16, %t1c = gpu.alloc async [%t1b] (%n) : memref<?xi16>
    %t2 = gpu.memcpy async [%t1c] %m, %m : memref<?xf64>, memref<?xf64>
    %t3 = gpu.memset async [%t2] %mi, %v : memref<?xi32>, i32
    %t4 = gpu.memset async [%t3] %m16, %v16 : memref<?xi16>, i16
    %spmat, %t5 = gpu.create_csr async [%t4] %arg0, %arg0, %arg0, %mi, %mi, %m : memref<?xi32>, memref<?xi32>, memref<?xf64>
    %dnvec, %t6 = gpu.create_dn_tensor async [%t5] %m, %arg0 : index into memref<?xf64>
    %bs, %t7 = gpu.spmv_buffer_size async [%t6] %spmat, %dnvec, %dnvec into f64
    %t8 = gpu.spmv async [%t7] %spmat, %dnvec, %dnvec, %m : memref<?xf64> into f64
    %t9 = gpu.destroy_sp_mat async [%t8] %spmat
    %t10 = gpu.destroy_dn_tensor async [%t9] %dnvec
    %t11 = gpu.dealloc async [%t10] %m : memref<?xf64>
    // expected-error @+1 {{destroys a stream (mgpuStreamDestroy)}}
    gpu.wait [%t11]
    %h = memref.alloc(%n) : memref<?xf32>
    %u = memref.cast %h : memref<?xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.host_unregister %u : memref<*xf32>
    gpu.set_default_device %dev
    return
  }
}
