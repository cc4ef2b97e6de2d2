// RUN: sdfg-opt %s -split-input-file -sdfg-instrument-timers | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-instrument-timers='nested-programs=true' | FileCheck %s --check-prefix=NESTED
// RUN: sdfg-opt %s -split-input-file -sdfg-instrument-timers -sdfg-instrument-timers | FileCheck %s --check-prefix=TWICE
// RUN: sdfg-opt %s -split-input-file -sdfg-make-sync-call -sdfg-instrument-timers | FileCheck %s --check-prefix=SYNC

// Idempotent: a second run adds nothing.
// TWICE-COUNT-2: sdfg.timer_begin
// TWICE-NOT: sdfg.timer_begin

// One timer per call: begun right after the init op on the program's
// distinct streams (two slots, one stream), ended before every return.
// Nothing waits: no sync is added.
// CHECK-LABEL: sdfg.sdfg @two_returns
// CHECK: %[[SLOTS:.*]]:2 = sdfg.init_streams
// CHECK-NEXT: %[[T:.*]] = sdfg.timer_begin "two_returns" on %[[SLOTS]]#0{{$}}
// CHECK: cf.cond_br
// CHECK: sdfg.timer_end %[[T]] on %[[SLOTS]]#0{{$}}
// CHECK-NEXT: sdfg.return
// CHECK: sdfg.timer_end %[[T]] on %[[SLOTS]]#0{{$}}
// CHECK-NEXT: sdfg.return
// CHECK-NOT: sdfg.sync

// With sdfg-make-sync-call first, the end events come before the sync, so a
// synchronous call also waits for them.
// SYNC-LABEL: sdfg.sdfg @two_returns
// SYNC: sdfg.timer_end
// SYNC-NEXT: sdfg.sync
// SYNC-NEXT: sdfg.return
// SYNC: sdfg.timer_end
// SYNC-NEXT: sdfg.sync
// SYNC-NEXT: sdfg.return
sdfg.sdfg @two_returns(%A: memref<4xf32, 1>, %v: f32, %c: i1, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 2) {
  %slots:2 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream
  %t = sdfg.stream_token %slots#1
  %done = gpu.memset async [%t] %A, %v : memref<4xf32, 1>, f32
  cf.cond_br %c, ^a, ^b
^a:
  sdfg.return
^b:
  sdfg.return
}

// -----

// A func.func with the stream is timed like a program; private programs
// (nested, covered by their caller's timer) only with nested-programs.
// CHECK-LABEL: sdfg.sdfg private @inner
// CHECK-NOT: sdfg.timer_begin
// CHECK: sdfg.return
// CHECK-LABEL: func.func @outer
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK-NEXT: %[[T:.*]] = sdfg.timer_begin "outer" on %[[SLOT]]
// CHECK: sdfg.call @inner
// CHECK-NEXT: sdfg.timer_end %[[T]] on %[[SLOT]]
// CHECK-NEXT: return
// NESTED-LABEL: sdfg.sdfg private @inner
// NESTED: sdfg.timer_begin "inner"
// NESTED: sdfg.timer_end
// NESTED-LABEL: func.func @outer
// NESTED: sdfg.timer_begin "outer"
sdfg.sdfg private @inner(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 1) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %v = arith.constant 1.0 : f32
  %t = sdfg.stream_token %slot
  %done = gpu.memset async [%t] %A, %v : memref<4xf32, 1>, f32
  sdfg.return
}
func.func @outer(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.call @inner(%A, %slot) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  return
}

// -----

// Programs without the caller's stream (CPU programs, GPU programs before
// sdfg-add-external-gpu-stream) are left exactly as they were.
// CHECK-LABEL: sdfg.sdfg @cpu
// CHECK-NOT: sdfg.timer
// CHECK: sdfg.return
// CHECK-LABEL: func.func @host
// CHECK-NOT: sdfg.timer
// CHECK: return
sdfg.sdfg @cpu(%A: memref<4xf32>) target(cpu) {
  sdfg.return
}
func.func @host(%x: i32) -> i32 {
  return %x : i32
}
