// Graph mode through both whole lowerings (graph-mode=true): the program's
// call opens with sdfgrtBeginGraphCall and the program's name, the GPU work
// is the same runtime calls on the caller's stream as without graph mode
// (the runtime records them), the host sync before the host reads the
// copied-back value is still there (it ends a graph segment), and the call
// ends with sdfgrtEndCall. sdfg-verify-stream-discipline, which both pipelines
// end with, accepts sdfgrtBeginGraphCall. Off (the default), the call opens
// with sdfgrtBeginCall.

// DEFINE: %{forbidden} = --implicit-check-not=mgpuStreamCreate --implicit-check-not=mgpuStreamDestroy --implicit-check-not=mgpuEvent --implicit-check-not=DeviceSynchronize --implicit-check-not=CtxSynchronize --implicit-check-not=sdfgrtBeginCall
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa graph-mode=true" | mlir-translate --mlir-to-llvmir | FileCheck %s %{forbidden}
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit graph-mode=true" | mlir-translate --mlir-to-llvmir | FileCheck %s %{forbidden}
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | FileCheck %s --check-prefix=OFF
// OFF-NOT: sdfgrtBeginGraphCall
// OFF: llvm.call @sdfgrtBeginCall()
// OFF-NOT: sdfgrtBeginGraphCall

// CHECK: @__sdfgrt_program_scale_then_read = private constant [16 x i8] c"scale_then_read\00"
// CHECK-LABEL: define dso_local i32 @scale_then_read(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @sdfgrtBeginGraphCall(ptr @__sdfgrt_program_scale_then_read)
// CHECK: call void @mgpuMemcpy({{.*}}, ptr %[[S]])
// CHECK: call void @mgpuLaunchKernel({{.*}}, ptr %[[S]], ptr %{{.*}}, ptr null, i64 {{[0-9]+}})
// CHECK: call void @mgpuMemcpy({{.*}}, ptr %[[S]])
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK: load float
// CHECK: call i32 @sdfgrtEndCall()

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<256xf32, 1>, %f: f32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<256xf32, 1>
      %y = arith.mulf %x, %f : f32
      memref.store %y, %a[%i] : memref<256xf32, 1>
      gpu.return
    }
  }

  sdfg.sdfg @scale_then_read(%in: memref<256xf32>, %out: memref<256xf32>, %f: f32, %first: memref<1xf32>) target(gpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %dev = gpu.alloc () : memref<256xf32, 1>
    gpu.memcpy %dev, %in : memref<256xf32, 1>, memref<256xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<256xf32, 1>, %f : f32)
    gpu.memcpy %out, %dev : memref<256xf32>, memref<256xf32, 1>
    gpu.dealloc %dev : memref<256xf32, 1>
    %v = memref.load %out[%c0] : memref<256xf32>
    memref.store %v, %first[%c0] : memref<1xf32>
    sdfg.return
  }
}
