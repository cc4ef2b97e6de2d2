// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -test-sdfg-host-gpu-accesses 2>&1 >/dev/null | FileCheck %s

// A copy is GPU work on the program's stream (it writes its destination,
// reads its source); loads and stores are host accesses. The summary says
// what a caller sees: arguments by access bits (gr = GPU read, hw = host
// write, ...); the stream argument is not accessed.
// CHECK-LABEL: function @copy_then_read
// CHECK-NEXT: d2h: gpu %[[S:.*]] write arg 1; gpu %[[S]] read arg 0 device; on %[[S]]
// CHECK-NEXT: load: host read arg 1;
// CHECK-NEXT: store: host write arg 2;
// CHECK-NEXT: summary: args [gr, hr+gw, hw, -] unknown -
// CHECK-NEXT: idle at exit:{{$}}
sdfg.sdfg @copy_then_read(%D: memref<4xf32, 1>, %H: memref<4xf32>, %out: memref<f32>) target(gpu) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %H, %D : memref<4xf32>, memref<4xf32, 1> {test.tag = "d2h"}
  %v = memref.load %H[%c0] {test.tag = "load"} : memref<4xf32>
  memref.store %v, %out[] {test.tag = "store"} : memref<f32>
  sdfg.return
}

// -----

// A kernel launch reads the arguments its body only loads and writes those
// it stores to; a callee's summary is the call's accesses (a GPU read and
// write of one buffer are one write), and a callee that ends with a sync of
// its stream leaves the call's stream idle after its own GPU work, which
// stays an access (on a concurrent slot it must wait for what it conflicts
// with).
// CHECK-LABEL: function @scale
// CHECK-NEXT: summary: args [gr+gw, -] unknown -
// CHECK-NEXT: idle at exit: call stream
// CHECK-LABEL: function @caller
// CHECK-NEXT: launch: gpu %[[S:.*]] read arg 0 device; gpu %[[S]] write arg 1 device; on %[[S]]
// CHECK-NEXT: call: gpu %[[S]] write arg 1 device; synced after %[[S]]; on %[[S]]
// CHECK-NEXT: summary: args [gr, gw, -] unknown -
// CHECK-NEXT: idle at exit: call stream
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<4xf32, 1>, %out: memref<4xf32, 1>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<4xf32, 1>
      memref.store %v, %out[%i] : memref<4xf32, 1>
      gpu.return
    }
  }
  func.func private @scale(%d: memref<4xf32, 1>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32, 1>, %d : memref<4xf32, 1>)
    %t = gpu.wait async
    gpu.wait [%t]
    return
  }
  func.func @caller(%a: memref<4xf32, 1>, %b: memref<4xf32, 1>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32, 1>, %b : memref<4xf32, 1>) {test.tag = "launch"}
    func.call @scale(%b) {test.tag = "call"} : (memref<4xf32, 1>) -> ()
    return
  }
}
