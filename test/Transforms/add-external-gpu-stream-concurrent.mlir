// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream='concurrent-streams=true' | FileCheck %s --check-prefix=OPTION

// Idempotent: a second run adds no wait.
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream > %t.once.mlir
// RUN: sdfg-opt %t.once.mlir -split-input-file -sdfg-add-external-gpu-stream > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// The mode off (no attribute, no option) is today's output: every slot the
// caller's stream, no wait anywhere.
// RUN: sed -e 's/attributes {sdfg.concurrent_streams}//' -e 's/, sdfg.concurrent_streams//' %s | sdfg-opt -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s --check-prefix=OFF
// OFF-NOT: concurrent
// OFF-NOT: sdfg.stream_wait

// Concurrent slots: slot 0 is the caller's stream, the others are forked
// from it. Independent kernels on two slots wait for nothing; before the
// return slot 0 joins slot 1.
!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%a: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %a[%c0] : !G
      gpu.return
    }
  }
  // CHECK-LABEL: sdfg.sdfg @independent
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent -> !sdfg.stream, !sdfg.stream
  // CHECK: sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: gpu.launch_func
  // CHECK-NOT: sdfg.stream_wait
  // CHECK: sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: sdfg.return
  sdfg.sdfg @independent(%A: !G {llvm.noalias}, %B: !G {llvm.noalias})
      target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G)
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%B : !G) {sdfg.stream_slot = 1}
    sdfg.return
  }

  // One slot: nothing to run concurrently, the attribute changes nothing.
  // CHECK-LABEL: sdfg.sdfg @one_slot
  // CHECK: sdfg.init_streams %{{[a-z_]*}} -> !sdfg.stream
  // CHECK-NOT: sdfg.stream_wait
  // CHECK: sdfg.return
  sdfg.sdfg @one_slot(%A: !G) target(gpu, streams = 1) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G)
    sdfg.return
  }

  // The option makes every program with more than one slot concurrent.
  // OPTION-LABEL: sdfg.sdfg @plain
  // OPTION: sdfg.init_streams %{{.*}} concurrent -> !sdfg.stream, !sdfg.stream
  // OPTION: sdfg.stream_wait
  // CHECK-LABEL: sdfg.sdfg @plain
  // CHECK: sdfg.init_streams %{{[a-z_]*}} -> !sdfg.stream, !sdfg.stream
  // CHECK-NOT: sdfg.stream_wait
  // CHECK: sdfg.return
  sdfg.sdfg @plain(%A: !G {llvm.noalias}, %B: !G {llvm.noalias}) target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G)
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%B : !G) {sdfg.stream_slot = 1}
    sdfg.return
  }
}

// -----

// Dependencies between slots: a read after a write on another slot (RAW),
// a write after a read on another slot (WAR), and a write after a write
// (WAW) each wait for the slot that has the conflicting work; the join
// waits only for slots that slot 0 is not ordered after yet.
!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%a: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %a[%c0] : !G
      gpu.return
    }
    gpu.func @copy(%a: !G, %b: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : !G
      memref.store %v, %b[%c0] : !G
      gpu.return
    }
  }
  // CHECK-LABEL: sdfg.sdfg @dependencies
  // CHECK: %[[S:.*]]:3 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@write{{.*}}%arg0
  // CHECK: sdfg.stream_token %[[S]]#2
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@write{{.*}}%arg1
  // RAW on A: slot 0 after slot 1 (not after slot 2, which wrote B).
  // CHECK: sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@copy
  // WAR on A (slot 0 reads it) and WAW on A (slot 1 wrote it, slot 0 is
  // after slot 1): one wait for slot 0 covers both.
  // CHECK: sdfg.stream_token %[[S]]#2
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#2 after %[[S]]#0
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@write{{.*}}%arg0
  // The join: slot 2 has work slot 0 is not after; slot 1's is covered.
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#2
  // CHECK-NEXT: sdfg.return
  sdfg.sdfg @dependencies(%A: !G {llvm.noalias}, %B: !G {llvm.noalias}, %C: !G {llvm.noalias})
      target(gpu, streams = 3) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G) {sdfg.stream_slot = 1}
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%B : !G) {sdfg.stream_slot = 2}
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G, %C : !G)
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G) {sdfg.stream_slot = 2}
    sdfg.return
  }

  // Arguments without llvm.noalias may be one buffer passed twice: the
  // write of %Y on slot 1 may overwrite what slot 0 reads through %X.
  // CHECK-LABEL: sdfg.sdfg @may_alias
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#1 after %[[S]]#0
  sdfg.sdfg @may_alias(%X: !G, %Y: !G, %Z: !G {llvm.noalias})
      target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%X : !G, %Z : !G)
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%Y : !G) {sdfg.stream_slot = 1}
    sdfg.return
  }
}

// -----

