// Host registration and the default device through both lowerings: the
// calls are the runtime's (mgpuMemHostRegisterMemRef with the unranked
// memref and its element size), each after its op's location, and
// sdfg-verify-stream-discipline (the pipelines' last pass) accepts them.

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit" | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK: @__sdfgrt_locations = private constant {{.*}}lower-host-memory.mlir:[[@LINE+20]]:5\00{{.*}}lower-host-memory.mlir:[[@LINE+21]]:5\00{{.*}}lower-host-memory.mlir:[[@LINE+22]]:5\00{{.*}}lower-host-memory.mlir:[[@LINE+24]]:5\00"
// CHECK-LABEL: define dso_local i32 @registered(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @sdfgrtSetLocation(ptr @__sdfgrt_locations)
// CHECK: call void @mgpuMemHostRegisterMemRef(i64 %{{.*}}, ptr %{{.*}}, i64 4)
// CHECK: call void @sdfgrtSetLocation(
// CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 128, ptr %[[S]])
// CHECK: call void @sdfgrtSetLocation(
// CHECK: call void @mgpuMemHostUnregisterMemRef(i64 %{{.*}}, ptr %{{.*}}, i64 4)
// CHECK: call void @sdfgrtSetLocation(
// CHECK-NEXT: call void @mgpuSetDefaultDevice(i32 0)
// A func.func program returns the call's status, as an sdfg.sdfg one does,
// from its C entry point too.
// CHECK: %[[STATUS:.*]] = call i32 @sdfgrtEndCall()
// CHECK-NEXT: ret i32 %[[STATUS]]
// CHECK-LABEL: define dso_local i32 @_mlir_ciface_registered(
module attributes {gpu.container_module} {
  func.func @registered(%H: memref<4x8xf32>, %D: memref<4x8xf32, #gpu.address_space<global>>) {
    %u = memref.cast %H : memref<4x8xf32> to memref<*xf32>
    %c0 = arith.constant 0 : i32
    gpu.host_register %u : memref<*xf32>
    gpu.memcpy %D, %H : memref<4x8xf32, #gpu.address_space<global>>, memref<4x8xf32>
    gpu.host_unregister %u : memref<*xf32>
    // Last: the device of later default-stream work.
    gpu.set_default_device %c0
    return
  }
}
