// RUN: sdfg-opt %s -split-input-file -sdfg-expand-library-nodes | FileCheck %s --check-prefixes=CHECK,PLAIN
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-expand-library-nodes | FileCheck %s --check-prefixes=CHECK,LATE
// RUN: sdfg-opt %s -split-input-file -sdfg-expand-library-nodes -sdfg-add-external-gpu-stream | FileCheck %s --check-prefixes=CHECK,EARLY

// A reduction in a GPU program expands into a nested program with a
// grid-stride kernel. Expanded after sdfg-add-external-gpu-stream (LATE) the
// nested program takes the caller's stream; expanded before (EARLY) the
// stream pass threads the nested program like any other. Either way its
// memset and kernel run on the caller's stream.

// CHECK-LABEL: gpu.module @__sdfg_reduce_add_f32_gpu
// CHECK: gpu.func @reduce(%[[IN:.*]]: memref<?xf32, 1>, %[[OUT:.*]]: memref<f32, 1>, %[[N:.*]]: index) kernel
// CHECK: %[[FIRST:.*]] = gpu.global_id x
// CHECK: scf.for %[[I:.*]] = %[[FIRST]] to %[[N]] step
// CHECK: memref.load %[[IN]][%[[I]]]
// CHECK: arith.addf
// CHECK: memref.atomic_rmw addf %{{.*}}, %[[OUT]][]

// CHECK-LABEL: sdfg.sdfg private @__sdfg_reduce_add_f32_gpu
// PLAIN-SAME: (%[[IN:.*]]: memref<?xf32, 1>, %[[OUT:.*]]: memref<f32, 1>) target(gpu, streams = 1)
// PLAIN: gpu.memset %[[OUT]], %{{.*}} : memref<f32, 1>, f32
// PLAIN: gpu.launch_func @__sdfg_reduce_add_f32_gpu_kernels::@reduce
// LATE-SAME: (%[[IN:.*]]: memref<?xf32, 1>, %[[OUT:.*]]: memref<f32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// EARLY-SAME: (%[[IN:.*]]: memref<?xf32, 1>, %[[OUT:.*]]: memref<f32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// LATE-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// EARLY-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// LATE: %[[T0:.*]] = sdfg.stream_token %[[SLOT]]
// EARLY: %[[T0:.*]] = sdfg.stream_token %[[SLOT]]
// LATE-NEXT: gpu.memset async [%[[T0]]] %[[OUT]]
// EARLY-NEXT: gpu.memset async [%[[T0]]] %[[OUT]]
// LATE: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
// EARLY: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
// LATE-NEXT: gpu.launch_func async [%[[T1]]] @__sdfg_reduce_add_f32_gpu_kernels::@reduce
// EARLY-NEXT: gpu.launch_func async [%[[T1]]] @__sdfg_reduce_add_f32_gpu_kernels::@reduce
// CHECK-SAME: args(%[[IN]] : memref<?xf32, 1>, %[[OUT]] : memref<f32, 1>, %{{.*}} : index)

// Two nodes with the same signature share one implementation; a node with
// another signature gets its own.
// CHECK-LABEL: sdfg.sdfg @gpu_program
// PLAIN: sdfg.call @__sdfg_reduce_add_f32_gpu(%arg0, %arg2) : (memref<?xf32, 1>, memref<f32, 1>) -> ()
// PLAIN-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu(%arg1, %arg2) : (memref<?xf32, 1>, memref<f32, 1>) -> ()
// PLAIN-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu_1(%arg3, %arg2) : (memref<32xf32, 1>, memref<f32, 1>) -> ()
// LATE: %[[SLOT:.*]] = sdfg.init_streams
// LATE-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu(%arg0, %arg2, %[[SLOT]])
// LATE-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu(%arg1, %arg2, %[[SLOT]])
// LATE-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu_1(%arg3, %arg2, %[[SLOT]])
// EARLY: %[[SLOT:.*]] = sdfg.init_streams
// EARLY-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu(%arg0, %arg2, %[[SLOT]])
// EARLY-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu(%arg1, %arg2, %[[SLOT]])
// EARLY-NEXT: sdfg.call @__sdfg_reduce_add_f32_gpu_1(%arg3, %arg2, %[[SLOT]])
// CHECK-NOT: sdfg.reduce
sdfg.sdfg @gpu_program(%A: memref<?xf32, 1>, %B: memref<?xf32, 1>, %out: memref<f32, 1>, %C: memref<32xf32, 1>) target(gpu) {
  sdfg.reduce add %A into %out : memref<?xf32, 1> -> memref<f32, 1>
  sdfg.reduce add %B into %out : memref<?xf32, 1> -> memref<f32, 1>
  sdfg.reduce add %C into %out : memref<32xf32, 1> -> memref<f32, 1>
  sdfg.return
}

// -----

// In a CPU program a reduction becomes a host loop, and no stream appears.
// CHECK-LABEL: sdfg.sdfg private @__sdfg_reduce_max_i32_cpu
// CHECK-SAME: (%[[IN:.*]]: memref<8xi32>, %[[OUT:.*]]: memref<i32>) target(cpu) {
// CHECK: %[[LOWEST:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[R:.*]] = scf.for %[[I:[^ ]*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[LOWEST]]) -> (i32) {
// CHECK: %[[X:.*]] = memref.load %[[IN]][%[[I]]] : memref<8xi32>
// CHECK: arith.maxsi %[[ACC]], %[[X]]
// CHECK: memref.store %[[R]], %[[OUT]][] : memref<i32>
// CHECK-LABEL: sdfg.sdfg @cpu_program
// CHECK-NEXT: sdfg.call @__sdfg_reduce_max_i32_cpu(%arg0, %arg1) : (memref<8xi32>, memref<i32>) -> ()
// CHECK-NOT: sdfg.stream
sdfg.sdfg @cpu_program(%A: memref<8xi32>, %out: memref<i32>) target(cpu) {
  sdfg.reduce max %A into %out : memref<8xi32> -> memref<i32>
  sdfg.return
}

// -----

// An i1 has no atomics (it is one bit of a byte): its GPU reduction is one
// block that combines its threads' partials in workgroup memory, and no
// memset of the output precedes it.
// CHECK-LABEL: gpu.module @__sdfg_reduce_add_i1_gpu
// CHECK: gpu.func @reduce(%[[IN:.*]]: memref<?xi1, 1>, %[[OUT:.*]]: memref<i1, 1>, %[[N:.*]]: index)
// CHECK-SAME: workgroup(%[[PARTIALS:.*]] : memref<256xi1, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %[[TID]] to %[[N]] step
// CHECK: %[[X:.*]] = memref.load %[[IN]][%[[I]]] : memref<?xi1, 1>
// CHECK: arith.addi %{{.*}}, %[[X]]
// CHECK: memref.store %[[R]], %[[PARTIALS]][%[[TID]]]
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[OUT]][] : memref<i1, 1>
// CHECK-NOT: atomic_rmw
// CHECK-LABEL: sdfg.sdfg private @__sdfg_reduce_add_i1_gpu
// CHECK-NOT: gpu.memset
// CHECK: gpu.launch_func {{.*}}@__sdfg_reduce_add_i1_gpu_kernels::@reduce blocks in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) threads in (%{{.*}}, %[[ONE]], %[[ONE]])
sdfg.sdfg @bool_program(%A: memref<?xi1, 1>, %out: memref<i1, 1>) target(gpu) {
  sdfg.reduce add %A into %out : memref<?xi1, 1> -> memref<i1, 1>
  sdfg.return
}
