// timers=true times each call on the caller's stream: begin and end events
// through the runtime, the end before the sync of a synchronous call, and
// nothing that synchronizes the device or another stream.
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa timers=true sync-call=true" | mlir-translate --mlir-to-llvmir | FileCheck %s --implicit-check-not=DeviceSynchronize --implicit-check-not=CtxSynchronize --implicit-check-not=mgpuStreamCreate
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | FileCheck %s --check-prefix=OFF

// OFF-NOT: sdfgrtTimer

// CHECK: @__sdfgrt_program_scale = private constant [6 x i8] c"scale\00"
// CHECK-LABEL: define dso_local i32 @scale(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @sdfgrtBeginCall()
// CHECK: %[[T:[0-9]+]] = call ptr @sdfgrtTimerBegin(ptr @__sdfgrt_program_scale)
// CHECK: call void @sdfgrtTimerRecordBegin(ptr %[[T]], ptr %[[S]])
// CHECK: call void @mgpuLaunchKernel({{.*}}, ptr %[[S]], ptr %{{.*}}, ptr null, i64 {{[0-9]+}})
// CHECK: call void @sdfgrtTimerRecordEnd(ptr %[[T]], ptr %[[S]])
// CHECK-NEXT: call void @sdfgrtTimerEnd(ptr %[[T]])
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
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
  sdfg.sdfg @scale(%A: memref<?xf32, #gpu.address_space<global>>, %n: index) target(gpu, streams = 1) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@scale blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%A : memref<?xf32, #gpu.address_space<global>>, %n : index)
    sdfg.return
  }
}
