// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-func | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-func=graph-mode=true | FileCheck %s --check-prefix=ALL
// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-func="graph-mode=true test-omit-graph-mode-checks=true" | FileCheck %s --check-prefix=OMIT

// Graph mode: a program marked sdfg.graph_mode opens its calls with
// sdfgrtBeginGraphCall and its name, a private constant; the others (and,
// with graph-mode=true, none) with sdfgrtBeginCall. The call still ends
// with sdfgrtEndCall and returns its status.

// CHECK: llvm.mlir.global private constant @__sdfgrt_program_graphed("graphed\00")
// CHECK-NOT: @__sdfgrt_program_eager
// CHECK-LABEL: func.func @graphed
// CHECK-SAME: attributes {{{.*}}sdfg.graph_mode
// CHECK-NEXT: %[[NAME:.*]] = llvm.mlir.addressof @__sdfgrt_program_graphed : !llvm.ptr
// CHECK-NEXT: call @sdfgrtBeginGraphCall(%[[NAME]]) : (!llvm.ptr) -> ()
// CHECK: %[[STATUS:.*]] = call @sdfgrtEndCall() : () -> i32
// CHECK-NEXT: return %[[STATUS]] : i32
// CHECK-LABEL: func.func @eager
// CHECK-NOT: sdfgrtBeginGraphCall
// CHECK: call @sdfgrtBeginCall() : () -> ()
// CHECK-DAG: func.func private @sdfgrtBeginGraphCall(!llvm.ptr)
// CHECK-DAG: func.func private @sdfgrtBeginCall()
// CHECK-DAG: func.func private @sdfgrtEndCall() -> i32

