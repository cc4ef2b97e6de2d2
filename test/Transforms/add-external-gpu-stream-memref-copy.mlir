// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -verify-diagnostics | FileCheck %s

// memref.copy in host code to or from GPU memory (a GPU memory space), as
// bufferization with memory spaces emits it, is a GPU copy on the caller's
// stream: lowered as a memref.copy it was a host memcpy through a device
// pointer. Copies between host buffers stay host copies.

// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: %[[HOST:[a-z0-9]+]]: memref<16xf32>, %[[STRIDED:[a-z0-9]+]]: memref<4xf32, strided<[4]>>
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK: %[[DEVICE:.*]], %{{.*}} = gpu.alloc async
// CHECK: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memcpy async [%[[T1]]] %[[DEVICE]], %[[HOST]] : memref<16xf32, #gpu.address_space<global>>, memref<16xf32>
// CHECK: gpu.launch async
// CHECK: %[[T2:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memcpy async [%[[T2]]] %[[HOST]], %[[DEVICE]] : memref<16xf32>, memref<16xf32, #gpu.address_space<global>>
// A strided view of GPU memory copied to a strided host view.
// CHECK: %[[VIEW:.*]] = memref.subview %[[DEVICE]]
// CHECK: gpu.memcpy async [%{{.*}}] %[[STRIDED]], %[[VIEW]] : memref<4xf32, strided<[4]>>, memref<4xf32, strided<[4]>, #gpu.address_space<global>>
// Host to host: still a memref.copy.
// CHECK: memref.copy %[[HOST]], %{{.*}} : memref<16xf32> to memref<16xf32>
// CHECK-NOT: memref.copy
func.func @round_trip(%host: memref<16xf32>, %strided: memref<4xf32, strided<[4]>>) {
  %c1 = arith.constant 1 : index
  %d = gpu.alloc () : memref<16xf32, #gpu.address_space<global>>
  memref.copy %host, %d : memref<16xf32> to memref<16xf32, #gpu.address_space<global>>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %f = arith.constant 2.0 : f32
    memref.store %f, %d[%tx] : memref<16xf32, #gpu.address_space<global>>
    gpu.terminator
  }
  memref.copy %d, %host : memref<16xf32, #gpu.address_space<global>> to memref<16xf32>
  %view = memref.subview %d[0] [4] [4] : memref<16xf32, #gpu.address_space<global>> to memref<4xf32, strided<[4]>, #gpu.address_space<global>>
  memref.copy %view, %strided : memref<4xf32, strided<[4]>, #gpu.address_space<global>> to memref<4xf32, strided<[4]>>
  %h = memref.alloc() : memref<16xf32>
  memref.copy %host, %h : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A function whose only GPU work is such a copy takes the stream too.
// CHECK-LABEL: func.func @upload
// CHECK-SAME: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}
// CHECK: gpu.memcpy async
func.func @upload(%host: memref<8xi32>, %device: memref<8xi32, 1>) {
  memref.copy %host, %device : memref<8xi32> to memref<8xi32, 1>
  return
}

// -----

func.func @unranked(%host: memref<*xf32>, %device: memref<*xf32, 1>) {
  // expected-error @+1 {{'memref.copy' op copies an unranked buffer to or from GPU memory on the host; cast it to a ranked memref (the copy becomes a gpu.memcpy, which takes ranked buffers)}}
  memref.copy %host, %device : memref<*xf32> to memref<*xf32, 1>
  return
}
