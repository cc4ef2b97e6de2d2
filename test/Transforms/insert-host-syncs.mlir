// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// Idempotent: the syncs it inserted make a second run insert nothing.
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs -sdfg-insert-host-syncs | FileCheck %s

// A state reads a D2H copy's destination: one sync right before the load.
// CHECK-LABEL: sdfg.sdfg @read_after_copy
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync %[[SLOT]]
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @read_after_copy(%D: memref<4xf32, 1>, %H: memref<4xf32>, %out: memref<f32>) target(gpu) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %H, %D : memref<4xf32>, memref<4xf32, 1>
  %v = memref.load %H[%c0] : memref<4xf32>
  %w = memref.load %H[%c0] : memref<4xf32>
  %s = arith.addf %v, %w : f32
  memref.store %s, %out[] : memref<f32>
  sdfg.return
}

// -----

// No host read follows: no sync at all (a copy to the host that only later
// GPU work or the caller reads).
// CHECK-LABEL: sdfg.sdfg @no_read
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @no_read(%D: memref<4xf32, 1>, %H: memref<4xf32>) target(gpu) {
  gpu.memcpy %H, %D : memref<4xf32>, memref<4xf32, 1>
  gpu.memcpy %D, %H : memref<4xf32, 1>, memref<4xf32>
  sdfg.return
}

// -----

// Device-only data needs no sync before host work.
// CHECK-LABEL: sdfg.sdfg @device_only
// CHECK-NOT: sdfg.sync
sdfg.sdfg @device_only(%D: memref<4xf32, 1>, %E: memref<4xf32, 1>, %H: memref<4xf32>) target(gpu) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %E, %D : memref<4xf32, 1>, memref<4xf32, 1>
  %v = memref.load %H[%c0] : memref<4xf32>
  sdfg.return
}

// -----

// A value that only feeds a conditional interstate edge, read in the state
// after the one that copied it.
// CHECK-LABEL: sdfg.sdfg @branch_condition
// CHECK: gpu.memcpy async
// CHECK-NEXT: cf.br ^[[CHECK_STATE:.*]]
// CHECK: ^[[CHECK_STATE]]:
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NEXT: cf.cond_br
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @branch_condition(%D: memref<i1, 1>, %H: memref<i1>) target(gpu) {
  gpu.memcpy %H, %D : memref<i1>, memref<i1, 1>
  cf.br ^check
^check:
  %stop = memref.load %H[] : memref<i1>
  cf.cond_br %stop, ^done, ^more
^more:
  cf.br ^done
^done:
  sdfg.return
}

// -----

// Paths that copy and paths that do not meet before the read: one sync
// after the join serves both.
// CHECK-LABEL: sdfg.sdfg @join
// CHECK: ^bb3:
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @join(%D: memref<f32, 1>, %H: memref<f32>, %c: i1) target(gpu) {
  cf.cond_br %c, ^copy, ^skip
^copy:
  gpu.memcpy %H, %D : memref<f32>, memref<f32, 1>
  cf.br ^read
^skip:
  cf.br ^read
^read:
  %v = memref.load %H[] : memref<f32>
  sdfg.return
}

// -----

// A loop bound read from a copied value, and a loop that reads pending
// results it does not write: the sync sits outside the loop.
// CHECK-LABEL: sdfg.sdfg @loop_bound_and_hoisting
// CHECK: gpu.memcpy async
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NEXT: scf.for
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @loop_bound_and_hoisting(%D: memref<index, 1>, %V: memref<8xf32, 1>, %n: memref<index>, %H: memref<8xf32>, %acc: memref<f32>) target(gpu) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.memcpy %n, %D : memref<index>, memref<index, 1>
  gpu.memcpy %H, %V : memref<8xf32>, memref<8xf32, 1>
  %bound = memref.load %n[] : memref<index>
  scf.for %i = %c0 to %bound step %c1 {
    %x = memref.load %H[%i] : memref<8xf32>
    memref.store %x, %acc[] : memref<f32>
  }
  sdfg.return
}

