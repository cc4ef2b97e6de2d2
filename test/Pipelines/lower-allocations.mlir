// gpu.alloc through both lowerings, on the program's stream: host_shared
// becomes mgpuMemAlloc's flag (managed memory), and a memref in numbered
// memory space 1 is a plain pointer on the host, like
// #gpu.address_space<global>, that holds the runtime's pointer as is and
// goes back to mgpuMemFree as is.

// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit" | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK-LABEL: define dso_local i32 @allocations(
// CHECK-SAME: ptr %[[S:[0-9]+]])
// CHECK: %[[SHARED:.*]] = call ptr @mgpuMemAlloc(i64 %{{.*}}, ptr %[[S]], i8 1)
// CHECK-NEXT: %[[SHARED_ONE:.*]] = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } poison, ptr %[[SHARED]], 0
// CHECK-NEXT: insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %[[SHARED_ONE]], ptr %[[SHARED]], 1
// CHECK: %[[SHARED_DESC:.*]] = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %{{.*}}, i64 1, 4, 0
// CHECK: %[[RAW:.*]] = call ptr @mgpuMemAlloc(i64 %{{.*}}, ptr %[[S]], i8 0)
// CHECK-NEXT: %[[ONE:.*]] = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } poison, ptr %[[RAW]], 0
// CHECK-NEXT: insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %[[ONE]], ptr %[[RAW]], 1
// CHECK: %[[RAW_DESC:.*]] = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %{{.*}}, i64 1, 4, 0
// CHECK: call void @mgpuLaunchKernel({{.*}}, ptr %[[S]],
// CHECK: %[[RAW_FREED:.*]] = extractvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %[[RAW_DESC]], 0
// CHECK-NEXT: call void @mgpuMemFree(ptr %[[RAW_FREED]], ptr %[[S]])
// CHECK: %[[SHARED_FREED:.*]] = extractvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %[[SHARED_DESC]], 0
// CHECK-NEXT: call void @mgpuMemFree(ptr %[[SHARED_FREED]], ptr %[[S]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%shared: memref<?xf32>, %global: memref<?xf32, 1>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %global[%i] : memref<?xf32, 1>
      memref.store %v, %shared[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @allocations(%n: index) {
    %c1 = arith.constant 1 : index
    %shared = gpu.alloc host_shared (%n) : memref<?xf32>
    %global = gpu.alloc (%n) : memref<?xf32, 1>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%shared : memref<?xf32>, %global : memref<?xf32, 1>)
    gpu.dealloc %global : memref<?xf32, 1>
    gpu.dealloc %shared : memref<?xf32>
    return
  }
}
