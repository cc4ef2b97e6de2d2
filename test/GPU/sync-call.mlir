// A program compiled with --sync-call (sdfg-make-sync-call) for the GPU tests:
// it fills a device buffer and copies it to the host, then synchronizes the
// caller's stream, and only that stream, before returning.
sdfg.sdfg @fill_sync(%device: memref<?xf32, #gpu.address_space<global>>,
                     %host: memref<?xf32>, %value: f32) target(gpu) {
  gpu.memset %device, %value : memref<?xf32, #gpu.address_space<global>>, f32
  gpu.memcpy %host, %device : memref<?xf32>, memref<?xf32, #gpu.address_space<global>>
  sdfg.return
}