// -----

// A loop that reads pending results it does not write: the sync is hoisted
// out of the loop (and out of the loop nest).
// CHECK-LABEL: sdfg.sdfg @hoisted
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: scf.for
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @hoisted(%V: memref<8xf32, 1>, %H: memref<8xf32>, %acc: memref<f32>, %n: index) target(gpu) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.memcpy %H, %V : memref<8xf32>, memref<8xf32, 1>
  scf.for %j = %c0 to %n step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %H[%i] : memref<8xf32>
      memref.store %x, %acc[] : memref<f32>
    }
  }
  sdfg.return
}

// -----

// GPU work inside the loop that the loop then reads: the sync must be inside,
// after the copy, every iteration.
// CHECK-LABEL: sdfg.sdfg @loop_with_gpu_work
// CHECK: scf.for
// CHECK-NEXT: sdfg.stream_token
// CHECK-NEXT: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @loop_with_gpu_work(%D: memref<f32, 1>, %H: memref<f32>, %acc: memref<f32>, %n: index) target(gpu) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.memcpy %H, %D : memref<f32>, memref<f32, 1>
    %x = memref.load %H[] : memref<f32>
    memref.store %x, %acc[] : memref<f32>
  }
  sdfg.return
}

// -----

// Reads inside nested regions, through views and calls: the call reads the
// view; building the view is no read.
// CHECK-LABEL: sdfg.sdfg @nested_and_views
// CHECK: gpu.memcpy async
// CHECK-NEXT: scf.if
// CHECK-NEXT: memref.subview
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: func.call @consume
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
func.func private @consume(memref<2xf32, strided<[1], offset: 2>>)
sdfg.sdfg @nested_and_views(%D: memref<4xf32, 1>, %H: memref<4xf32>, %c: i1) target(gpu) {
  gpu.memcpy %H, %D : memref<4xf32>, memref<4xf32, 1>
  scf.if %c {
    %view = memref.subview %H[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
    func.call @consume(%view) : (memref<2xf32, strided<[1], offset: 2>>) -> ()
  }
  sdfg.return
}

// -----

// Host-mapped memory written by a kernel is pending too; an existing sync is
// taken into account.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @write(%H: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %H[%c0] : memref<4xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: sdfg.sdfg @mapped
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  // CHECK-NOT: sdfg.sync
  // CHECK: sdfg.return
  sdfg.sdfg @mapped(%H: memref<4xf32>) target(gpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%H : memref<4xf32>)
    %a = memref.load %H[%c0] : memref<4xf32>
    gpu.launch_func @kernels::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%H : memref<4xf32>)
    gpu.wait
    %b = memref.load %H[%c0] : memref<4xf32>
    sdfg.return
  }
}

// -----

// A nested program may leave its copies pending: the caller syncs before it
// reads what it passed.
// CHECK-LABEL: sdfg.sdfg @caller
// CHECK: sdfg.call @callee
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
sdfg.sdfg private @callee(%D: memref<f32, 1>, %H: memref<f32>) target(gpu) {
  gpu.memcpy %H, %D : memref<f32>, memref<f32, 1>
  sdfg.return
}
sdfg.sdfg @caller(%D: memref<f32, 1>, %H: memref<f32>) target(gpu) {
  sdfg.call @callee(%D, %H) : (memref<f32, 1>, memref<f32>) -> ()
  %v = memref.load %H[] : memref<f32>
  sdfg.return
}

// -----

// A loop of states (a back edge in the state machine) that only reads a
// result copied before it: one sync, on the edge into the loop.
// CHECK-LABEL: sdfg.sdfg @state_loop_hoisted
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: cf.br ^[[GUARD:bb[0-9]+]]
// CHECK: ^[[GUARD]](
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @state_loop_hoisted(%D: memref<8xf32, 1>, %H: memref<8xf32>, %acc: memref<f32>, %n: index) target(gpu) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %H, %D : memref<8xf32>, memref<8xf32, 1>
  cf.br ^guard(%c0 : index)
