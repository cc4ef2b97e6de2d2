// Tokens keep their stream through every region and block (issue 22, class
// 2): a token that flows through scf.if results, scf.for iter_args,
// scf.while, cf block arguments or call results still orders what depends
// on it. With concurrent slots, an op that names no slot runs on the stream
// of its first dependency (as upstream's lowering runs it), and one on
// another slot waits for it.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @a(%m: memref<16xf32, 1>) kernel { gpu.return }
    gpu.func @b(%m: memref<16xf32, 1>) kernel { gpu.return }
  }

  // CHECK-LABEL: sdfg.sdfg @through_if
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams
  // CHECK: %[[T1:.*]] = sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func async [%[[T1]]] @k::@a
  // CHECK: scf.if
  // CHECK: } else {
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[T2:.*]] = sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func async [%[[T2]]] @k::@b
  // An op that names slot 0 waits for slot 1.
  // CHECK: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: %[[T3:.*]] = sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: gpu.launch_func async [%[[T3]]] @k::@a
  sdfg.sdfg @through_if(%m: memref<16xf32, 1>, %c: i1) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    %t0 = gpu.launch_func async @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 1}
    %t = scf.if %c -> !gpu.async.token {
      scf.yield %t0 : !gpu.async.token
    } else {
      %t1 = gpu.wait async [%t0]
      scf.yield %t1 : !gpu.async.token
    }
    %t2 = gpu.launch_func async [%t] @k::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>)
    %t3 = gpu.launch_func async [%t2] @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 0}
    gpu.wait [%t3]
    sdfg.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @a(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  // The loop's launch depends on the iter_arg, which starts as slot 1's
  // token: it stays on slot 1 (it was moved to the caller's stream, with no
  // wait); after the loop, slot 0 waits for slot 1.
  // CHECK-LABEL: sdfg.sdfg @through_for
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams
  // CHECK: scf.for
  // CHECK: %[[T:.*]] = sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @k::@a
  // CHECK: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: %[[T2:.*]] = sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: gpu.launch_func async [%[[T2]]] @k::@a
  sdfg.sdfg @through_for(%m: memref<16xf32, 1>, %n: index) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.launch_func async @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 1}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %t0) -> !gpu.async.token {
      %t1 = gpu.launch_func async [%it] @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>)
      scf.yield %t1 : !gpu.async.token
    }
    %t3 = gpu.launch_func async [%r] @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 0}
    gpu.wait [%t3]
    sdfg.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @a(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  // scf.while carrying the token in both regions.
  // CHECK-LABEL: sdfg.sdfg @through_while
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams
  // CHECK: scf.while
  // CHECK: } do {
  // CHECK: %[[T:.*]] = sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @k::@a
  // CHECK: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: sdfg.stream_token %[[S]]#0
  sdfg.sdfg @through_while(%m: memref<16xf32, 1>, %c: i1) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    %t0 = gpu.launch_func async @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 1}
    %r = scf.while (%it = %t0) : (!gpu.async.token) -> !gpu.async.token {
      scf.condition(%c) %it : !gpu.async.token
    } do {
    ^bb0(%t: !gpu.async.token):
      %t1 = gpu.launch_func async [%t] @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>)
      scf.yield %t1 : !gpu.async.token
    }
    %t3 = gpu.launch_func async [%r] @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 0}
    gpu.wait [%t3]
    sdfg.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @a(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  // A cf block argument.
  // CHECK-LABEL: sdfg.sdfg @through_cf
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams
  // CHECK: ^bb1(
  // CHECK: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @k::@a
  sdfg.sdfg @through_cf(%m: memref<16xf32, 1>, %c: i1) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    %t0 = gpu.launch_func async @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 1}
    cf.cond_br %c, ^bb1(%t0 : !gpu.async.token), ^bb1(%t0 : !gpu.async.token)
  ^bb1(%t: !gpu.async.token):
    %t2 = gpu.launch_func async [%t] @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 0}
    gpu.wait [%t2]
    sdfg.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @a(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  // A callee that returns the token of its work; the caller calls it on
  // slot 1 and depends on the result from slot 0.
  func.func private @enqueue(%m: memref<16xf32, 1>) -> !gpu.async.token {
    %c1 = arith.constant 1 : index
    %t = gpu.launch_func async @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>)
    return %t : !gpu.async.token
  }
  // CHECK-LABEL: sdfg.sdfg @through_call
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams
  // CHECK: call @enqueue(%{{.*}}, %[[S]]#1)
  // CHECK: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @k::@a
  sdfg.sdfg @through_call(%m: memref<16xf32, 1>) target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    %t0 = func.call @enqueue(%m) {sdfg.stream_slot = 1} : (memref<16xf32, 1>) -> !gpu.async.token
    %t2 = gpu.launch_func async [%t0] @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>) {sdfg.stream_slot = 0}
    gpu.wait [%t2]
    sdfg.return
  }
}
