// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-llvm | FileCheck %s

// The stream ops become the stream pointer itself, so each runtime call
// takes the function's stream argument; a sync is a stream synchronize.
// CHECK-LABEL: llvm.func @copies
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @sdfgrtMemset8(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuMemset16(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NOT: sdfg.
func.func @copies(%D: memref<16xf32, #gpu.address_space<global>>, %H: memref<16xf32>,
                  %B: memref<16xi8, #gpu.address_space<global>>, %F: memref<4x4xf16, #gpu.address_space<global>>,
                  %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %b = arith.constant 7 : i8
  %h = arith.constant 1.0 : f16
  %t0 = sdfg.stream_token %slot
  %0 = gpu.memcpy async [%t0] %D, %H : memref<16xf32, #gpu.address_space<global>>, memref<16xf32>
  %t1 = sdfg.stream_token %slot
  %1 = gpu.memset async [%t1] %B, %b : memref<16xi8, #gpu.address_space<global>>, i8
  %t2 = sdfg.stream_token %slot
  %2 = gpu.memset async [%t2] %F, %h : memref<4x4xf16, #gpu.address_space<global>>, f16
  sdfg.sync %slot
  return
}

// -----

// The source location of each GPU op is recorded for the runtime's errors.
// CHECK: llvm.mlir.global private constant @__sdfgrt_loc_0("{{.*}}convert-sdfg-to-llvm.mlir:[[@LINE+5]]:8\00")
// CHECK-LABEL: llvm.func @located
func.func @located(%D: memref<16xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %0 = gpu.dealloc async [%t] %D : memref<16xf32>
  return
}