^guard(%i: index):
  %more = arith.cmpi ult, %i, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %x = memref.load %H[%i] : memref<8xf32>
  memref.store %x, %acc[] : memref<f32>
  %c1 = arith.constant 1 : index
  %next = arith.addi %i, %c1 : index
  cf.br ^guard(%next : index)
^exit:
  sdfg.return
}

// -----

// The loop condition itself reads a copied value (the loop bound), and the
// nested state loop reads another: both syncs leave both loops (one sync,
// before the outer loop).
// CHECK-LABEL: sdfg.sdfg @nested_state_loops
// CHECK-COUNT-2: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: cf.br
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @nested_state_loops(%DN: memref<index, 1>, %N: memref<index>, %D: memref<8xf32, 1>, %H: memref<8xf32>, %acc: memref<f32>) target(gpu) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.memcpy %N, %DN : memref<index>, memref<index, 1>
  gpu.memcpy %H, %D : memref<8xf32>, memref<8xf32, 1>
  cf.br ^outer(%c0 : index)
^outer(%i: index):
  %bound = memref.load %N[] : memref<index>
  %more = arith.cmpi ult, %i, %bound : index
  cf.cond_br %more, ^inner(%c0 : index), ^exit
^inner(%j: index):
  %x = memref.load %H[%j] : memref<8xf32>
  memref.store %x, %acc[] : memref<f32>
  %j1 = arith.addi %j, %c1 : index
  %again = arith.cmpi ult, %j1, %bound : index
  cf.cond_br %again, ^inner(%j1 : index), ^latch
^latch:
  %i1 = arith.addi %i, %c1 : index
  cf.br ^outer(%i1 : index)
^exit:
  sdfg.return
}

// -----

// The state before the loop also branches elsewhere: the sync goes on a new
// state on the edge into the loop only; the other path gets none.
// CHECK-LABEL: sdfg.sdfg @state_loop_split_edge
// CHECK: gpu.memcpy async
// CHECK-NEXT: cf.cond_br %{{.*}}, ^[[EDGE:bb[0-9]+]](%{{.*}} : index), ^[[SKIP:bb[0-9]+]]
// CHECK: ^[[EDGE]](%[[I:.*]]: index):
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: cf.br ^[[GUARD:bb[0-9]+]](%[[I]] : index)
// CHECK: ^[[GUARD]](
// CHECK-NOT: sdfg.sync
// CHECK: ^[[SKIP]]:
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @state_loop_split_edge(%D: memref<8xf32, 1>, %H: memref<8xf32>, %acc: memref<f32>, %n: index, %go: i1) target(gpu) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %H, %D : memref<8xf32>, memref<8xf32, 1>
  cf.cond_br %go, ^guard(%c0 : index), ^skip
^guard(%i: index):
  %more = arith.cmpi ult, %i, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %x = memref.load %H[%i] : memref<8xf32>
  memref.store %x, %acc[] : memref<f32>
  %c1 = arith.constant 1 : index
  %next = arith.addi %i, %c1 : index
  cf.br ^guard(%next : index)
^skip:
  cf.br ^exit
^exit:
  sdfg.return
}

// -----

// A loop of states whose body copies a result and whose condition reads it:
// the sync must stay in the loop, in front of the read, every iteration.
// CHECK-LABEL: sdfg.sdfg @state_loop_with_gpu_work
// CHECK: cf.br ^[[GUARD:bb[0-9]+]]
// CHECK: ^[[GUARD]]:
// CHECK-NEXT: sdfg.stream_token
// CHECK-NEXT: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.return
sdfg.sdfg @state_loop_with_gpu_work(%D: memref<f32, 1>, %H: memref<f32>) target(gpu) {
  %zero = arith.constant 0.0 : f32
  cf.br ^guard
^guard:
  gpu.memcpy %H, %D : memref<f32>, memref<f32, 1>
  %x = memref.load %H[] : memref<f32>
  %more = arith.cmpf ogt, %x, %zero : f32
  cf.cond_br %more, ^guard, ^exit
^exit:
  sdfg.return
}
