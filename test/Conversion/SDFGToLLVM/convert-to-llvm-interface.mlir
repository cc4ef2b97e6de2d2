// RUN: sdfg-opt %s -expand-strided-metadata -sdfg-record-locations -convert-to-llvm -reconcile-unrealized-casts | FileCheck %s

// Another compiler's convert-to-llvm lowers the host code of a program that
// went through sdfg-add-external-gpu-stream and convert-sdfg-to-func, through
// the sdfg dialect's ConvertToLLVMPatternInterface: every runtime call on
// the caller's stream, the view's offset kept, the locations recorded.

module attributes {gpu.container_module} {
  // The kernels, already compiled (as they are by then).
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  // CHECK-LABEL: llvm.func @program
  // CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
  // CHECK: llvm.call @sdfgrtSetLocation
  // CHECK: %[[D:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %{{.*}})
  // CHECK-NEXT: %[[GLOBAL:.*]] = llvm.addrspacecast %[[D]] : !llvm.ptr to !llvm.ptr<1>
  // CHECK: llvm.insertvalue %[[GLOBAL]], %{{.*}}[0]
  // CHECK-NEXT: llvm.insertvalue %[[GLOBAL]], %{{.*}}[1]
  // CHECK: %[[DESC:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[4, 0] : !llvm.struct<(ptr<1>,
  // CHECK: llvm.call @sdfgrtSetLocation
  // CHECK: llvm.getelementptr %{{.*}}[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  // CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // CHECK: llvm.call @sdfgrtSetLocation
  // CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@k
  // CHECK: llvm.call @sdfgrtSetLocation
  // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
  // CHECK: %[[ALLOCATED:.*]] = llvm.extractvalue %[[DESC]][0]
  // CHECK-NEXT: %[[FREED:.*]] = llvm.addrspacecast %[[ALLOCATED]] : !llvm.ptr<1> to !llvm.ptr
  // CHECK-NEXT: llvm.call @mgpuMemFree(%[[FREED]], %[[S]])
  // CHECK-NOT: sdfg.{{[a-z_]+}} 
  func.func @program(%host: memref<8xf32>, %n: index,
                     %s: !sdfg.stream {sdfg.external_stream = "s"}) {
    %c1 = arith.constant 1 : index
    %slot = sdfg.init_streams %s -> !sdfg.stream
    %t = sdfg.stream_token %slot
    %d, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32, 1>
    %tail = memref.subview %d[2] [4] [1] : memref<?xf32, 1> to memref<4xf32, strided<[1], offset: 2>, 1>
    %head = memref.subview %host[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
    %t2 = gpu.memcpy async [%t] %tail, %head : memref<4xf32, strided<[1], offset: 2>, 1>, memref<4xf32, strided<[1]>>
    %t3 = gpu.launch_func async [%t] @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%d : memref<?xf32, 1>)
    sdfg.sync %slot
    %t4 = gpu.dealloc async [%t] %d : memref<?xf32, 1>
    return
  }
}
