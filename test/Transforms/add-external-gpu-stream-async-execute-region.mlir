// RUN: sdfg-opt %s -gpu-async-region -sdfg-add-external-gpu-stream | FileCheck %s

// async.execute regions with GPU work written in sync form, as upstream's
// async tests write them, through upstream's gpu-async-region first (as a
// producer's pipeline would: the regions then yield their GPU tokens), then
// sdfg-add-external-gpu-stream (issue 23): the regions run in place and no
// async op is left.

// Upstream's defer_wait shape: the second region depends on the first and
// continues its chain (one slot); the final blocking wait syncs it.
// CHECK-LABEL: func.func @dependent_regions
// CHECK-NOT: async.
// CHECK: %[[S:.*]] = sdfg.init_streams %{{.*}} -> !sdfg.stream
// CHECK: gpu.launch_func async
// CHECK: gpu.launch_func async
// CHECK-NEXT: sdfg.sync %[[S]]
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%m: memref<4xf32, 1>) kernel { gpu.return }
  }
  func.func @dependent_regions(%m: memref<4xf32, 1>, %n: memref<4xf32, 1>) {
    %c1 = arith.constant 1 : index
    %a0 = async.execute {
      gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32, 1>)
      async.yield
    }
    %a1 = async.execute [%a0] {
      gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : memref<4xf32, 1>)
      async.yield
    }
    async.await %a1 : !async.token
    return
  }
}
