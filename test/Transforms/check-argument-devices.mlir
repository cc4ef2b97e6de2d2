// RUN: sdfg-opt %s -split-input-file -sdfg-check-argument-devices | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-check-argument-devices -sdfg-check-argument-devices | FileCheck %s --check-prefix=TWICE

// Idempotent: a second run adds nothing.
// TWICE-COUNT-3: sdfg.check_device
// TWICE-NOT: sdfg.check_device

// Every GPU-memory argument (either spelling) is checked right after the
// init op, on the program's stream, before any work; host memory, scalars
// and the stream are not.
// CHECK-LABEL: sdfg.sdfg @program
// CHECK-NEXT: %[[SLOTS:.*]]:2 = sdfg.init_streams
// CHECK-NEXT: sdfg.check_device %arg0 on %[[SLOTS]]#0 argument 0 : memref<?xf32, #gpu.address_space<global>>
// CHECK-NEXT: sdfg.check_device %arg2 on %[[SLOTS]]#0 argument 2 : memref<4x4xi32, 1>
// CHECK-NEXT: sdfg.stream_token
// CHECK-NOT: sdfg.check_device
sdfg.sdfg @program(%A: memref<?xf32, #gpu.address_space<global>>, %H: memref<?xf32>,
                   %B: memref<4x4xi32, 1>, %n: index,
                   %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 2) {
  %slots:2 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream
  %t = sdfg.stream_token %slots#1
  %done = gpu.memcpy async [%t] %H, %A : memref<?xf32>, memref<?xf32, #gpu.address_space<global>>
  sdfg.return
}

// -----

// A func.func on the stream is checked like a program; private programs get
// their buffers from a checked caller; programs without the caller's stream
// are left exactly as they were.
// CHECK-LABEL: sdfg.sdfg private @inner
// CHECK-NOT: sdfg.check_device
// CHECK: sdfg.return
// CHECK-LABEL: func.func @outer
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams
// CHECK-NEXT: sdfg.check_device %arg0 on %[[SLOT]] argument 0 : memref<4xf32, 1>
// CHECK-LABEL: func.func @no_stream
// CHECK-NOT: sdfg.check_device
// CHECK: return
sdfg.sdfg private @inner(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 1) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
func.func @outer(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.call @inner(%A, %slot) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  return
}
func.func @no_stream(%A: memref<4xf32, 1>) {
  return
}
