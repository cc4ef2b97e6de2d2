// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream='argument-name=stream' | FileCheck %s --check-prefix=NAMED

// Idempotent: a second run changes nothing.
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream > %t.once.mlir
// RUN: sdfg-opt %t.once.mlir -split-input-file -sdfg-add-external-gpu-stream > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// A kernel-only program: the launch moves onto slot 0 of the caller's
// stream, which is appended as the last argument.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%A: memref<1024xf32, #gpu.address_space<global>>, %n: index) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: sdfg.sdfg @kernel_only
  // CHECK-SAME: (%[[A:.*]]: memref<1024xf32, #gpu.address_space<global>>, %[[N:.*]]: index, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
  // CHECK-SAME: target(gpu, streams = 1)
  // CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]] -> !sdfg.stream
  // CHECK: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @kernels::@scale
  // CHECK-SAME: args(%[[A]] : memref<1024xf32, #gpu.address_space<global>>, %[[N]] : index)
  // CHECK-NEXT: sdfg.return
  // NAMED-LABEL: sdfg.sdfg @kernel_only
  // NAMED-SAME: %stream: !sdfg.stream {sdfg.external_stream = "stream"}
  // NAMED-NEXT: sdfg.init_streams %stream
  sdfg.sdfg @kernel_only(%A: memref<1024xf32, #gpu.address_space<global>>, %n: index) target(gpu, streams = 1) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@scale blocks in (%c8, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%A : memref<1024xf32, #gpu.address_space<global>>, %n : index)
    sdfg.return
  }
}

// -----

// A copy-only program: H2D, D2D, memset, D2H, alloc and free, each on the
// stream of its slot. No op keeps a dependency of its own.
// CHECK-LABEL: sdfg.sdfg @copies
// CHECK-SAME: %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) target(gpu, streams = 2)
// CHECK-NEXT: %[[SLOTS:.*]]:2 = sdfg.init_streams %[[S]] -> !sdfg.stream, !sdfg.stream
// CHECK: %[[T0:.*]] = sdfg.stream_token %[[SLOTS]]#0
// CHECK-NEXT: %[[TMP:.*]], %{{.*}} = gpu.alloc async [%[[T0]]] () : memref<256xf32, #gpu.address_space<global>>
// CHECK-NEXT: %[[T1:.*]] = sdfg.stream_token %[[SLOTS]]#0
// CHECK-NEXT: gpu.memcpy async [%[[T1]]] %[[TMP]], %arg1 : memref<256xf32, #gpu.address_space<global>>, memref<256xf32>
// CHECK-NEXT: %[[T2:.*]] = sdfg.stream_token %[[SLOTS]]#1
// CHECK-NEXT: gpu.memcpy async [%[[T2]]] %arg0, %[[TMP]] : {{.*}} {sdfg.stream_slot = 1 : i64}
// CHECK-NEXT: %[[T3:.*]] = sdfg.stream_token %[[SLOTS]]#1
// CHECK-NEXT: gpu.memset async [%[[T3]]] %[[TMP]], %{{.*}} : memref<256xf32, #gpu.address_space<global>>, f32 {sdfg.stream_slot = 1 : i64}
// CHECK-NEXT: %[[T4:.*]] = sdfg.stream_token %[[SLOTS]]#0
// CHECK-NEXT: gpu.memcpy async [%[[T4]]] %arg1, %arg0 : memref<256xf32>, memref<256xf32, #gpu.address_space<global>>
// CHECK-NEXT: %[[T5:.*]] = sdfg.stream_token %[[SLOTS]]#0
// CHECK-NEXT: gpu.dealloc async [%[[T5]]] %[[TMP]] : memref<256xf32, #gpu.address_space<global>>
// CHECK-NEXT: sdfg.return
sdfg.sdfg @copies(%D: memref<256xf32, #gpu.address_space<global>>, %H: memref<256xf32>) target(gpu, streams = 2) {
  %zero = arith.constant 0.0 : f32
  %tmp = gpu.alloc () : memref<256xf32, #gpu.address_space<global>>
  gpu.memcpy %tmp, %H : memref<256xf32, #gpu.address_space<global>>, memref<256xf32>
  gpu.memcpy %D, %tmp : memref<256xf32, #gpu.address_space<global>>, memref<256xf32, #gpu.address_space<global>> {sdfg.stream_slot = 1 : i64}
  gpu.memset %tmp, %zero : memref<256xf32, #gpu.address_space<global>>, f32 {sdfg.stream_slot = 1 : i64}
  gpu.memcpy %H, %D : memref<256xf32>, memref<256xf32, #gpu.address_space<global>>
  gpu.dealloc %tmp : memref<256xf32, #gpu.address_space<global>>
  sdfg.return
}

