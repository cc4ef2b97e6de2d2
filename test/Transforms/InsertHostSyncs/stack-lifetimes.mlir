// Stack buffers die when their allocation scope is left: returning from the
// function, or the end of a memref.alloca_scope. That is a host free, so GPU
// work that may still read or write them (an H2D copy from a staging buffer
// on the stack) is waited for first; upstream's synchronous gpu.memcpy had
// finished before the return. Heap buffers wait at their dealloc, as
// before.
//
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// A second run changes nothing.
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @upload_from_stack
  // CHECK: memref.alloca
  // CHECK: gpu.memcpy async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: return
  func.func @upload_from_stack(%d: memref<4xf32, 1>, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %stage = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %x, %stage[%i] : memref<4xf32>
    }
    gpu.memcpy %d, %stage : memref<4xf32, 1>, memref<4xf32>
    return
  }

  // The scope's end frees its buffer: the sync is inside the scope, and
  // the kernel after it is not waited for.
  // CHECK-LABEL: func.func @upload_in_scope
  // CHECK: memref.alloca_scope
  // CHECK: gpu.memcpy async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: }
  // CHECK: gpu.launch async
  // CHECK-NOT: sdfg.sync
  // CHECK: return
  func.func @upload_in_scope(%d: memref<4xf32, 1>, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.alloca_scope {
      %stage = memref.alloca() : memref<4xf32>
      memref.store %x, %stage[%c0] : memref<4xf32>
      gpu.memcpy %d, %stage : memref<4xf32, 1>, memref<4xf32>
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
      %f = memref.load %d[%tx] : memref<4xf32, 1>
      memref.store %f, %d[%tx] : memref<4xf32, 1>
      gpu.terminator
    }
    return
  }

  // A stack buffer the GPU never touches, and GPU work on other memory
  // still queued at the return: no sync (an asynchronous call).
  // CHECK-LABEL: func.func @stack_for_the_host_only
  // CHECK: gpu.memcpy async
  // CHECK-NOT: sdfg.sync
  // CHECK: return
  func.func @stack_for_the_host_only(%d: memref<4xf32, 1>, %e: memref<4xf32, 1>, %x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %scratch = memref.alloca() : memref<4xf32>
    memref.store %x, %scratch[%c0] : memref<4xf32>
    %y = memref.load %scratch[%c0] : memref<4xf32>
    gpu.memcpy %e, %d : memref<4xf32, 1>, memref<4xf32, 1>
    return %y : f32
  }

  // Read back into the stack and read there: the sync before the read
  // also covers the return.
  // CHECK-LABEL: func.func @download_to_stack
  // CHECK: gpu.memcpy async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  // CHECK-NOT: sdfg.sync
  // CHECK: return
  func.func @download_to_stack(%d: memref<4xf32, 1>) -> f32 {
    %c0 = arith.constant 0 : index
    %back = memref.alloca() : memref<4xf32>
    gpu.memcpy %back, %d : memref<4xf32>, memref<4xf32, 1>
    %v = memref.load %back[%c0] : memref<4xf32>
    return %v : f32
  }
}
