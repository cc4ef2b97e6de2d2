// Class 3 and 5 of sdfg-insert-host-syncs: a host write into memory that pending
// GPU work still reads waits for it (the source of an asynchronous H2D copy,
// host-registered or managed memory a kernel reads), a host read of it does
// not; which memory a buffer is comes from where it comes from.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

// The source of an H2D copy: reading it again needs nothing, overwriting it
// (or freeing it) waits for the copy.
// CHECK-LABEL: func.func @copy_source
// CHECK: gpu.memcpy async
// CHECK-NEXT: memref.load
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.store
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @copy_source(%d: memref<4xf32, 1>, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %d, %h : memref<4xf32, 1>, memref<4xf32>
  %x = memref.load %h[%c0] : memref<4xf32>
  memref.store %v, %h[%c0] : memref<4xf32>
  memref.dealloc %h : memref<4xf32>
  return %x : f32
}

// -----

// Freeing the source of a pending copy is a write.
// CHECK-LABEL: func.func @free_copy_source
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.dealloc
func.func @free_copy_source(%d: memref<4xf32, 1>) {
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %d, %h : memref<4xf32, 1>, memref<4xf32>
  memref.dealloc %h : memref<4xf32>
  return
}

// -----

// Host-registered memory that a kernel only reads: the host may read it at
// once, but a host store waits; a kernel that writes it makes the read wait.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @read_only(%in: memref<4xf32>, %out: memref<4xf32, 1>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %in[%c0] : memref<4xf32>
      memref.store %v, %out[%c0] : memref<4xf32, 1>
      gpu.return
    }
    gpu.func @scale(%io: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %io[%c0] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %io[%c0] : memref<4xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @registered
  // CHECK: gpu.host_register
  // CHECK: gpu.launch_func async {{.*}} @kernels::@read_only
  // CHECK-NEXT: memref.load
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.store
  // CHECK: gpu.launch_func async {{.*}} @kernels::@scale
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  // CHECK-NOT: sdfg.sync
  // CHECK: return
  func.func @registered(%d: memref<4xf32, 1>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 2.0 : f32
    %h = memref.alloc() : memref<4xf32>
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch_func @kernels::@read_only blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xf32>, %d : memref<4xf32, 1>)
    %x = memref.load %h[%c0] : memref<4xf32>
    memref.store %f, %h[%c0] : memref<4xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xf32>)
    %y = memref.load %h[%c0] : memref<4xf32>
    %s = arith.addf %x, %y : f32
    return %s : f32
  }
}

// -----

// gpu.alloc without host_shared is device memory, also in the default memory
// space (upstream's tests write it so): returning it, or passing it to a
// program that only uses it on the GPU, needs no sync.
// CHECK-LABEL: func.func private @fill
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func private @fill(%m: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  gpu.memset %m, %f : memref<4xf32>, f32
  return
}
// CHECK-LABEL: func.func @device_in_default_space
// CHECK: gpu.alloc async
// CHECK: gpu.memset async
// CHECK-NEXT: call @fill
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @device_in_default_space() -> memref<4xf32> {
  %z = arith.constant 0.0 : f32
  %m = gpu.alloc () : memref<4xf32>
  gpu.memset %m, %z : memref<4xf32>, f32
  call @fill(%m) : (memref<4xf32>) -> ()
  return %m : memref<4xf32>
}

// -----

// host_shared memory is visible to the host: a read after a memset waits.
// Returning host memory a copy still writes waits too.
// CHECK-LABEL: func.func @host_shared
// CHECK: gpu.memset async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: return
func.func @host_shared(%d: memref<4xf32, 1>) -> (f32, memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %m = gpu.alloc host_shared () : memref<4xf32>
  gpu.memset %m, %z : memref<4xf32>, f32
  %v = memref.load %m[%c0] : memref<4xf32>
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  return %v, %h : f32, memref<4xf32>
}
