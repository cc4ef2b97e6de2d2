// Concurrent slots through both whole lowerings (concurrent-streams=true):
// one fork of the caller's stream at entry, every launch on its slot's
// stream (slot 0 the caller's, slot 1 a forked one), one event wait where
// slot 0 reads what slot 1 wrote, the join before the one sync of the
// caller's stream; nothing creates, destroys or synchronizes any other
// stream or the device. sdfg-verify-stream-discipline, which both pipelines end
// with, accepts the forked slots.

// DEFINE: %{forbidden} = --implicit-check-not=mgpuStreamCreate --implicit-check-not=mgpuStreamDestroy --implicit-check-not=mgpuEvent --implicit-check-not=DeviceSynchronize --implicit-check-not=CtxSynchronize
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa sync-call=true concurrent-streams=true" | mlir-translate --mlir-to-llvmir | FileCheck %s %{forbidden}
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit sync-call=true concurrent-streams=true" | mlir-translate --mlir-to-llvmir | FileCheck %s %{forbidden}
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa sync-call=true" | FileCheck %s --check-prefix=OFF
// OFF-NOT: sdfgrtForkStreams
// OFF-NOT: sdfgrtStreamWaitStream

// CHECK-LABEL: define dso_local i32 @produce_consume(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @sdfgrtBeginCall()
// CHECK: %[[SLOTS:[0-9]+]] = alloca [2 x ptr]
// CHECK: call i32 @sdfgrtForkStreams(ptr %[[S]], i32 2, ptr %[[SLOTS]])
// CHECK: %[[ONE:[0-9]+]] = getelementptr [2 x ptr], ptr %[[SLOTS]], i32 0, i32 1
// CHECK: %[[S1:[0-9]+]] = load ptr, ptr %[[ONE]]
// CHECK: call void @mgpuLaunchKernel({{.*}}, i32 0, ptr %[[S1]], ptr %{{.*}}, ptr null, i64 5)
// CHECK: call void @mgpuLaunchKernel({{.*}}, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 5)
// CHECK: call i32 @sdfgrtStreamWaitStream(ptr %[[S]], ptr %[[S1]])
// CHECK: call void @mgpuLaunchKernel({{.*}}, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 10)
// The join was the wait above (slot 0 is after slot 1 already): no other.
// CHECK-NOT: sdfgrtStreamWaitStream
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
// One status check for the whole run of GPU work, the fork included.
// CHECK: call i32 @sdfgrtCallStatus()
// CHECK: call i32 @sdfgrtEndCall()

!G = memref<256xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
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
  sdfg.sdfg @produce_consume(%A: !G {llvm.noalias}, %B: !G {llvm.noalias},
                             %C: !G {llvm.noalias}) target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G) {sdfg.stream_slot = 1}
    gpu.launch_func @kernels::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%B : !G)
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : !G, %C : !G)
    sdfg.return
  }
}
