// RUN: sdfg-opt %s --sdfg-lower-to-cuda="format=isa" | FileCheck %s
// RUN: sdfg-opt %s --sdfg-lower-to-rocm="format=isa" | FileCheck %s

// The sparse operations in their synchronous form (no tokens): add-external-
// gpu-stream puts each on the caller's stream like every other gpu op, so
// every runtime call gets that stream, and the call checks its status once
// after the run of GPU work (a failed call leaves before its host code).

// CHECK-NOT: mgpuStreamCreate
// CHECK-LABEL: llvm.func @spmv_sync(
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "external_gpu_stream"}) -> i32
// CHECK: llvm.call @mgpuCreateCsr({{.*}}, %[[S]])
// CHECK-NOT: llvm.call @sdfgrtCallStatus
// CHECK: llvm.call @mgpuCreateDnVec({{.*}}, %[[S]])
// CHECK: llvm.call @mgpuCreateDnVec({{.*}}, %[[S]])
// CHECK: llvm.call @mgpuSpMVBufferSize({{.*}}, %[[S]])
// CHECK: llvm.call @mgpuMemAlloc({{.*}}, %[[S]],
// CHECK: llvm.call @mgpuSpMV({{.*}}, %[[S]])
// CHECK: llvm.call @mgpuMemFree({{.*}}, %[[S]])
// CHECK: llvm.call @mgpuDestroyDnVec({{.*}}, %[[S]])
// CHECK: llvm.call @mgpuDestroyDnVec({{.*}}, %[[S]])
// CHECK: llvm.call @mgpuDestroySpMat({{.*}}, %[[S]])
// CHECK-NEXT: llvm.call @sdfgrtCallStatus
// CHECK-NOT: mgpuStreamSynchronize
// CHECK: llvm.return
module attributes {gpu.container_module} {
  func.func @spmv_sync(%pos: memref<?xindex, 1>, %crd: memref<?xindex, 1>,
                       %val: memref<?xf32, 1>, %x: memref<?xf32, 1>,
                       %y: memref<?xf32, 1>, %rows: index, %cols: index,
                       %nnz: index) {
    %a = gpu.create_csr %rows, %cols, %nnz, %pos, %crd, %val
        : memref<?xindex, 1>, memref<?xindex, 1>, memref<?xf32, 1>
    %dx = gpu.create_dn_tensor %x, %cols : index into memref<?xf32, 1>
    %dy = gpu.create_dn_tensor %y, %rows : index into memref<?xf32, 1>
    %size = gpu.spmv_buffer_size %a, %dx, %dy into f32
    %buffer = gpu.alloc (%size) : memref<?xi8, 1>
    gpu.spmv %a, %dx, %dy, %buffer : memref<?xi8, 1> into f32
    gpu.dealloc %buffer : memref<?xi8, 1>
    gpu.destroy_dn_tensor %dx
    gpu.destroy_dn_tensor %dy
    gpu.destroy_sp_mat %a
    return
  }
}