// ALL-LABEL: func.func @graphed
// ALL: call @sdfgrtBeginGraphCall
// ALL-LABEL: func.func @eager
// ALL-NEXT: %[[NAME:.*]] = llvm.mlir.addressof @__sdfgrt_program_eager : !llvm.ptr
// ALL-NEXT: call @sdfgrtBeginGraphCall(%[[NAME]]) : (!llvm.ptr) -> ()
// ALL-NOT: call @sdfgrtBeginCall()
// ALL-NOT: func.func private @sdfgrtBeginCall()
sdfg.sdfg @graphed(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) attributes {sdfg.graph_mode} {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
sdfg.sdfg @eager(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// -----

// A func.func program takes graph mode the same way.

// CHECK-LABEL: func.func @gpu_function
// CHECK-SAME: -> i32 attributes {llvm.emit_c_interface, sdfg.graph_mode, sdfg.program}
// CHECK-NEXT: %[[NAME:.*]] = llvm.mlir.addressof @__sdfgrt_program_gpu_function : !llvm.ptr
// CHECK-NEXT: call @sdfgrtBeginGraphCall(%[[NAME]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: sdfg.init_streams
// CHECK-NEXT: %[[STATUS:.*]] = call @sdfgrtEndCall() : () -> i32
// CHECK-NEXT: return %[[STATUS]] : i32
// CHECK-LABEL: func.func @plain_function
// CHECK-NEXT: call @sdfgrtBeginCall() : () -> ()

// ALL-LABEL: func.func @plain_function
// ALL-NEXT: llvm.mlir.addressof @__sdfgrt_program_plain_function
// ALL-NEXT: call @sdfgrtBeginGraphCall
// ALL-NOT: func.func private @sdfgrtBeginCall()
func.func @gpu_function(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.graph_mode} {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  return
}
func.func @plain_function(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  return
}

// -----

// A program without GPU work needs no runtime, in graph mode too (on a
// target(cpu) program the attribute is an error: errors.mlir).

// CHECK-LABEL: func.func @host_only
// CHECK-NOT: sdfgrtBegin
// CHECK: arith.constant 0 : i32
// ALL-LABEL: func.func @host_only
// ALL-NOT: sdfgrtBegin
sdfg.sdfg @host_only(%n: index) target(gpu) attributes {sdfg.graph_mode} {
  sdfg.return
}

// -----

// A module that uses the constant's name for something else: the name
// constant gets a fresh one.

// CHECK: llvm.mlir.global private constant @__sdfgrt_program_p_0("p\00")
// CHECK: func.func private @__sdfgrt_program_p()
// CHECK-LABEL: func.func @p
// CHECK-NEXT: llvm.mlir.addressof @__sdfgrt_program_p_0 : !llvm.ptr
// ALL: llvm.mlir.global private constant @__sdfgrt_program_p_0("p\00")
func.func private @__sdfgrt_program_p()
sdfg.sdfg @p(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) attributes {sdfg.graph_mode} {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// -----

// A public func.func that returns values of its own opens its calls
// eagerly even with graph-mode=true: what it allocates may be returned,
// and graph mode keeps a program's allocations for its next call.
// ALL-LABEL: func.func @returns_a_value
// ALL-NOT: sdfgrtBeginGraphCall
// ALL: call @sdfgrtBeginCall() : () -> ()
// ALL: call @sdfgrtEndCall() : () -> i32
// ALL: func.func private @sdfgrtBeginCall()
func.func @returns_a_value(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> f32 {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %zero = arith.constant 0.0 : f32
  return %zero : f32
}

// -----

// Graph mode keeps a program's GPU allocations for its next call: a program
// whose allocation leaves the call (its address stored through an
// out-pointer, here as an integer; or by a nested program it calls) runs
// eagerly, or the next call would hand out the same buffer again.
// ALL-LABEL: func.func @hands_out_a_buffer
// ALL-NOT: sdfgrtBeginGraphCall
// ALL: call @sdfgrtBeginCall() : () -> ()
// ALL-LABEL: func.func @calls_one_that_does
// ALL-NOT: sdfgrtBeginGraphCall
// ALL: call @sdfgrtBeginCall() : () -> ()
// ALL-LABEL: func.func @keeps_its_buffer
// The negative control of the GPU tests (test-omit-graph-mode-checks): graph
// mode even so.
// OMIT-LABEL: func.func @hands_out_a_buffer
// OMIT-NEXT: llvm.mlir.addressof
// OMIT-NEXT: call @sdfgrtBeginGraphCall
// OMIT-LABEL: func.func @calls_one_that_does
// OMIT-NEXT: llvm.mlir.addressof
// OMIT-NEXT: call @sdfgrtBeginGraphCall
// ALL-NEXT: llvm.mlir.addressof
// ALL-NEXT: call @sdfgrtBeginGraphCall
sdfg.sdfg @hands_out_a_buffer(%out: memref<index>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %m, %t2 = gpu.alloc async [%t] () : memref<4xf32, 1>
  %i = memref.extract_aligned_pointer_as_index %m : memref<4xf32, 1> -> index
  memref.store %i, %out[] : memref<index>
  sdfg.return
}
sdfg.sdfg @calls_one_that_does(%out: memref<index>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.call @hands_out_a_buffer(%out, %slot) : (memref<index>, !sdfg.stream) -> ()
  sdfg.return
}
sdfg.sdfg @keeps_its_buffer(%out: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %m, %t2 = gpu.alloc async [%t] () : memref<4xf32, 1>
  %t3 = gpu.memcpy async [%t2] %out, %m : memref<4xf32, 1>, memref<4xf32, 1>
  %t4 = gpu.dealloc async [%t3] %m : memref<4xf32, 1>
  sdfg.return
}

// -----

// In graph mode, a call that leaves the runtime (a kernel library built
// elsewhere that enqueues its own work on the stream, a host function)
// first launches what the call recorded: sdfgrtFlushGraphWork before each
// call of a body-less function; none before a nested program with a body.
// Without graph mode anywhere in the module, nothing is added.
// CHECK-LABEL: func.func @leaves_the_runtime
// CHECK-NOT: sdfgrtFlushGraphWork
// CHECK: return
// ALL-LABEL: func.func @leaves_the_runtime
// ALL: gpu.memset
// ALL-NEXT: call @sdfgrtFlushGraphWork() : () -> ()
// ALL-NEXT: call @library_step
// ALL: sdfg.sync
// ALL-NEXT: call @sdfgrtFlushGraphWork() : () -> ()
// ALL-NEXT: call @host_print
// ALL-NOT: sdfgrtFlushGraphWork
// ALL: call @nested
// ALL: func.func private @sdfgrtFlushGraphWork()
// The negative control of the GPU tests (test-omit-graph-mode-checks): no
// flush.
// OMIT-LABEL: func.func @leaves_the_runtime
// OMIT-NOT: sdfgrtFlushGraphWork
// OMIT: return
func.func private @library_step(memref<4xf32, 1>, !sdfg.stream)
func.func private @host_print(memref<4xf32>)
sdfg.sdfg private @nested(%d: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
sdfg.sdfg @leaves_the_runtime(%d: memref<4xf32, 1>, %h: memref<4xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %f = arith.constant 1.0 : f32
  %t2 = gpu.memset async [%t] %d, %f : memref<4xf32, 1>, f32
  func.call @library_step(%d, %slot) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  sdfg.sync %slot
  func.call @host_print(%h) : (memref<4xf32>) -> ()
  sdfg.call @nested(%d, %slot) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  sdfg.return
}
