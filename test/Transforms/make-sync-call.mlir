// RUN: sdfg-opt %s -split-input-file -sdfg-make-sync-call | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-make-sync-call='nested-programs=true' | FileCheck %s --check-prefix=NESTED
// RUN: sdfg-opt %s -split-input-file -sdfg-make-sync-call -sdfg-make-sync-call | FileCheck %s --check-prefix=TWICE
// TWICE-COUNT-4: sdfg.sync
// TWICE-NOT: sdfg.sync

// Without sdfg-make-sync-call a call is asynchronous: no sync at exit.
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s --check-prefix=ASYNC
// ASYNC-NOT: sdfg.sync

// Every return of a program that has the stream syncs each distinct stream
// of its slots once (here: two slots, one stream), never the device.
// CHECK-LABEL: sdfg.sdfg @two_returns
// CHECK: %[[SLOTS:.*]]:2 = sdfg.init_streams
// CHECK: cf.cond_br
// CHECK: sdfg.sync %[[SLOTS]]#0{{$}}
// CHECK-NEXT: sdfg.return
// CHECK: sdfg.sync %[[SLOTS]]#0{{$}}
// CHECK-NEXT: sdfg.return
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

// func.func works the same way; a private program is only called from
// programs whose own return syncs the stream, so it is left alone unless
// nested-programs is set.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: sdfg.sync
// CHECK: return
// CHECK-LABEL: func.func @entry
// CHECK: call @helper
// CHECK-NEXT: sdfg.sync %{{.*}}
// CHECK-NEXT: return
// NESTED-LABEL: func.func private @helper
// NESTED: sdfg.sync
// NESTED-NEXT: return
func.func private @helper(%A: memref<4xf32, 1>, %v: f32, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %done = gpu.memset async [%t] %A, %v : memref<4xf32, 1>, f32
  return
}
func.func @entry(%A: memref<4xf32, 1>, %v: f32, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  func.call @helper(%A, %v, %slot) : (memref<4xf32, 1>, f32, !sdfg.stream) -> ()
  return
}

// -----

// Programs without the stream (CPU programs, functions without GPU work)
// are not touched.
// CHECK-LABEL: sdfg.sdfg @cpu
// CHECK-NOT: sdfg.sync
// CHECK-LABEL: func.func @plain
// CHECK-NOT: sdfg.sync
sdfg.sdfg @cpu(%A: memref<4xf32>) target(cpu) {
  sdfg.return
}
func.func @plain() {
  return
}

// -----

// Concurrent slots are joined into slot 0 before each return (by
// sdfg-add-external-gpu-stream), so the one sync is of slot 0, the caller's
// stream, after the join; the pool stream is not synchronized.
!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%a: !G) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: sdfg.sdfg @concurrent
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: sdfg.sync %[[S]]#0{{$}}
  // CHECK-NEXT: sdfg.return
  sdfg.sdfg @concurrent(%A: !G, %s: !sdfg.stream {sdfg.external_stream = "s"})
      target(gpu, streams = 2) {
    %slots:2 = sdfg.init_streams %s concurrent -> !sdfg.stream, !sdfg.stream
    %c1 = arith.constant 1 : index
    %t = sdfg.stream_token %slots#1
    %0 = gpu.launch_func async [%t] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G)
    sdfg.stream_wait %slots#0 after %slots#1
    sdfg.return
  }
}
