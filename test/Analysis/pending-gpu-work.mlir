// RUN: sdfg-opt %s -test-sdfg-pending-gpu-work=mode=host-syncs 2>&1 >/dev/null | FileCheck %s --check-prefix=HOST
// RUN: sdfg-opt %s -test-sdfg-pending-gpu-work=mode=slot-ordering 2>&1 >/dev/null | FileCheck %s --check-prefix=SLOTS
// RUN: sdfg-opt %s -test-sdfg-pending-gpu-work=mode=exit-state 2>&1 >/dev/null | FileCheck %s --check-prefix=EXIT
// RUN: not sdfg-opt %s -test-sdfg-pending-gpu-work=mode=sideways 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: unknown mode 'sideways'

// Slot 1 writes A; a callee on slot 0 reads A on the GPU and syncs its
// stream before it returns. The input is a program on its streams, as
// sdfg-add-external-gpu-stream makes it before it orders the slots. The call's
// GPU read must wait for slot 1 (it did not, when a syncing callee's
// accesses were dropped); after the wait and the callee's sync nothing is
// pending on either slot, so the return joins nothing.
!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%a: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %a[%c0] : !G
      gpu.return
    }
    gpu.func @read(%a: !G, %out: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : !G
      memref.store %v, %out[%c0] : !G
      gpu.return
    }
  }
  func.func private @consume(%a: !G, %out: !G, %stream: !sdfg.stream {sdfg.external_stream = "s"}) {
    %s = sdfg.init_streams %stream -> !sdfg.stream
    %c1 = arith.constant 1 : index
    %t = sdfg.stream_token %s
    %done = gpu.launch_func async [%t] @k::@read blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : !G, %out : !G)
    sdfg.sync %s
    return
  }
  // SLOTS-LABEL: function @producer_consumer
  // SLOTS-SAME: streams %[[S:.*]]#0 %[[S]]#1
  // SLOTS-NEXT: write: {} waits{{$}}
  // SLOTS-NEXT: call: {(%[[S]]#1; arg 0 noalias device; write), (%[[S]]#1; work)} waits %[[S]]#0<-%[[S]]#1{{$}}
  // SLOTS-NEXT: return: {} waits join{{$}}
  //
  // Host syncs: the host touches nothing, so nothing is synced; the call
  // leaves slot 0 idle, but slot 1's write (no wait orders it before the
  // call in this mode) stays pending.
  // HOST-LABEL: function @producer_consumer
  // HOST-NEXT: write: {} sync{{$}}
  // HOST-NEXT: call: {(%[[S:.*]]#1; arg 0 noalias device; write)} sync{{$}}
  // HOST-NEXT: return: {(%[[S]]#1; arg 0 noalias device; write)} sync{{$}}
  //
  // As written (no waits added), slot 1 still has work at the return;
  // slot 0 is idle (the callee synced it, after the caller's earlier work).
  // EXIT-LABEL: function @consume
  // EXIT: idle at exit: %{{.*}}
  // EXIT-LABEL: function @producer_consumer
  // EXIT-SAME: streams %[[S:.*]]#0 %[[S]]#1
  // EXIT: return: {(%[[S]]#1; arg 0 noalias device; write), (%[[S]]#1; work)}
  // EXIT-NEXT: idle at exit: %[[S]]#0{{$}}
  sdfg.sdfg @producer_consumer(%A: !G {llvm.noalias}, %B: !G {llvm.noalias}, %stream: !sdfg.stream {sdfg.external_stream = "s"})
      target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %s:2 = sdfg.init_streams %stream concurrent -> !sdfg.stream, !sdfg.stream
    %c1 = arith.constant 1 : index
    %t = sdfg.stream_token %s#1
    %done = gpu.launch_func async [%t] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G) {sdfg.stream_slot = 1, test.tag = "write"}
    func.call @consume(%A, %B, %s#0) {test.tag = "call"} : (!G, !G, !sdfg.stream) -> ()
    sdfg.return {test.tag = "return"}
  }
}
