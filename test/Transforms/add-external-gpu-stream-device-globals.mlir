// Kernels that read or write module-level device globals are ordered across
// concurrent slots like buffer accesses (issue 22, class 3): a memref.global
// in a gpu.module (as MLIR's GPU pipelines write constant tables), an
// llvm.mlir.global there (a CUDA __device__ variable, a CUF module variable
// with the DEVICE attribute), also through a device function the kernel
// calls. Two kernels that touch different globals, or only read one, need no
// wait.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    memref.global "private" @table : memref<16xf32, 1>
    memref.global "private" @other : memref<16xf32, 1>
    llvm.mlir.global internal @counter(0 : i32) {addr_space = 1 : i32} : i32
    gpu.func @write_table() kernel {
      %t = memref.get_global @table : memref<16xf32, 1>
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %t[%c0] : memref<16xf32, 1>
      gpu.return
    }
    gpu.func @read_table(%out: memref<16xf32, 1>) kernel {
      %t = memref.get_global @table : memref<16xf32, 1>
      %c0 = arith.constant 0 : index
      %v = memref.load %t[%c0] : memref<16xf32, 1>
      memref.store %v, %out[%c0] : memref<16xf32, 1>
      gpu.return
    }
    gpu.func @read_other(%out: memref<16xf32, 1>) kernel {
      %t = memref.get_global @other : memref<16xf32, 1>
      %c0 = arith.constant 0 : index
      %v = memref.load %t[%c0] : memref<16xf32, 1>
      memref.store %v, %out[%c0] : memref<16xf32, 1>
      gpu.return
    }
    func.func @bump() {
      %p = llvm.mlir.addressof @counter : !llvm.ptr<1>
      %one = llvm.mlir.constant(1 : i32) : i32
      %old = llvm.atomicrmw add %p, %one monotonic : !llvm.ptr<1>, i32
      return
    }
    gpu.func @bump_counter() kernel {
      func.call @bump() : () -> ()
      gpu.return
    }
    gpu.func @read_counter(%out: memref<1xi32, 1>) kernel {
      %p = llvm.mlir.addressof @counter : !llvm.ptr<1>
      %v = llvm.load %p : !llvm.ptr<1> -> i32
      %c0 = arith.constant 0 : index
      memref.store %v, %out[%c0] : memref<1xi32, 1>
      gpu.return
    }
  }

  // CHECK-LABEL: sdfg.sdfg @table_across_slots
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams
  // CHECK: gpu.launch_func async [%{{.*}}] @k::@write_table
  // CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#1 after %[[S]]#0
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @k::@read_table
  sdfg.sdfg @table_across_slots(%out: memref<16xf32, 1> {llvm.noalias}) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write_table blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k::@read_table blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<16xf32, 1>) {sdfg.stream_slot = 1}
    sdfg.return
  }

  // A different global: no wait between the two.
  // CHECK-LABEL: sdfg.sdfg @other_global
  // CHECK: gpu.launch_func async [%{{.*}}] @k::@write_table
  // CHECK-NOT: sdfg.stream_wait %{{.*}}#1 after
  // CHECK: gpu.launch_func async [%{{.*}}] @k::@read_other
  sdfg.sdfg @other_global(%out: memref<16xf32, 1> {llvm.noalias}) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write_table blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k::@read_other blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<16xf32, 1>) {sdfg.stream_slot = 1}
    sdfg.return
  }

  // A __device__ counter bumped in a device function: the reader waits.
  // CHECK-LABEL: sdfg.sdfg @device_variable
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams
  // CHECK: gpu.launch_func async [%{{.*}}] @k::@bump_counter
  // CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#1 after %[[S]]#0
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @k::@read_counter
  sdfg.sdfg @device_variable(%out: memref<1xi32, 1> {llvm.noalias}) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@bump_counter blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k::@read_counter blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xi32, 1>) {sdfg.stream_slot = 1}
    sdfg.return
  }

  // Two readers: no wait.
  // CHECK-LABEL: sdfg.sdfg @two_readers
  // CHECK-NOT: sdfg.stream_wait %{{.*}}#1 after
  // CHECK: sdfg.return
  sdfg.sdfg @two_readers(%a: memref<16xf32, 1> {llvm.noalias}, %b: memref<16xf32, 1> {llvm.noalias}) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@read_table blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32, 1>)
    gpu.launch_func @k::@read_table blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<16xf32, 1>) {sdfg.stream_slot = 1}
    sdfg.return
  }
}