// Stream-ordered allocations: the allocation is a write on its slot, so a
// user on another slot waits for it, and the free waits for the users.
!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy(%a: !G, %b: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : !G
      memref.store %v, %b[%c0] : !G
      gpu.return
    }
  }
  // CHECK-LABEL: sdfg.sdfg @transient
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: %[[T:.*]], %{{.*}} = gpu.alloc async
  // CHECK: sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#1 after %[[S]]#0
  // CHECK-NEXT: gpu.launch_func {{.*}}args(%arg0 {{.*}}, %[[T]]
  // CHECK: sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func {{.*}}args(%[[T]] {{.*}}, %arg1
  // CHECK: sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: gpu.dealloc
  // CHECK-NOT: sdfg.stream_wait
  // CHECK: sdfg.return
  sdfg.sdfg @transient(%A: !G {llvm.noalias}, %B: !G {llvm.noalias})
      target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    %T = gpu.alloc () : !G
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G, %T : !G) {sdfg.stream_slot = 1}
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%T : !G, %B : !G) {sdfg.stream_slot = 1}
    gpu.dealloc %T : !G
    sdfg.return
  }
}

// -----

// Loops: the wait for the loop-carried reuse of A goes before the write of
// the next iteration, the one for the read in the loop body before the
// read; control flow between states is followed the same way.
!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%a: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %a[%c0] : !G
      gpu.return
    }
    gpu.func @copy(%a: !G, %b: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : !G
      memref.store %v, %b[%c0] : !G
      gpu.return
    }
  }
  // CHECK-LABEL: sdfg.sdfg @loop
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: scf.for
  // CHECK: sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#1 after %[[S]]#0
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@write
  // CHECK: sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@copy
  // CHECK: }
  // CHECK-NEXT: sdfg.return
  sdfg.sdfg @loop(%A: !G {llvm.noalias}, %B: !G {llvm.noalias}, %n: index)
      target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G) {sdfg.stream_slot = 1}
      gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G, %B : !G)
    }
    sdfg.return
  }

  // States: slot 1 writes A in one branch; the state after the join of the
  // branches reads it on slot 0 and waits; the other branch returns early
  // and joins slot 1 there.
  // CHECK-LABEL: sdfg.sdfg @states
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: cf.cond_br
  // CHECK: ^bb1:
  // CHECK: sdfg.stream_token %[[S]]#1
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@write
  // CHECK: ^bb2:
  // CHECK: sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@copy
  // CHECK-NEXT: sdfg.return
  // CHECK: ^bb3:
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: sdfg.return
  sdfg.sdfg @states(%A: !G {llvm.noalias}, %B: !G {llvm.noalias}, %c: i1)
      target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%B : !G) {sdfg.stream_slot = 1}
    cf.cond_br %c, ^bb1, ^bb3
  ^bb1:
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G) {sdfg.stream_slot = 1}
    cf.br ^bb2
  ^bb2:
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G, %B : !G)
    sdfg.return
  ^bb3:
    sdfg.return
  }
}

// -----

// A nested program called on slot 1 counts with its callee's accesses on
// that slot; a func.func declares its slots with sdfg.num_streams.
!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%a: !G) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %a[%c0] : !G
      gpu.return
    }
  }
  sdfg.sdfg private @inner(%X: !G) target(gpu, streams = 1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%X : !G)
    sdfg.return
  }
  // CHECK-LABEL: func.func @outer
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: sdfg.call @inner(%arg0, %[[S]]#1)
  // CHECK: sdfg.stream_token %[[S]]#0
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: gpu.launch_func {{.*}}@k::@write
  // CHECK-NOT: sdfg.stream_wait
  // CHECK: return
  func.func @outer(%A: !G {llvm.noalias}) attributes {sdfg.num_streams = 2 : i64, sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    sdfg.call @inner(%A) {sdfg.stream_slot = 1} : (!G) -> ()
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G)
    return
  }
}

// -----

// A callee that syncs its stream before it returns still reads A on the GPU
// during the call: the call on slot 0 waits for slot 1's write of A first.
// After it slot 0 is idle and ordered after slot 1: the return joins
// nothing more.
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
  func.func private @consume(%a: !G, %out: !G) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@read blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : !G, %out : !G)
    %t = gpu.wait async
    gpu.wait [%t]
    return
  }
  // CHECK-LABEL: sdfg.sdfg @syncing_callee
  // CHECK: %[[S:.*]]:2 = sdfg.init_streams %{{.*}} concurrent
  // CHECK: gpu.launch_func {{.*}}@k::@write
  // CHECK-NEXT: sdfg.stream_wait %[[S]]#0 after %[[S]]#1
  // CHECK-NEXT: call @consume
  // CHECK-NEXT: sdfg.return
  sdfg.sdfg @syncing_callee(%A: !G {llvm.noalias}, %B: !G {llvm.noalias})
      target(gpu, streams = 2) attributes {sdfg.concurrent_streams} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G) {sdfg.stream_slot = 1}
    func.call @consume(%A, %B) : (!G, !G) -> ()
    sdfg.return
  }
}
