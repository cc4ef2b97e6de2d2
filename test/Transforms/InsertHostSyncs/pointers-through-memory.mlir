// Pointers that pass through memory or come from unknown places. The -O0
// shape of flang's and clang's host code spills every pointer to a stack
// slot and loads it back: the loaded pointer may be any memory (it is not
// the slot it was loaded from), so reading through it waits for the kernel
// that writes the spilled buffer. And a pointer of unknown origin may be
// based on a `llvm.noalias` argument (an accessor returned it for that
// argument): noalias lifts the aliasing between arguments, not with
// unknown memory.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write_ptr(%p: !llvm.ptr) kernel {
      %v = arith.constant 1.0 : f32
      llvm.store %v, %p : f32, !llvm.ptr
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @spilled
  // CHECK: llvm.store %{{.*}}, %[[SLOT:.*]] : !llvm.ptr, !llvm.ptr
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: %[[RELOADED:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: llvm.load %[[RELOADED]] : !llvm.ptr -> f32
  func.func @spilled(%h: !llvm.ptr) -> f32 {
    %c1 = arith.constant 1 : index
    %one = llvm.mlir.constant(1 : i64) : i64
    %slot = llvm.alloca %one x !llvm.ptr : (i64) -> !llvm.ptr
    llvm.store %h, %slot : !llvm.ptr, !llvm.ptr
    gpu.launch_func @k::@write_ptr blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : !llvm.ptr)
    %q = llvm.load %slot : !llvm.ptr -> !llvm.ptr
    %v = llvm.load %q : !llvm.ptr -> f32
    return %v : f32
  }

  // Loading the pointer reads the slot, which the kernel does not write:
  // no sync for that (nor for comparing the pointer).
  // CHECK-LABEL: func.func @slot_itself
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
  // CHECK-NEXT: llvm.mlir.zero
  // CHECK-NEXT: llvm.icmp
  // CHECK-NEXT: return
  func.func @slot_itself(%h: !llvm.ptr) -> i1 {
    %c1 = arith.constant 1 : index
    %one = llvm.mlir.constant(1 : i64) : i64
    %slot = llvm.alloca %one x !llvm.ptr : (i64) -> !llvm.ptr
    llvm.store %h, %slot : !llvm.ptr, !llvm.ptr
    gpu.launch_func @k::@write_ptr blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : !llvm.ptr)
    %q = llvm.load %slot : !llvm.ptr -> !llvm.ptr
    %null = llvm.mlir.zero : !llvm.ptr
    %isNull = llvm.icmp "eq" %q, %null : !llvm.ptr
    return %isNull : i1
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<64xf32>) kernel {
      %v = arith.constant 1.0 : f32
      %c0 = arith.constant 0 : index
      memref.store %v, %m[%c0] : memref<64xf32>
      gpu.return
    }
  }
  func.func private @element_ptr(memref<64xf32>, index) -> !llvm.ptr

  // CHECK-LABEL: func.func @noalias_and_an_accessor
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: llvm.load
  func.func @noalias_and_an_accessor(%H: memref<64xf32> {llvm.noalias}) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = func.call @element_ptr(%H, %c0) : (memref<64xf32>, index) -> !llvm.ptr
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%H : memref<64xf32>)
    %v = llvm.load %p : !llvm.ptr -> f32
    return %v : f32
  }

  // noalias still separates arguments: reading %other waits for nothing.
  // CHECK-LABEL: func.func @noalias_arguments
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: memref.load
  // CHECK-NEXT: return
  func.func @noalias_arguments(%H: memref<64xf32> {llvm.noalias}, %other: memref<64xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%H : memref<64xf32>)
    %v = memref.load %other[%c0] : memref<64xf32>
    return %v : f32
  }
}
