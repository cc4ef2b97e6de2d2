// The manifest a program library carries (docs/python.md, "The manifest"):
// each public program's entries, parameters as the header names and types
// them, shapes and layouts, where its memrefs live, and whether a call
// synchronizes the host (found by the passes that insert host syncs, so a
// program that only enqueues says false and one that reads GPU results on
// the host says true; with --library-sync-call, every GPU program does).
//
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream --mlir-print-debuginfo | sdfg-translate --sdfg-to-manifest | FileCheck %s
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream --mlir-print-debuginfo | sdfg-translate --sdfg-to-manifest --library-sync-call | FileCheck %s --check-prefix=SYNC
// The manifest names and types the parameters as the header does.
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream | sdfg-translate --sdfg-to-c-header | FileCheck %s --check-prefix=HEADER

// HEADER: int32_t _mlir_ciface_enqueue_only(sdfg_memref_2d_float *field, sdfg_memref_1d_int32_t *arg1, double alpha, void *external_gpu_stream);
// HEADER: int32_t _mlir_ciface_reads_back(sdfg_memref_1d_float *arg0, sdfg_memref_1d_float *arg1, void *external_gpu_stream);
// HEADER: float _mlir_ciface_host_value(sdfg_memref_1d_float *arg0, int64_t arg1);

// CHECK:      "format": "sdfgstream-manifest",
// CHECK:      "programs": [
// CHECK:          "entry": "_mlir_ciface_enqueue_only",
// CHECK-NEXT:     "host_sync": false,
// CHECK-NEXT:     "kind": "sdfg",
// CHECK-NEXT:     "location": "{{.*}}manifest.mlir:{{[0-9]+}}:3",
// CHECK-NEXT:     "name": "enqueue_only",
// CHECK-NEXT:     "packed": "_sdfgstream_packed_enqueue_only",
// CHECK-NEXT:     "parameters": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "c_type": "sdfg_memref_2d_float *",
// CHECK-NEXT:         "element": "f32",
// CHECK-NEXT:         "kind": "memref",
// CHECK-NEXT:         "layout": "identity",
// CHECK-NEXT:         "memory": "device",
// CHECK-NEXT:         "name": "field",
// CHECK-NEXT:         "shape": [
// CHECK-NEXT:           null,
// CHECK-NEXT:           16
// CHECK-NEXT:         ]
// CHECK-NEXT:       },
// A strided layout: the descriptor's strides and offset are read where the
// type leaves them dynamic.
// CHECK-NEXT:       {
// CHECK-NEXT:         "c_type": "sdfg_memref_1d_int32_t *",
// CHECK-NEXT:         "element": "i32",
// CHECK-NEXT:         "kind": "memref",
// CHECK-NEXT:         "layout": "strided",
// CHECK-NEXT:         "memory": "device",
// CHECK-NEXT:         "name": "arg1",
// CHECK-NEXT:         "offset": null,
// CHECK-NEXT:         "shape": [
// CHECK-NEXT:           8
// CHECK-NEXT:         ],
// CHECK-NEXT:         "strides": [
// CHECK-NEXT:           2
// CHECK-NEXT:         ]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "c_type": "double",
// CHECK-NEXT:         "kind": "scalar",
// CHECK-NEXT:         "name": "alpha",
// CHECK-NEXT:         "type": "f64"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "c_type": "void *",
// CHECK-NEXT:         "kind": "stream",
// CHECK-NEXT:         "name": "external_gpu_stream"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "result": "status",
// CHECK-NEXT:     "stream": "external_gpu_stream",
// CHECK-NEXT:     "stream_allocations": false
// SYNC:           "entry": "_mlir_ciface_enqueue_only",
// SYNC-NEXT:      "host_sync": true,
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<?x16xf32, #gpu.address_space<global>>) kernel {
      gpu.return
    }
  }
  sdfg.sdfg @enqueue_only(%field: memref<?x16xf32, #gpu.address_space<global>> {sdfg.arg_name = "field"},
                          %idx: memref<8xi32, strided<[2], offset: ?>, #gpu.address_space<global>>,
                          %alpha: f64 {sdfg.arg_name = "alpha"}) target(gpu) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%field : memref<?x16xf32, #gpu.address_space<global>>)
    sdfg.return
  }

// A GPU result read on the host: the call synchronizes. A transient
// buffer: a stream-ordered allocation.
// CHECK:          "entry": "_mlir_ciface_reads_back",
// CHECK-NEXT:     "host_sync": true,
// CHECK:              "memory": "host",
// CHECK-NEXT:         "name": "arg1",
// CHECK:          "stream_allocations": true
  sdfg.sdfg @reads_back(%d: memref<4xf32, #gpu.address_space<global>>, %h: memref<4xf32>) target(gpu) {
    %c0 = arith.constant 0 : index
    %t = gpu.alloc () : memref<4xf32, #gpu.address_space<global>>
    gpu.memcpy %t, %d : memref<4xf32, #gpu.address_space<global>>, memref<4xf32, #gpu.address_space<global>>
    gpu.memcpy %h, %t : memref<4xf32>, memref<4xf32, #gpu.address_space<global>>
    gpu.dealloc %t : memref<4xf32, #gpu.address_space<global>>
    %v = memref.load %h[%c0] : memref<4xf32>
    memref.store %v, %h[%c0] : memref<4xf32>
    sdfg.return
  }

// A func.func returning a value of its own: its memrefs may be anywhere,
// its packed entry stores the result after the parameters.
// CHECK:          "entry": "_mlir_ciface_host_value",
// CHECK-NEXT:     "host_sync": false,
// CHECK-NEXT:     "kind": "func",
// CHECK:              "memory": "any",
// CHECK:              "c_type": "int64_t",
// CHECK-NEXT:         "kind": "scalar",
// CHECK-NEXT:         "name": "arg1",
// CHECK-NEXT:         "type": "index"
// CHECK:          "result": "f32",
// CHECK-NEXT:     "stream": null,
// CHECK-NEXT:     "stream_allocations": false
// SYNC:           "entry": "_mlir_ciface_host_value",
// SYNC-NEXT:      "host_sync": false,
  func.func @host_value(%a: memref<?xf32>, %i: index) -> f32 {
    %v = memref.load %a[%i] : memref<?xf32>
    return %v : f32
  }
}
// CHECK:        "sync_call": false,
// CHECK-NEXT:   "version": 1
// SYNC:         "sync_call": true,
