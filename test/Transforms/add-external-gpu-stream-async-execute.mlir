// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -verify-diagnostics | FileCheck %s

// async.execute regions with GPU work (issue 23): each runs in place, in
// program order, on the caller's thread; the GPU work keeps what its tokens
// say, so a chain a region starts becomes a slot of its own, and awaiting
// the GPU token a region yields joins it. No async op is left.

// Independent regions (one nested in the other), a group of them and a
// host value passed out: three chains, three slots; the host value is the
// one computed in place; the awaits of the GPU tokens become the syncs.
// CHECK-LABEL: func.func @independent_regions
// CHECK-SAME: sdfg.num_streams = 3
// CHECK-NOT: async.
// CHECK: %[[S:.*]]:3 = sdfg.init_streams %{{.*}} concurrent
// CHECK: %[[T0:.*]] = sdfg.stream_token %[[S]]#0
// CHECK-NEXT: gpu.launch_func async [%[[T0]]] {{.*}} args(%arg0
// CHECK: %[[T1:.*]] = sdfg.stream_token %[[S]]#1
// CHECK-NEXT: gpu.launch_func async [%[[T1]]] {{.*}} args(%arg1
// CHECK: %[[T2:.*]] = sdfg.stream_token %[[S]]#2
// CHECK-NEXT: gpu.launch_func async [%[[T2]]] {{.*}} args(%arg1
// CHECK-NEXT: sdfg.sync %[[S]]#2
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.5
// CHECK: sdfg.sync %[[S]]#0, %[[S]]#1
// CHECK-NEXT: return %[[C]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%m: memref<4xf32, 1>) kernel { gpu.return }
  }
  func.func @independent_regions(%m: memref<4xf32, 1>, %n: memref<4xf32, 1>) -> f32 {
    %c1 = arith.constant 1 : index
    %g = async.create_group %c1 : !async.group
    %t0, %v0 = async.execute -> !async.value<!gpu.async.token> {
      %w = gpu.wait async
      %k = gpu.launch_func async [%w] @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32, 1>)
      async.yield %k : !gpu.async.token
    }
    %t1, %v1, %f = async.execute -> (!async.value<!gpu.async.token>, !async.value<f32>) {
      %w = gpu.wait async
      %k = gpu.launch_func async [%w] @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : memref<4xf32, 1>)
      %t2 = async.execute {
        %x = gpu.wait async
        %y = gpu.launch_func async [%x] @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : memref<4xf32, 1>)
        gpu.wait [%y]
        async.yield
      }
      async.await %t2 : !async.token
      %c = arith.constant 2.5 : f32
      async.yield %k, %c : !gpu.async.token, f32
    }
    %i0 = async.add_to_group %t0, %g : !async.token
    %i1 = async.add_to_group %t1, %g : !async.token
    async.await_all %g
    %k0 = async.await %v0 : !async.value<!gpu.async.token>
    %k1 = async.await %v1 : !async.value<!gpu.async.token>
    %r = async.await %f : !async.value<f32>
    gpu.wait [%k0, %k1]
    return %r : f32
  }
}

// -----

// What cannot run in place is an error at the op: awaiting a token that no
// region of the program makes.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%m: memref<4xf32, 1>) kernel { gpu.return }
  }
  func.func @foreign_token(%m: memref<4xf32, 1>, %given: !async.token) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'async.execute' op awaits a value that no async.execute region of this program produces}}
    %a0 = async.execute [%given] {
      gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32, 1>)
      async.yield
    }
    async.await %a0 : !async.token
    return
  }
}

// -----

// A region's index in its group used as a value.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%m: memref<4xf32, 1>) kernel { gpu.return }
  }
  func.func @group_index(%m: memref<4xf32, 1>) -> index {
    %c1 = arith.constant 1 : index
    %g = async.create_group %c1 : !async.group
    %a0 = async.execute {
      gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32, 1>)
      async.yield
    }
    // expected-error @+1 {{'async.add_to_group' op uses the index of a region in its group}}
    %i = async.add_to_group %a0, %g : !async.token
    async.await_all %g
    return %i : index
  }
}

// -----

// A value awaited in a nested region and yielded on to a later region
// (issue 35; this crashed the pass): the later region gets what the
// nested region's await gave, the value the innermost region yielded.
// CHECK-LABEL: func.func @awaited_in_nested_region
// CHECK-SAME: (%[[M:.*]]: memref<16xf32, 1>, %[[X:.*]]: f32, %{{.*}}: !sdfg.stream
// CHECK: gpu.launch_func async
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK-NEXT: return %[[SUM]] : f32
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<16xf32, 1>) kernel { gpu.return }
  }
  func.func @awaited_in_nested_region(%m: memref<16xf32, 1>, %x: f32) -> f32 {
    %c1 = arith.constant 1 : index
    %a, %v = async.execute -> !async.value<f32> {
      %b, %u = async.execute -> !async.value<f32> {
        async.yield %x : f32
      }
      %y = async.await %u : !async.value<f32>
      %t = gpu.wait async
      %k = gpu.launch_func async [%t] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32, 1>)
      gpu.wait [%k]
      async.yield %y : f32
    }
    %c, %w = async.execute (%v as %z: !async.value<f32>) -> !async.value<f32> {
      %s = arith.addf %z, %z : f32
      async.yield %s : f32
    }
    %r = async.await %w : !async.value<f32>
    return %r : f32
  }
}