// -----

// Several states and a conditional interstate edge: GPU work in every
// state takes the stream from the entry block's init op; the host code of
// the edges is untouched.
// CHECK-LABEL: sdfg.sdfg @states
// CHECK-SAME: %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK: %[[T0:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memcpy async [%[[T0]]]
// CHECK: cf.cond_br %{{.*}}, ^[[THEN:.*]](%{{.*}} : index), ^[[ELSE:.*]]
// CHECK: ^[[THEN]](%{{.*}}: index):
// CHECK: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memset async [%[[T1]]]
// CHECK: cf.br ^[[EXIT:.*]]
// CHECK: ^[[ELSE]]:
// CHECK: scf.for
// CHECK-NEXT: %[[T2:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memcpy async [%[[T2]]]
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: sdfg.return
sdfg.sdfg @states(%D: memref<64xf32, #gpu.address_space<global>>, %H: memref<64xf32>, %n: index) target(gpu) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.memcpy %D, %H : memref<64xf32, #gpu.address_space<global>>, memref<64xf32>
  %big = arith.cmpi sgt, %n, %c0 : index
  cf.cond_br %big, ^then(%n : index), ^else
^then(%m: index):
  %one = arith.constant 1.0 : f32
  gpu.memset %D, %one : memref<64xf32, #gpu.address_space<global>>, f32
  cf.br ^exit
^else:
  scf.for %i = %c0 to %n step %c1 {
    gpu.memcpy %H, %D : memref<64xf32>, memref<64xf32, #gpu.address_space<global>>
  }
  cf.br ^exit
^exit:
  sdfg.return
}

// -----

// A CPU-only program and a func.func without GPU work are left exactly as
// they were.
// CHECK-LABEL: sdfg.sdfg @cpu_only(%arg0: memref<4xf32>, %arg1: memref<f32>) target(cpu) {
// CHECK-NEXT: sdfg.reduce add %arg0 into %arg1 : memref<4xf32> -> memref<f32>
// CHECK-NEXT: sdfg.return
// CHECK-LABEL: func.func @host_only(%arg0: memref<4xf32>) {
// CHECK-NEXT: %[[OUT:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: sdfg.call @cpu_only(%arg0, %[[OUT]]) : (memref<4xf32>, memref<f32>) -> ()
// CHECK-NEXT: return
// CHECK-NOT: sdfg.stream
sdfg.sdfg @cpu_only(%A: memref<4xf32>, %out: memref<f32>) target(cpu) {
  sdfg.reduce add %A into %out : memref<4xf32> -> memref<f32>
  sdfg.return
}
func.func @host_only(%A: memref<4xf32>) {
  %out = memref.alloca() : memref<f32>
  sdfg.call @cpu_only(%A, %out) : (memref<4xf32>, memref<f32>) -> ()
  return
}

// -----

// Nested programs: the stream of the call's slot is passed on at any depth
// (outer -> middle -> inner), and a middle program without GPU work of its
// own gets the stream because it calls one that has. Library nodes get
// the stream too.
// CHECK-LABEL: sdfg.sdfg private @inner
// CHECK-SAME: %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memset async [%[[T]]]
// CHECK-LABEL: sdfg.sdfg private @middle
// CHECK-SAME: (%[[A:.*]]: memref<16xf32, 1>, %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NEXT: sdfg.call @inner(%[[A]], %[[SLOT]]) : (memref<16xf32, 1>, !sdfg.stream) -> ()
// CHECK-LABEL: sdfg.sdfg @outer
// CHECK-SAME: %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) target(gpu, streams = 2)
// CHECK-NEXT: %[[SLOTS:.*]]:2 = sdfg.init_streams %[[S]]
// CHECK-NEXT: sdfg.call @middle(%{{.*}}, %[[SLOTS]]#1) {sdfg.stream_slot = 1 : i64}
// CHECK-NEXT: sdfg.reduce add %{{.*}} into %{{.*}} on %[[SLOTS]]#0 :
// CHECK-NEXT: sdfg.return
sdfg.sdfg private @inner(%A: memref<16xf32, 1>) target(gpu) {
  %zero = arith.constant 0.0 : f32
  gpu.memset %A, %zero : memref<16xf32, 1>, f32
  sdfg.return
}
sdfg.sdfg private @middle(%A: memref<16xf32, 1>) target(gpu) {
  sdfg.call @inner(%A) : (memref<16xf32, 1>) -> ()
  sdfg.return
}
sdfg.sdfg @outer(%A: memref<16xf32, 1>, %out: memref<f32, 1>) target(gpu, streams = 2) {
  sdfg.call @middle(%A) {sdfg.stream_slot = 1 : i64} : (memref<16xf32, 1>) -> ()
  sdfg.reduce add %A into %out : memref<16xf32, 1> -> memref<f32, 1>
  sdfg.return
}

