// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream=serialize-async=true | FileCheck %s --check-prefix=SERIAL
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-add-external-gpu-stream | FileCheck %s

// Token chains (issue 23): in a program in upstream's async form, each GPU
// op with a token and no dependencies starts a chain, and each chain gets a
// concurrent slot (the first the caller's stream, the others forked from
// it). Ops follow their first dependency's chain through regions and
// blocks, wait for the other chains they depend on, a blocking gpu.wait
// syncs the chains it names, and every chain is joined into the caller's
// stream before the return. With serialize-async=true everything is on the
// caller's one stream, as before. A second run changes nothing.

// Two kernels that must run at once (upstream's concurrent-kernels shape):
// two slots, no wait between them although they share %flags.
// CHECK-LABEL: func.func @concurrent_kernels
// CHECK-SAME: attributes {sdfg.concurrent_streams, sdfg.num_streams = 2 : i64, sdfg.token_chains}
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent -> !sdfg.stream, !sdfg.stream
// CHECK: %[[T0:.*]] = sdfg.stream_token %[[S]]#0
// CHECK: %[[T1:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NOT: sdfg.stream_wait
// CHECK: gpu.launch_func async [%[[T0]]]
// CHECK-NOT: sdfg.stream_wait
// CHECK: gpu.launch_func async [%[[T1]]]
// CHECK-NEXT: sdfg.sync %[[S]]#0, %[[S]]#1
// CHECK-NEXT: return
// SERIAL-LABEL: func.func @concurrent_kernels
// SERIAL-NOT: sdfg.concurrent_streams
// SERIAL: %[[S:.*]] = sdfg.init_streams %{{.*}} -> !sdfg.stream
// SERIAL-NOT: concurrent
// SERIAL: sdfg.sync %[[S]]
// SERIAL-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @meet(%flags: memref<2xi32>, %me: index) kernel {
      gpu.return
    }
  }
  func.func @concurrent_kernels(%flags: memref<2xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @k::@meet blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%flags : memref<2xi32>, %c0 : index)
    %k1 = gpu.launch_func async [%t1] @k::@meet blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%flags : memref<2xi32>, %c1 : index)
    gpu.wait [%k0, %k1]
    return
  }
}

// -----

// A join (an op depending on both chains) waits for the other chain's
// stream; no blocking wait before the return, so the return joins what is
// pending: here nothing more, slot 0 already waited for slot 1.
// CHECK-LABEL: func.func @join_then_return
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: gpu.launch_func async
// CHECK: gpu.launch_func async
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#0
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK-NEXT: return
// A chain left running at the return is joined there.
// CHECK-LABEL: func.func @left_running
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: gpu.launch_func async
// CHECK: gpu.launch_func async
// CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @join_then_return(%a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %k1 = gpu.launch_func async [%t1] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    %j = gpu.wait async [%k0, %k1]
    %k2 = gpu.launch_func async [%j] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    return
  }
  func.func @left_running(%a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %k1 = gpu.launch_func async [%t1] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    return
  }
}

// -----

// A chain keeps its slot through scf.for iter_args, scf.if results and cf
// block arguments; an op depending on both chains runs on its first
// dependency's and waits for the other.
// CHECK-LABEL: func.func @through_regions
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: scf.for
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK: scf.if
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK: gpu.launch_func async [%{{.*}}] @k::@f {{.*}} args(%arg0
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK-NEXT: sdfg.sync %[[S]]#0, %[[S]]#1
// CHECK-LABEL: func.func @through_blocks
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: ^bb1(%{{.*}}: !gpu.async.token):
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK: ^bb3(%{{.*}}: !gpu.async.token):
// CHECK-NEXT: gpu.launch_func async
// CHECK-NEXT: sdfg.stream_wait %[[S]]#1 after %[[S]]#0
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK-NEXT: sdfg.sync %[[S]]#1
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @through_regions(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %p: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t1) -> (!gpu.async.token) {
      %k = gpu.launch_func async [%t] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
      scf.yield %k : !gpu.async.token
    }
    %s = scf.if %p -> (!gpu.async.token) {
      %k = gpu.launch_func async [%r] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
      scf.yield %k : !gpu.async.token
    } else {
      scf.yield %r : !gpu.async.token
    }
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %k3 = gpu.launch_func async [%s] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    gpu.wait [%k0, %k3]
    return
  }  func.func @through_blocks(%a: memref<?xf32>, %b: memref<?xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    cf.cond_br %p, ^x(%t1 : !gpu.async.token), ^y(%t1 : !gpu.async.token)
  ^x(%tx: !gpu.async.token):
    %kx = gpu.launch_func async [%tx] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    cf.br ^z(%kx : !gpu.async.token)
  ^y(%ty: !gpu.async.token):
    cf.br ^z(%ty : !gpu.async.token)
  ^z(%tz: !gpu.async.token):
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %kz = gpu.launch_func async [%tz, %k0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    gpu.wait [%kz]
    return
  }}

