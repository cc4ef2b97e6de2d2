// RUN: sdfg-opt %s -split-input-file -canonicalize | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -cse | FileCheck %s --check-prefix=CSE

// Repeated syncs of the same stream fold to one.
// CHECK-LABEL: func.func @repeated_sync
// CHECK-SAME: (%[[S:.*]]: !sdfg.stream
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NEXT: sdfg.sync %[[SLOT]]{{$}}
// CHECK-NEXT: return
func.func @repeated_sync(%s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.sync %slot
  sdfg.sync %slot, %slot
  sdfg.sync %slot
  return
}

// -----

// Slots of one init op are the same stream: one sync serves them all.
// CHECK-LABEL: sdfg.sdfg @slots_are_one_stream
// CHECK: %[[SLOTS:.*]]:3 = sdfg.init_streams
// CHECK-NEXT: sdfg.sync %[[SLOTS]]#1{{$}}
// CHECK-NEXT: sdfg.return
sdfg.sdfg @slots_are_one_stream(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 3) {
  %slots:3 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream, !sdfg.stream
  sdfg.sync %slots#1, %slots#0, %slots#2
  sdfg.return
}

// -----

// Syncs separated by GPU work are both needed; syncs of streams that are
// not known to be the same are kept apart within one op.
// CHECK-LABEL: func.func @separated_syncs
// CHECK-SAME: %[[A:[^:]*]]: !sdfg.stream, %[[B:[^:]*]]: !sdfg.stream)
// CHECK-NEXT: sdfg.sync %[[A]]{{$}}
// CHECK-NEXT: sdfg.stream_token %[[A]]
// CHECK-NEXT: gpu.memset
// CHECK-NEXT: sdfg.sync %[[A]], %[[B]]{{$}}
// CHECK-NEXT: return
func.func @separated_syncs(%A: memref<4xf32, 1>, %v: f32, %a: !sdfg.stream, %b: !sdfg.stream) {
  sdfg.sync %a
  %t = sdfg.stream_token %a
  %done = gpu.memset async [%t] %A, %v : memref<4xf32, 1>, f32
  sdfg.sync %a
  sdfg.sync %b, %a
  return
}

// -----

// Stream tokens are pure: CSE merges tokens of the same stream.
// CSE-LABEL: func.func @token_cse
// CSE: %[[T:.*]] = sdfg.stream_token
// CSE-NOT: sdfg.stream_token
// CSE: gpu.memset async [%[[T]]]
// CSE: gpu.memset async [%[[T]]]
func.func @token_cse(%A: memref<4xf32, 1>, %v: f32, %s: !sdfg.stream) {
  %t0 = sdfg.stream_token %s
  %d0 = gpu.memset async [%t0] %A, %v : memref<4xf32, 1>, f32
  %t1 = sdfg.stream_token %s
  %d1 = gpu.memset async [%t1] %A, %v : memref<4xf32, 1>, f32
  return
}
