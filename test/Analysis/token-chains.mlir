// RUN: sdfg-opt %s -test-sdfg-token-chains 2>&1 >/dev/null | FileCheck %s
// RUN: sdfg-opt %s -test-sdfg-token-chains=interprocedural=false 2>&1 >/dev/null | FileCheck %s --check-prefix=LOCAL

// TokenChains (TokenChains.h) on programs whose streams are set up by hand
// (sdfg.init_streams first, so that its slots print as %0#0 and %0#1): the
// chains a token stands for do not depend on the order in which ops are
// written. A tagged op prints the chains of its token results, the stream
// it runs on and the chains it waits for.

!G = memref<16xf32, 1>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: !G) kernel { gpu.return }
  }

  // scf.for: the loop-carried token's producer (a chain slot 1 starts) comes
  // later in the body than its consumer, which runs on slot 0 (the chains
  // of its one dependency are two) and waits for slot 1.
  // CHECK-LABEL: function @for_later_producer
  // CHECK-NEXT: loop: {%0#0, %0#1}
  // CHECK-NEXT: consume: {%0#0} on %0#0 waits %0#1
  // CHECK-NEXT: produce: {%0#1} on %0#1 waits{{$}}
  func.func @for_later_producer(%m: !G, %h: memref<16xf32>, %n: index, %stream: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.num_streams = 2 : i64} {
    %s:2 = sdfg.init_streams %stream concurrent -> !sdfg.stream, !sdfg.stream
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %t0) -> (!gpu.async.token) {
      %c = gpu.memcpy async [%it] %h, %m : memref<16xf32>, !G {test.tag = "consume"}
      %root = gpu.wait async {sdfg.stream_slot = 1}
      %k = gpu.launch_func async [%root] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !G) {test.tag = "produce"}
      scf.yield %k : !gpu.async.token
    } {test.tag = "loop"}
    gpu.wait [%r]
    return
  }

  // scf.while: the token the before region gets back is produced at the
  // end of the after region, on slot 1; what leaves the loop is the
  // consumer's, which waited for it.
  // CHECK-LABEL: function @while_later_producer
  // CHECK-NEXT: consume: {%0#0} on %0#0 waits %0#1
  // CHECK-NEXT: after: {%0#0} on %0#0 waits{{$}}
  func.func @while_later_producer(%m: !G, %h: memref<16xf32>, %p: i1, %stream: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.num_streams = 2 : i64} {
    %s:2 = sdfg.init_streams %stream concurrent -> !sdfg.stream, !sdfg.stream
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r = scf.while (%it = %t0) : (!gpu.async.token) -> !gpu.async.token {
      %c = gpu.memcpy async [%it] %h, %m : memref<16xf32>, !G {test.tag = "consume"}
      scf.condition(%p) %c : !gpu.async.token
    } do {
    ^bb0(%t: !gpu.async.token):
      %root = gpu.wait async {sdfg.stream_slot = 1}
      %k = gpu.launch_func async [%root, %t] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !G)
      scf.yield %k : !gpu.async.token
    }
    %d = gpu.wait async [%r] {test.tag = "after"}
    gpu.wait [%d]
    return
  }

  // A cf loop: the block argument gets the entry's chain and the back
  // edge's, produced later in the block.
  // CHECK-LABEL: function @cf_loop
  // CHECK-NEXT: consume: {%0#0} on %0#0 waits %0#1
  func.func @cf_loop(%m: !G, %h: memref<16xf32>, %p: i1, %stream: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.num_streams = 2 : i64} {
    %s:2 = sdfg.init_streams %stream concurrent -> !sdfg.stream, !sdfg.stream
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    cf.br ^loop(%t0 : !gpu.async.token)
  ^loop(%t: !gpu.async.token):
    %c = gpu.memcpy async [%t] %h, %m : memref<16xf32>, !G {test.tag = "consume"}
    %root = gpu.wait async {sdfg.stream_slot = 1}
    %k = gpu.launch_func async [%root] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !G)
    cf.cond_br %p, ^loop(%k : !gpu.async.token), ^exit
  ^exit:
    gpu.wait [%c]
    return
  }

  // Blocks written out of execution order: the consumer's block comes
  // first in the text, its token's producer (slot 1) runs first.
  // CHECK-LABEL: function @blocks_out_of_order
  // CHECK-NEXT: consume: {%0#1} on %0#1 waits{{$}}
  // CHECK-NEXT: join: {%0#0} on %0#0 waits %0#1
  func.func @blocks_out_of_order(%m: !G, %h: memref<16xf32>, %stream: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.num_streams = 2 : i64} {
    %s:2 = sdfg.init_streams %stream concurrent -> !sdfg.stream, !sdfg.stream
    %c1 = arith.constant 1 : index
    cf.br ^produce
  ^consume(%t: !gpu.async.token):
    %c = gpu.memcpy async [%t] %h, %m : memref<16xf32>, !G {test.tag = "consume"}
    %t0 = gpu.wait async
    %j = gpu.wait async [%t0, %c] {test.tag = "join"}
    gpu.wait [%j]
    return
  ^produce:
    %root = gpu.wait async {sdfg.stream_slot = 1}
    %k = gpu.launch_func async [%root] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !G)
    cf.br ^consume(%k : !gpu.async.token)
  }

  // A token passed into a callee: interprocedurally its argument carries
  // the caller's chain in (which the call waits for: the callee's work
  // then runs on its own entry stream); without entering callees it stands
  // for no chain. The call's result stands for the call's stream and the
  // token it was given.
  // CHECK-LABEL: function @callee
  // CHECK-NEXT: %arg0: {@caller::%0#1}
  // CHECK-NEXT: in_callee: {%0} on %0 waits{{$}}
  // CHECK-LABEL: function @caller
  // CHECK-NEXT: call: {%0#1, %0#0} on %0#0 waits %0#1
  // LOCAL-LABEL: function @callee
  // LOCAL-NEXT: %arg0: {}
  // LOCAL-NEXT: in_callee: {%0} on %0 waits{{$}}
  // LOCAL-LABEL: function @caller
  // LOCAL-NEXT: call: {%0#1, %0#0} on %0#0 waits %0#1
  func.func private @callee(%t: !gpu.async.token, %m: !G, %stream: !sdfg.stream {sdfg.external_stream = "s"}) -> !gpu.async.token {
    %s = sdfg.init_streams %stream -> !sdfg.stream
    %c1 = arith.constant 1 : index
    %k = gpu.launch_func async [%t] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !G) {test.tag = "in_callee"}
    return %k : !gpu.async.token
  }
  func.func @caller(%m: !G, %stream: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.num_streams = 2 : i64} {
    %s:2 = sdfg.init_streams %stream concurrent -> !sdfg.stream, !sdfg.stream
    %c1 = arith.constant 1 : index
    %root = gpu.wait async {sdfg.stream_slot = 1}
    %k = gpu.launch_func async [%root] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !G)
    %r = func.call @callee(%k, %m, %s#0) {test.tag = "call"} : (!gpu.async.token, !G, !sdfg.stream) -> !gpu.async.token
    gpu.wait [%r]
    return
  }

  // async.execute regions: a token yielded by one region reaches another
  // as an !async.value, and the host after them through async.await.
  // CHECK-LABEL: function @async_regions
  // CHECK-NEXT: inner: {%0#1} on %0#1 waits{{$}}
  // CHECK-NEXT: await: {%0#1}
  // CHECK-NEXT: last: {%0#0} on %0#0 waits %0#1
  func.func @async_regions(%m: !G, %h: memref<16xf32>, %stream: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.num_streams = 2 : i64} {
    %s:2 = sdfg.init_streams %stream concurrent -> !sdfg.stream, !sdfg.stream
    %c1 = arith.constant 1 : index
    %a, %v = async.execute -> !async.value<!gpu.async.token> {
      %root = gpu.wait async {sdfg.stream_slot = 1}
      %k = gpu.launch_func async [%root] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !G)
      async.yield %k : !gpu.async.token
    }
    %b, %w = async.execute (%v as %x: !async.value<!gpu.async.token>) -> !async.value<!gpu.async.token> {
      %c = gpu.memcpy async [%x] %h, %m : memref<16xf32>, !G {test.tag = "inner"}
      async.yield %c : !gpu.async.token
    }
    %r = async.await %w : !async.value<!gpu.async.token> {test.tag = "await"}
    %d = gpu.memcpy async [%r] %m, %h : !G, memref<16xf32> {sdfg.stream_slot = 0, test.tag = "last"}
    gpu.wait [%d]
    return
  }
}