// -----

// A chain that a blocking wait finished frees its slot for the chains that
// start after that wait: after it, in its block, or after the loop whose
// body holds it. So upstream's gpu-async-region shape (one chain per run
// of GPU work, each waited for) needs one slot: nothing changes.
// CHECK-LABEL: func.func @reuse
// CHECK-SAME: sdfg.num_streams = 2
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: gpu.launch_func async
// CHECK: gpu.launch_func async
// CHECK-NEXT: sdfg.sync %[[S]]#1
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK-NEXT: sdfg.sync %[[S]]#0, %[[S]]#1
// CHECK-LABEL: func.func @one_at_a_time
// CHECK-NOT: sdfg.num_streams
// CHECK-NOT: concurrent
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @reuse(%a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %k1 = gpu.launch_func async [%t1] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    gpu.wait [%k1]
    %t2 = gpu.wait async
    %k2 = gpu.launch_func async [%t2] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    gpu.wait [%k0, %k2]
    return
  }  func.func @one_at_a_time(%a: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.wait [%k0]
    scf.for %i = %c0 to %n step %c1 {
      %t1 = gpu.wait async
      %k1 = gpu.launch_func async [%t1] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
      gpu.wait [%k1]
    }
    %t2 = gpu.wait async
    %k2 = gpu.launch_func async [%t2] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.wait [%k2]
    return
  }
}

// -----

// Slots of the program's own (hand-placed, or an sdfg.sdfg with streams)
// are left as they are: only the slot attributes decide.
// CHECK-LABEL: func.func @hand_placed
// CHECK-NOT: concurrent
// CHECK: return
// CHECK-LABEL: sdfg.sdfg @two_slots
// CHECK: sdfg.init_streams %{{.*}} -> !sdfg.stream, !sdfg.stream
// CHECK-NOT: concurrent
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @hand_placed(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async {sdfg.stream_slot = 0 : i64}
    %t1 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %k1 = gpu.launch_func async [%t1] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.wait [%k0, %k1]
    return
  }
  sdfg.sdfg @two_slots(%a: memref<?xf32>) target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %k1 = gpu.launch_func async [%t1] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.wait [%k0, %k1]
    sdfg.return
  }
}

// -----

// Through scf.while (its iter_args and results) and through a call that
// returns a token it is given: the chain keeps its slot, and the launch
// after the call stays on it (before, the token was lost at the call and
// the launch ran on the caller's stream without waiting for the loop's).
// CHECK-LABEL: func.func @through_while_and_call
// CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
// CHECK: scf.while
// CHECK: } do {
// CHECK: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK: call @pass_token
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T]]]
// CHECK-NEXT: sdfg.sync %[[S]]#0, %[[S]]#1
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func private @pass_token(%t: !gpu.async.token) -> !gpu.async.token {
    return %t : !gpu.async.token
  }
  func.func @through_while_and_call(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %w:2 = scf.while (%i = %c0, %t = %t1) : (index, !gpu.async.token) -> (index, !gpu.async.token) {
      %more = arith.cmpi ult, %i, %n : index
      scf.condition(%more) %i, %t : index, !gpu.async.token
    } do {
    ^bb0(%i: index, %t: !gpu.async.token):
      %k = gpu.launch_func async [%t] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
      %next = arith.addi %i, %c1 : index
      scf.yield %next, %k : index, !gpu.async.token
    }
    %k0 = gpu.launch_func async [%t0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %c = func.call @pass_token(%w#1) : (!gpu.async.token) -> !gpu.async.token
    %k2 = gpu.launch_func async [%c] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    gpu.wait [%k0, %k2]
    return
  }
}
