// Class 5 of insert-host-syncs: the body of async.execute runs later, on
// another thread, while the code after the op goes on. It is entered with
// the state before the op, but nothing it does counts after the op: not its
// syncs (it may not have run yet), and its GPU work stays pending (it may
// be halfway). A host access after the op (or after async.await, which
// credits nothing either) gets its own sync.
//
// RUN: sdfg-opt %s -split-input-file -add-external-gpu-stream -insert-host-syncs | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -add-external-gpu-stream -insert-host-syncs | sdfg-opt -insert-host-syncs | FileCheck %s

// The body reads the copy's result and gets a sync; the read after the op
// does not count on it.
// CHECK-LABEL: func.func @sync_in_body_covers_nothing_after
// CHECK: gpu.memcpy async
// CHECK: async.execute
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK: async.yield
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @sync_in_body_covers_nothing_after(%d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %t = async.execute {
    %v = memref.load %h[%c0] : memref<4xf32>
    async.yield
  }
  %w = memref.load %h[%c0] : memref<4xf32>
  async.await %t : !async.token
  return %w : f32
}

// -----

// The body copies back and reads the result itself: after async.await the
// parent's read still syncs (the body's sync is not credited; one extra
// sync is the cost of not following which body an await joins).
// CHECK-LABEL: func.func @body_work_pending_after_await
// CHECK: async.execute
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK: async.await
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @body_work_pending_after_await(%d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  %t = async.execute {
    gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
    %v = memref.load %h[%c0] : memref<4xf32>
    async.yield
  }
  async.await %t : !async.token
  %w = memref.load %h[%c0] : memref<4xf32>
  return %w : f32
}

// -----

// The body's GPU work is pending right after the op: a host write of the
// buffer it reads waits for it.
// CHECK-LABEL: func.func @host_write_after_body_upload
// CHECK: async.execute
// CHECK: gpu.memcpy async
// CHECK: async.yield
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.store
func.func @host_write_after_body_upload(%d: memref<4xf32, 1>, %x: f32) {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  %t = async.execute {
    gpu.memcpy %d, %h : memref<4xf32, 1>, memref<4xf32>
    async.yield
  }
  memref.store %x, %h[%c0] : memref<4xf32>
  async.await %t : !async.token
  return
}

// -----

// Nested: the inner body's sync covers nothing after the inner op, in the
// outer body, nor after the outer op.
// CHECK-LABEL: func.func @nested_execute
// CHECK: async.execute
// CHECK: async.execute
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK: async.yield
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK: async.yield
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @nested_execute(%d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %outer = async.execute {
    %inner = async.execute {
      %a = memref.load %h[%c0] : memref<4xf32>
      async.yield
    }
    %b = memref.load %h[%c0] : memref<4xf32>
    async.await %inner : !async.token
    async.yield
  }
  %w = memref.load %h[%c0] : memref<4xf32>
  async.await %outer : !async.token
  return %w : f32
}

// -----

// Host code alone in the body, nothing pending before: no sync anywhere.
// CHECK-LABEL: func.func @host_only_body
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @host_only_body(%h: memref<4xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %t = async.execute {
    memref.store %x, %h[%c0] : memref<4xf32>
    async.yield
  }
  async.await %t : !async.token
  %w = memref.load %h[%c0] : memref<4xf32>
  return %w : f32
}

// -----

// In a loop: each iteration's body syncs for itself; the read after the
// loop still waits.
// CHECK-LABEL: func.func @execute_in_loop
// CHECK: scf.for
// CHECK: async.execute
// CHECK: sdfg.sync
// CHECK: memref.load
// CHECK: async.await
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @execute_in_loop(%d: memref<4xf32, 1>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %t = async.execute {
      gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
      %v = memref.load %h[%c0] : memref<4xf32>
      async.yield
    }
    async.await %t : !async.token
  }
  %w = memref.load %h[%c0] : memref<4xf32>
  return %w : f32
}