// -----

// func.func in sync form (what a DSL compiler or gpu-kernel-outlining
// produces) and its callers: a func with GPU work only through a call gets
// the stream, a func that calls nothing with GPU work does not.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%A: memref<?xf32>) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @sync_form
  // CHECK-SAME: (%[[H:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
  // CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]] -> !sdfg.stream
  // CHECK: %[[T0:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: %[[D:.*]], %{{.*}} = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?xf32>
  // CHECK-NEXT: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.memcpy async [%[[T1]]] %[[D]], %[[H]]
  // CHECK-NEXT: %[[T2:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.launch_func async [%[[T2]]] @kernels::@add
  // CHECK-NEXT: %[[T3:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.memcpy async [%[[T3]]] %[[H]], %[[D]]
  // CHECK-NEXT: %[[T4:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.dealloc async [%[[T4]]] %[[D]]
  // CHECK-NEXT: return
  func.func @sync_form(%H: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %D = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %D, %H : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%D : memref<?xf32>)
    gpu.memcpy %H, %D : memref<?xf32>, memref<?xf32>
    gpu.dealloc %D : memref<?xf32>
    return
  }
  // CHECK-LABEL: func.func @caller
  // CHECK-SAME: (%[[H:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
  // CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
  // CHECK-NEXT: call @sync_form(%[[H]], %[[N]], %[[SLOT]]) : (memref<?xf32>, index, !sdfg.stream) -> ()
  func.func @caller(%H: memref<?xf32>, %n: index) {
    func.call @sync_form(%H, %n) : (memref<?xf32>, index) -> ()
    return
  }
  // CHECK-LABEL: func.func @unrelated(%arg0: index) -> index {
  // CHECK-NEXT: return
  func.func @unrelated(%n: index) -> index {
    return %n : index
  }
}

// -----

// func.func in async-token form, as gpu-async-region writes it: the stream
// that `gpu.wait async` would create is the caller's stream, token chains
// collapse onto it, and the final blocking `gpu.wait` becomes a sync of that
// stream (never a destroy).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%A: memref<?xf32>) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @async_form
  // CHECK-SAME: %[[S:[^:]*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
  // CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
  // CHECK-NOT: gpu.wait
  // CHECK: %[[T0:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: %[[D:.*]], %{{.*}} = gpu.alloc async [%[[T0]]]
  // CHECK-NOT: gpu.wait
  // CHECK: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.memcpy async [%[[T1]]] %[[D]]
  // CHECK-NEXT: %[[T2:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.launch_func async [%[[T2]]] @kernels::@add
  // CHECK-NEXT: %[[T3:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.memcpy async [%[[T3]]] %{{.*}}, %[[D]]
  // CHECK-NEXT: %[[T4:.*]] = sdfg.stream_token %[[SLOT]]
  // CHECK-NEXT: gpu.dealloc async [%[[T4]]] %[[D]]
  // CHECK-NEXT: sdfg.sync %[[SLOT]]
  // CHECK-NOT: gpu.wait
  // CHECK-NEXT: return
  func.func @async_form(%H: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %D, %1 = gpu.alloc async [%0] (%n) : memref<?xf32>
    %2 = gpu.wait async [%1]
    %3 = gpu.memcpy async [%2] %D, %H : memref<?xf32>, memref<?xf32>
    %4 = gpu.launch_func async [%3] @kernels::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%D : memref<?xf32>)
    %5 = gpu.memcpy async [%4] %H, %D : memref<?xf32>, memref<?xf32>
    %6 = gpu.dealloc async [%5, %4] %D : memref<?xf32>
    gpu.wait [%6]
    return
  }
}

// -----

// A blocking `gpu.wait` without dependencies waits for the program's
// stream; ops that already run on an explicit stream keep it. A stream that
// is not the last argument is another stream, not the caller's.
// CHECK-LABEL: func.func @explicit_streams
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %[[MINE:.*]]: !sdfg.stream, %{{.*}}: f32, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[MINE]]
// CHECK-NEXT: gpu.memset async [%[[T]]]
// CHECK-NEXT: sdfg.sync %[[SLOT]]
// CHECK-NEXT: return
func.func @explicit_streams(%A: memref<4xf32, 1>, %mine: !sdfg.stream, %v: f32) {
  %t = sdfg.stream_token %mine
  %done = gpu.memset async [%t] %A, %v : memref<4xf32, 1>, f32
  gpu.wait
  return
}

// -----

