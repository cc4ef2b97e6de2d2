// One input, one RUN line per target: the host code of both lowerings runs
// every allocation, copy, memset, launch, free and sync on the program's
// stream argument, and nothing creates, destroys or synchronizes any other
// stream or the device.

// DEFINE: %{forbidden} = --implicit-check-not=mgpuStreamCreate --implicit-check-not=mgpuStreamDestroy --implicit-check-not=mgpuEvent --implicit-check-not=DeviceSynchronize --implicit-check-not=CtxSynchronize --implicit-check-not='Synchronize(ptr null)'
// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa sync-call=true" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefixes=CHECK,CUDA %{forbidden}
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit sync-call=true" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefixes=CHECK,ROCM %{forbidden}

// The kernel binary: PTX for sm_90, AMDGCN for gfx90a (the default chips).
// CUDA: @kernels_binary = internal constant [{{[0-9]+}} x i8] c"{{.*}}.target sm_90
// ROCM: @kernels_binary = internal constant [{{[0-9]+}} x i8] c"{{.*}}amdgcn-amd-amdhsa--gfx90a

// CHECK-LABEL: define dso_local i32 @saxpy(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: call void @sdfgrtBeginCall()
// CHECK: call ptr @mgpuMemAlloc(i64 %{{.*}}, ptr %[[S]], i8 0)
// CHECK: call ptr @mgpuMemAlloc(i64 %{{.*}}, ptr %[[S]], i8 0)
// CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, ptr %[[S]])
// CHECK: call void @sdfgrtMemset8(ptr %{{.*}}, i8 0, i64 %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuMemset32(ptr %{{.*}}, i32 1065353216, i64 %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %{{.*}}, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 12)
// CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuMemFree(ptr %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuMemFree(ptr %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK: %[[STATUS:.*]] = call i32 @sdfgrtEndCall()
// CHECK: ret i32 %[[STATUS]]

// The C entry point: memref descriptors by pointer, scalars by value, the
// stream last.
// CHECK-LABEL: define dso_local i32 @_mlir_ciface_saxpy(ptr %0, ptr %1, ptr %2, float %3, i64 %4, ptr %5)

// Kernels are registered when the object is loaded (the runtime loads them
// lazily, per context, at the first launch).
// CUDA: call ptr @mgpuModuleLoadJIT(ptr @kernels_binary
// ROCM: call ptr @mgpuModuleLoadJIT(ptr @kernels_binary


module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%x: memref<?xf32, #gpu.address_space<global>>, %y: memref<?xf32, #gpu.address_space<global>>, %a: f32, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<?xf32, #gpu.address_space<global>>
        %yv = memref.load %y[%i] : memref<?xf32, #gpu.address_space<global>>
        %p = arith.mulf %a, %xv : f32
        %s = arith.addf %p, %yv : f32
        memref.store %s, %y[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }
  sdfg.sdfg @saxpy(%hx: memref<?xf32>, %hy: memref<?xf32>, %flags: memref<?xi8, #gpu.address_space<global>>, %a: f32, %n: index) target(gpu, streams = 1) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0 : i8
    %x = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %y = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    gpu.memcpy %x, %hx : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.memcpy %y, %hy : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.memset %flags, %zero : memref<?xi8, #gpu.address_space<global>>, i8
    %one = arith.constant 1.0 : f32
    gpu.memset %y, %one : memref<?xf32, #gpu.address_space<global>>, f32
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @kernels::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32, #gpu.address_space<global>>, %y : memref<?xf32, #gpu.address_space<global>>, %a : f32, %n : index)
    gpu.memcpy %x, %y : memref<?xf32, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<global>>
    gpu.memcpy %hy, %y : memref<?xf32>, memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %x : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %y : memref<?xf32, #gpu.address_space<global>>
    sdfg.return
  }
}
