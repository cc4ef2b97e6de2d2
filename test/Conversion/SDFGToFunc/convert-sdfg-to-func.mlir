// RUN: sdfg-opt %s -convert-sdfg-to-func | FileCheck %s

// A program with the caller's stream returns the status of its GPU work,
// collected by the runtime between sdfgrtBeginCall and sdfgrtEndCall; a
// public program gets a C entry point. Calls of nested programs ignore the
// nested status: a failure stays recorded for the caller's sdfgrtEndCall.

// CHECK-LABEL: func.func private @inner
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "s"}) -> i32
// CHECK-SAME: attributes {sdfg.num_streams = 1 : i64, sdfg.program}
// CHECK-NEXT: call @sdfgrtBeginCall() : () -> ()
// CHECK-NEXT: sdfg.init_streams %[[S]]
// CHECK: %[[STATUS:.*]] = call @sdfgrtEndCall() : () -> i32
// CHECK-NEXT: return %[[STATUS]] : i32
sdfg.sdfg private @inner(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// CHECK-LABEL: func.func @outer
// CHECK-SAME: -> i32 attributes {llvm.emit_c_interface, sdfg.num_streams = 2 : i64, sdfg.program}
// CHECK-NEXT: call @sdfgrtBeginCall()
// CHECK-NEXT: %[[SLOTS:.*]]:2 = sdfg.init_streams
// CHECK-NEXT: %{{.*}} = call @inner(%{{.*}}, %[[SLOTS]]#1) : (memref<4xf32, 1>, !sdfg.stream) -> i32
// CHECK-NEXT: cf.cond_br
// CHECK: %[[A:.*]] = call @sdfgrtEndCall() : () -> i32
// CHECK-NEXT: return %[[A]] : i32
// CHECK: %[[B:.*]] = call @sdfgrtEndCall() : () -> i32
// CHECK-NEXT: return %[[B]] : i32
sdfg.sdfg @outer(%A: memref<4xf32, 1>, %c: i1, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 2) {
  %slots:2 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream
  sdfg.call @inner(%A, %slots#1) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  cf.cond_br %c, ^a, ^b
^a:
  sdfg.return
^b:
  sdfg.return
}

// A CPU program needs no runtime: it returns 0.
// CHECK-LABEL: func.func @cpu(%{{.*}}: memref<4xf32>) -> i32 attributes {llvm.emit_c_interface, sdfg.num_streams = 0 : i64}
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: return %[[ZERO]] : i32
sdfg.sdfg @cpu(%A: memref<4xf32>) target(cpu) {
  sdfg.return
}

// CHECK: func.func private @sdfgrtBeginCall()
// CHECK: func.func private @sdfgrtEndCall() -> i32
// CHECK-NOT: sdfg.sdfg
