// check-devices=true checks each GPU buffer argument against the caller's
// stream at the start of the call, before any GPU work; without it there
// is no check.
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa check-devices=true" | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | FileCheck %s --check-prefix=OFF

// OFF-NOT: sdfgrtCheckDevicePointer

// CHECK-LABEL: define dso_local i32 @scale(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @sdfgrtBeginCall()
// CHECK-NOT: call void @mgpu
// CHECK: call void @sdfgrtCheckDevicePointer(ptr %{{[0-9]+}}, ptr %[[S]], i32 0)
// CHECK-NOT: sdfgrtCheckDevicePointer
// CHECK: call void @mgpuLaunchKernel(
// CHECK: call i32 @sdfgrtEndCall()

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<?xf32, #gpu.address_space<global>>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %a[%i] : memref<?xf32, #gpu.address_space<global>>
        %w = arith.addf %v, %v : f32
        memref.store %w, %a[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }
  sdfg.sdfg @scale(%A: memref<?xf32, #gpu.address_space<global>>, %H: memref<?xf32>, %n: index) target(gpu, streams = 1) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@scale blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%A : memref<?xf32, #gpu.address_space<global>>, %n : index)
    sdfg.return
  }
}