// Functions that already take a stream as their last argument: that is the
// caller's stream (marked, not a second one added), and a call that passes
// the caller's own stream there passes the call's slot of it.
// CHECK-LABEL: func.func private @takes_stream
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NEXT: sdfg.init_streams %[[S]]
// CHECK-LABEL: func.func @passes_stream
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NEXT: call @takes_stream(%{{.*}}, %[[SLOT]]) : (memref<4xf32, 1>, !sdfg.stream) -> ()
func.func private @takes_stream(%A: memref<4xf32, 1>, %s: !sdfg.stream) {
  %v = arith.constant 1.0 : f32
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}
func.func @passes_stream(%A: memref<4xf32, 1>, %s: !sdfg.stream) {
  func.call @takes_stream(%A, %s) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  return
}

// -----

// A call with per-argument attributes: they cover the stream argument too.
// CHECK-LABEL: func.func @call_with_arg_attrs
// CHECK: call @fill(%{{.*}}, %{{.*}}) {arg_attrs = [{llvm.noalias}, {}]}
func.func private @fill(%A: memref<4xf32, 1>) {
  %v = arith.constant 1.0 : f32
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}
func.func @call_with_arg_attrs(%A: memref<4xf32, 1>) {
  func.call @fill(%A) {arg_attrs = [{llvm.noalias}]} : (memref<4xf32, 1>) -> ()
  return
}

// -----

// The address of a GPU function: func.constant takes the new type and
// call_indirect passes the stream.
// CHECK-LABEL: func.func @indirect
// CHECK-SAME: %[[S:arg[0-9]+]]: !sdfg.stream {sdfg.external_stream
// CHECK: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK: %[[F:.*]] = constant @fill : (memref<4xf32, 1>, !sdfg.stream) -> ()
// CHECK: call_indirect %[[F]](%{{.*}}, %[[SLOT]])
func.func private @fill(%A: memref<4xf32, 1>) {
  %v = arith.constant 1.0 : f32
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}
func.func @indirect(%A: memref<4xf32, 1>) {
  %f = func.constant @fill : (memref<4xf32, 1>) -> ()
  func.call_indirect %f(%A) : (memref<4xf32, 1>) -> ()
  return
}

// -----

// A body-less GPU program (compiled elsewhere) takes the stream, and so do
// its callers.
// CHECK-LABEL: sdfg.sdfg private @elsewhere
// CHECK-SAME: (memref<4xf32, 1>, !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) target(gpu
// CHECK-LABEL: sdfg.sdfg @calls_elsewhere
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK: sdfg.call @elsewhere(%{{.*}}, %[[SLOT]])
sdfg.sdfg private @elsewhere(memref<4xf32, 1>) target(gpu)
sdfg.sdfg @calls_elsewhere(%A: memref<4xf32, 1>) target(gpu) {
  sdfg.call @elsewhere(%A) : (memref<4xf32, 1>) -> ()
  sdfg.return
}

// -----

// A kernel written in place with gpu.launch moves onto the stream too, with
// its body intact.
// CHECK-LABEL: sdfg.sdfg @inline_kernel
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.launch async [%[[T]]] blocks
// CHECK: memref.store
// CHECK: gpu.terminator
sdfg.sdfg @inline_kernel(%A: memref<4xf32, 1>, %v: f32) target(gpu) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    memref.store %v, %A[%tx] : memref<4xf32, 1>
    gpu.terminator
  }
  sdfg.return
}

// -----

// Streams initialized by hand from the last argument: that argument is the
// caller's stream; it gets marked and nothing is added.
// CHECK-LABEL: func.func @hand_written
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %{{.*}}: f32, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}) {
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK-NEXT: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.memset async [%[[T]]]
func.func @hand_written(%A: memref<4xf32, 1>, %v: f32, %s: !sdfg.stream) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  gpu.memset %A, %v : memref<4xf32, 1>, f32
  return
}

// -----

// An async op that waits on nothing takes the stream token in place
// (gpu::AsyncOpInterface::addAsyncDependency): the same op, its result
// used as before; an op with dependencies of its own gets only the token.
// CHECK-LABEL: func.func @async_without_dependencies
// CHECK: %[[SLOT:.*]] = sdfg.init_streams
// CHECK: %[[T0:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: %[[M:.*]], %{{.*}} = gpu.alloc async [%[[T0]]] (%{{.*}}) {note = "kept"} : memref<?xf32, 1>
// CHECK-NEXT: %[[T1:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.dealloc async [%[[T1]]] %[[M]] : memref<?xf32, 1>
// CHECK-NEXT: sdfg.sync %[[SLOT]]
func.func @async_without_dependencies(%n: index) {
  %t, %tok = gpu.alloc async (%n) {note = "kept"} : memref<?xf32, 1>
  %t2 = gpu.dealloc async [%tok] %t : memref<?xf32, 1>
  gpu.wait [%t2]
  return
}
