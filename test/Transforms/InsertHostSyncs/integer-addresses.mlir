// A buffer's address that leaves as an integer (the shape C interop and
// hand-lowered code take: memref.extract_aligned_pointer_as_index, then
// index_cast or arithmetic, or llvm.ptrtoint) still names that buffer: a C
// function given the integer reads and writes the buffer on the host, and a
// kernel given it may write the buffer. Upstream's synchronous GPU ops had
// finished before such a call; on the caller's stream the call must wait.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<16xf32>) kernel {
      %t = gpu.thread_id x
      %f = arith.constant 1.0 : f32
      memref.store %f, %m[%t] : memref<16xf32>
      gpu.return
    }
    gpu.func @fill_raw(%address: i64) kernel {
      %p = llvm.inttoptr %address : i64 to !llvm.ptr
      %f = arith.constant 1.0 : f32
      llvm.store %f, %p : f32, !llvm.ptr
      gpu.return
    }
  }
  func.func private @consume_i64(i64)
  func.func private @consume_index(index)
  func.func private @consume_pair(i64, i32)

  // A kernel writes %m (host-mapped memory); a C function reads it through
  // the address it is given, as an index, as an i64 with an offset.
  // CHECK-LABEL: func.func @as_index
  // CHECK: gpu.launch_func async
  // CHECK: memref.extract_aligned_pointer_as_index
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: call @consume_index
  func.func @as_index(%m: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xf32>)
    %p = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
    func.call @consume_index(%p) : (index) -> ()
    return
  }

  // CHECK-LABEL: func.func @as_i64_with_offset
  // CHECK: gpu.launch_func async
  // CHECK: arith.addi
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: call @consume_i64
  func.func @as_i64_with_offset(%m: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c8 = arith.constant 8 : i64
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xf32>)
    %p = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
    %i = arith.index_cast %p : index to i64
    %second = arith.addi %i, %c8 : i64
    func.call @consume_i64(%second) : (i64) -> ()
    return
  }

  // An integer that is no address (a size) makes the call no access.
  // CHECK-LABEL: func.func @plain_integers
  // CHECK: gpu.launch_func async
  // CHECK-NOT: sdfg.sync
  // CHECK: call @consume_pair
  // CHECK-NEXT: return
  func.func @plain_integers(%m: memref<16xf32>, %n: i64) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c3 = arith.constant 3 : i32
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xf32>)
    func.call @consume_pair(%n, %c3) : (i64, i32) -> ()
    return
  }

  // A kernel given the address as an integer may write the buffer: the
  // host read after it waits.
  // CHECK-LABEL: func.func @kernel_writes_through_integer
  // CHECK: llvm.ptrtoint
  // CHECK: gpu.launch_func async {{.*}} @k::@fill_raw
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: llvm.load
  func.func @kernel_writes_through_integer(%p: !llvm.ptr) -> f32 {
    %c1 = arith.constant 1 : index
    %address = llvm.ptrtoint %p : !llvm.ptr to i64
    gpu.launch_func @k::@fill_raw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%address : i64)
    %v = llvm.load %p : !llvm.ptr -> f32
    return %v : f32
  }
}
