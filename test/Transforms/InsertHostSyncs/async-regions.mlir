// Class 5 of sdfg-insert-host-syncs: the body of async.execute runs later, on
// another thread, while the code after the op goes on. It is entered with
// the state before the op, but nothing it does counts after the op: not its
// syncs (it may not have run yet), and its GPU work stays pending (it may
// be halfway). A host access after the op (or after async.await, which
// credits nothing either) gets its own sync.
//
// The inputs are already on their stream, as a producer that threads the
// stream itself writes them (sdfg-add-external-gpu-stream runs async.execute
// regions in place, so after it none are left: issue 23).
//
// RUN: sdfg-opt %s -split-input-file -sdfg-insert-host-syncs | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

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
module {
  func.func @sync_in_body_covers_nothing_after(%arg0: memref<4xf32, 1>, %arg1: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) -> f32 {
    %0 = sdfg.init_streams %arg1 -> !sdfg.stream
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() : memref<4xf32>
    %1 = sdfg.stream_token %0
    %2 = gpu.memcpy async [%1] %alloc, %arg0 : memref<4xf32>, memref<4xf32, 1>
    %token = async.execute {
      %4 = memref.load %alloc[%c0] : memref<4xf32>
      async.yield
    }
    %3 = memref.load %alloc[%c0] : memref<4xf32>
    async.await %token : !async.token
    return %3 : f32
  }
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
module {
  func.func @body_work_pending_after_await(%arg0: memref<4xf32, 1>, %arg1: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) -> f32 {
    %0 = sdfg.init_streams %arg1 -> !sdfg.stream
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() : memref<4xf32>
    %token = async.execute {
      %2 = sdfg.stream_token %0
      %3 = gpu.memcpy async [%2] %alloc, %arg0 : memref<4xf32>, memref<4xf32, 1>
      %4 = memref.load %alloc[%c0] : memref<4xf32>
      async.yield
    }
    async.await %token : !async.token
    %1 = memref.load %alloc[%c0] : memref<4xf32>
    return %1 : f32
  }
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
module {
  func.func @host_write_after_body_upload(%arg0: memref<4xf32, 1>, %arg1: f32, %arg2: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) {
    %0 = sdfg.init_streams %arg2 -> !sdfg.stream
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() : memref<4xf32>
    %token = async.execute {
      %1 = sdfg.stream_token %0
      %2 = gpu.memcpy async [%1] %arg0, %alloc : memref<4xf32, 1>, memref<4xf32>
      async.yield
    }
    memref.store %arg1, %alloc[%c0] : memref<4xf32>
    async.await %token : !async.token
    return
  }
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
module {
  func.func @nested_execute(%arg0: memref<4xf32, 1>, %arg1: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) -> f32 {
    %0 = sdfg.init_streams %arg1 -> !sdfg.stream
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() : memref<4xf32>
    %1 = sdfg.stream_token %0
    %2 = gpu.memcpy async [%1] %alloc, %arg0 : memref<4xf32>, memref<4xf32, 1>
    %token = async.execute {
      %token_0 = async.execute {
        %5 = memref.load %alloc[%c0] : memref<4xf32>
        async.yield
      }
      %4 = memref.load %alloc[%c0] : memref<4xf32>
      async.await %token_0 : !async.token
      async.yield
    }
    %3 = memref.load %alloc[%c0] : memref<4xf32>
    async.await %token : !async.token
    return %3 : f32
  }
}

// -----

// Host code alone in the body, nothing pending before: no sync anywhere.
// CHECK-LABEL: func.func @host_only_body
// CHECK-NOT: sdfg.sync
// CHECK: return
module {
  func.func @host_only_body(%arg0: memref<4xf32>, %arg1: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %token = async.execute {
      memref.store %arg1, %arg0[%c0] : memref<4xf32>
      async.yield
    }
    async.await %token : !async.token
    %0 = memref.load %arg0[%c0] : memref<4xf32>
    return %0 : f32
  }
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
module {
  func.func @execute_in_loop(%arg0: memref<4xf32, 1>, %arg1: index, %arg2: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) -> f32 {
    %0 = sdfg.init_streams %arg2 -> !sdfg.stream
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %alloc = memref.alloc() : memref<4xf32>
    scf.for %arg3 = %c0 to %arg1 step %c1 {
      %token = async.execute {
        %2 = sdfg.stream_token %0
        %3 = gpu.memcpy async [%2] %alloc, %arg0 : memref<4xf32>, memref<4xf32, 1>
        %4 = memref.load %alloc[%c0] : memref<4xf32>
        async.yield
      }
      async.await %token : !async.token
    }
    %1 = memref.load %alloc[%c0] : memref<4xf32>
    return %1 : f32
  }
}
