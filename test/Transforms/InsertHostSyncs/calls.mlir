// Class 6 of sdfg-insert-host-syncs: a summary of each callee decides what a call
// needs: which arguments (and globals) it reads or writes on the host, which
// only through GPU work on the stream. Body-less declarations read and write
// every buffer they are given (those that take the stream: GPU-only buffers
// only through GPU work on it); recursion is fine.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

// A callee that only uploads its argument (GPU work on the stream, ordered
// after the caller's copy): no sync before the call; the caller's read after
// it waits.
func.func private @upload(%h: memref<4xf32>, %d: memref<4xf32, 1>) {
  gpu.memcpy %d, %h : memref<4xf32, 1>, memref<4xf32>
  return
}
// CHECK-LABEL: func.func @gpu_only_callee
// CHECK: gpu.memcpy async
// CHECK-NEXT: call @upload
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @gpu_only_callee(%d: memref<4xf32, 1>, %e: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  call @upload(%h, %e) : (memref<4xf32>, memref<4xf32, 1>) -> ()
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A host function that reads its argument, and one that only asks for its
// size: the first call waits, the second does not.
func.func private @sum(%h: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %h[%c0] : memref<?xf32>
  return %v : f32
}
func.func private @size(%h: memref<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %n = memref.dim %h, %c0 : memref<?xf32>
  return %n : index
}
// CHECK-LABEL: func.func @host_callees
// CHECK: gpu.memcpy async
// CHECK-NEXT: call @size
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: call @sum
func.func @host_callees(%d: memref<?xf32, 1>, %h: memref<?xf32>) -> (index, f32) {
  gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32, 1>
  %n = call @size(%h) : (memref<?xf32>) -> index
  %s = call @sum(%h) : (memref<?xf32>) -> f32
  return %n, %s : index, f32
}

// -----

// A declaration: everything it is given, on the host.
func.func private @external(memref<4xf32>)
// CHECK-LABEL: func.func @declaration
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: call @external
func.func @declaration(%d: memref<4xf32, 1>) {
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  call @external(%h) : (memref<4xf32>) -> ()
  return
}

// -----

// Recursion: @walk reads its argument on the host at some depth, so a call
// of it waits for the caller's copy.
func.func private @walk(%h: memref<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> f32 {
    %v = memref.load %h[%c0] : memref<4xf32>
    scf.yield %v : f32
  } else {
    %m = arith.subi %n, %c1 : index
    %v = func.call @walk(%h, %m) : (memref<4xf32>, index) -> f32
    scf.yield %v : f32
  }
  return %r : f32
}
// CHECK-LABEL: func.func @recursion
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: call @walk
func.func @recursion(%d: memref<4xf32, 1>, %n: index) -> f32 {
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %v = call @walk(%h, %n) : (memref<4xf32>, index) -> f32
  return %v : f32
}

// -----

// A nested program that writes a global through GPU work: the caller's read
// of that global after the call waits.
memref.global "private" @result : memref<f32> = dense<0.0>
sdfg.sdfg private @produce(%d: memref<f32, 1>) target(gpu) {
  %g = memref.get_global @result : memref<f32>
  gpu.memcpy %g, %d : memref<f32>, memref<f32, 1>
  sdfg.return
}
// CHECK-LABEL: sdfg.sdfg @consume_global
// CHECK: sdfg.call @produce
// CHECK-NEXT: memref.get_global
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
sdfg.sdfg @consume_global(%d: memref<f32, 1>, %out: memref<f32> {llvm.noalias}) target(gpu) {
  sdfg.call @produce(%d) : (memref<f32, 1>) -> ()
  %g = memref.get_global @result : memref<f32>
  %v = memref.load %g[] : memref<f32>
  memref.store %v, %out[] : memref<f32>
  sdfg.return
}

// -----

// A body-less target(gpu) program (a kernel library compiled elsewhere),
// called on the caller's stream with GPU-only buffers: its work is queued
// after the caller's on that stream, and the host touches none of those
// buffers, so no sync before the call (there was one per time step). Given
// a host-visible buffer, it may touch it on the host: that call waits.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<16xf32, 1>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %m[%c0] : memref<16xf32, 1>
      gpu.return
    }
    gpu.func @fill_host(%m: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %m[%c0] : memref<16xf32>
      gpu.return
    }
  }
  sdfg.sdfg private @library_kernels(memref<16xf32, 1>, memref<16xf32, 1>) target(gpu)
  sdfg.sdfg private @library_host(memref<16xf32>) target(gpu)

  // CHECK-LABEL: sdfg.sdfg @time_loop
  // CHECK: scf.for
  // CHECK: gpu.launch_func async
  // CHECK-NOT: sdfg.sync
  // CHECK: sdfg.call @library_kernels
  // CHECK-NOT: sdfg.sync
  // CHECK: sdfg.return
  sdfg.sdfg @time_loop(%a: memref<16xf32, 1>, %b: memref<16xf32, 1>, %n: index) target(gpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32, 1>)
      sdfg.call @library_kernels(%a, %b) : (memref<16xf32, 1>, memref<16xf32, 1>) -> ()
    }
    sdfg.return
  }

  // CHECK-LABEL: sdfg.sdfg @host_visible
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: sdfg.call @library_host
  sdfg.sdfg @host_visible(%h: memref<16xf32>) target(gpu) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@fill_host blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<16xf32>)
    sdfg.call @library_host(%h) : (memref<16xf32>) -> ()
    sdfg.return
  }
}
