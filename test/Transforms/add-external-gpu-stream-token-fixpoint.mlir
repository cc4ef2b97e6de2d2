// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream=test-omit-stream-waits=true | FileCheck %s --check-prefix=NOWAIT

// Issue 35: which chains a token stands for is solved as a data-flow
// fixpoint (TokenChains.h), so a token whose producer is written later in
// the text than the op that depends on it still orders that op: a
// loop-carried token produced later in the body (scf.for, scf.while, a cf
// loop), blocks written out of execution order. A token passed into a
// callee orders the callee's work (the call's stream waits for its chain),
// and a GPU op in sync form among token chains is blocking: it waits for
// the open chains and the chains after it wait for it. In each program, a
// chain on slot 1 writes %d and slot 0 reads it. A second run changes
// nothing; the negative control (no waits between streams) has none.
// NOWAIT-NOT: sdfg.stream_wait

// CHECK-LABEL: func.func @for_later_producer
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: scf.for
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
// CHECK-NEXT: gpu.memcpy async [%[[T]]]
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func @for_later_producer(%d: memref<16xf32, 1>, %h: memref<16xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %t0) -> (!gpu.async.token) {
      %copy = gpu.memcpy async [%it] %h, %d : memref<16xf32>, memref<16xf32, 1>
      %root = gpu.wait async
      %k = gpu.launch_func async [%root] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32, 1>)
      scf.yield %k : !gpu.async.token
    }
    gpu.wait [%r]
    return
  }
}

// -----

// CHECK-LABEL: func.func @while_later_producer
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: scf.while
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
// CHECK-NEXT: gpu.memcpy async [%[[T]]]
// CHECK: } do {
// CHECK: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK: sdfg.sync %[[S]]#0
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func @while_later_producer(%d: memref<16xf32, 1>, %h: memref<16xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r = scf.while (%it = %t0) : (!gpu.async.token) -> !gpu.async.token {
      %copy = gpu.memcpy async [%it] %h, %d : memref<16xf32>, memref<16xf32, 1>
      scf.condition(%p) %copy : !gpu.async.token
    } do {
    ^bb0(%t: !gpu.async.token):
      %root = gpu.wait async
      %k = gpu.launch_func async [%root] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32, 1>)
      scf.yield %k : !gpu.async.token
    }
    gpu.wait [%r]
    return
  }
}

// -----

// CHECK-LABEL: func.func @cf_loop
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: ^bb1(%{{.*}}: !gpu.async.token):
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
// CHECK-NEXT: gpu.memcpy async [%[[T]]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func @cf_loop(%d: memref<16xf32, 1>, %h: memref<16xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    cf.br ^loop(%t0 : !gpu.async.token)
  ^loop(%it: !gpu.async.token):
    %copy = gpu.memcpy async [%it] %h, %d : memref<16xf32>, memref<16xf32, 1>
    %root = gpu.wait async
    %k = gpu.launch_func async [%root] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32, 1>)
    cf.cond_br %p, ^loop(%k : !gpu.async.token), ^done
  ^done:
    gpu.wait [%copy, %k]
    return
  }
}

// -----

// CHECK-LABEL: func.func @blocks_out_of_order
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: ^bb1(%{{.*}}: !gpu.async.token):
// CHECK-NEXT: sdfg.stream_token %[[S]]#0
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
// CHECK-NEXT: gpu.memcpy async [%[[T]]]
// CHECK: ^bb2:
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func @blocks_out_of_order(%d: memref<16xf32, 1>, %h: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    cf.br ^produce
  ^consume(%written: !gpu.async.token):
    %mine = gpu.wait async
    %copy = gpu.memcpy async [%mine, %written] %h, %d : memref<16xf32>, memref<16xf32, 1>
    gpu.wait [%copy]
    return
  ^produce:
    %root = gpu.wait async
    %k = gpu.launch_func async [%root] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32, 1>)
    cf.br ^consume(%k : !gpu.async.token)
  }
}

// -----

// The callee's copy runs on the stream the call passes (slot 0), which
// waits for slot 1 before the call.
// CHECK-LABEL: func.func private @copy_after
// CHECK-SAME: (%{{.*}}: !gpu.async.token, %{{.*}}: memref<16xf32, 1>, %{{.*}}: memref<16xf32>, %[[A:.*]]: !sdfg.stream {sdfg.external_stream
// CHECK: %[[S:.*]] = sdfg.init_streams %[[A]]
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]
// CHECK-NEXT: gpu.memcpy async [%[[T]]]
// CHECK-LABEL: func.func @token_into_callee
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: gpu.launch_func async
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: call @copy_after(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]]#0)
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func private @copy_after(%after: !gpu.async.token, %d: memref<16xf32, 1>, %h: memref<16xf32>) {
    %copy = gpu.memcpy async [%after] %h, %d : memref<16xf32>, memref<16xf32, 1>
    gpu.wait [%copy]
    return
  }
  func.func @token_into_callee(%d: memref<16xf32, 1>, %h: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %mine = gpu.wait async
    %root = gpu.wait async
    %k = gpu.launch_func async [%root] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32, 1>)
    func.call @copy_after(%k, %d, %h) : (!gpu.async.token, memref<16xf32, 1>, memref<16xf32>) -> ()
    gpu.wait [%mine]
    return
  }
}

// -----

// A GPU op in sync form among token chains: it waits for the chain open
// before it (slot 1's write), and the chain that starts after it (slot 2)
// waits for it before its copy.
// CHECK-LABEL: func.func @sync_form_then_chain
// CHECK: %[[S:.*]]:3 = sdfg.init_streams %{{.*}} concurrent
// CHECK: gpu.launch_func async [%{{.*}}] @k::@write
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
// CHECK-NEXT: gpu.launch_func async [%[[T]]] @k::@write
// CHECK-NEXT: sdfg.stream_wait %[[S]]#2 after %[[S]]#0
// CHECK: %[[T:.*]] = sdfg.stream_token %[[S]]#2
// CHECK-NEXT: gpu.memcpy async [%[[T]]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func @sync_form_then_chain(%d: memref<16xf32, 1>, %h: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %mine = gpu.wait async
    %root = gpu.wait async
    %k = gpu.launch_func async [%root] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32, 1>)
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32, 1>)
    %late = gpu.wait async
    %copy = gpu.memcpy async [%late] %h, %d : memref<16xf32>, memref<16xf32, 1>
    gpu.wait [%mine, %copy]
    return
  }
}
