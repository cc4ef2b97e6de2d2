// RUN: sdfg-opt %s -convert-sdfg-to-func | FileCheck %s

// A public func.func is a program too. One that takes the caller's stream
// and returns nothing returns the call's status from sdfgrtEndCall, like an
// sdfg.sdfg program, and its callers get (and ignore) that status; every
// public function with a body gets a C entry point. Private functions and
// declarations are left alone.

// CHECK-LABEL: func.func @gpu_function
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "s"}) -> i32 attributes {llvm.emit_c_interface, sdfg.program}
// CHECK-NEXT: call @sdfgrtBeginCall() : () -> ()
// CHECK-NEXT: sdfg.init_streams %[[S]]
// CHECK-NEXT: %[[STATUS:.*]] = call @sdfgrtEndCall() : () -> i32
// CHECK-NEXT: return %[[STATUS]] : i32
func.func @gpu_function(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  return
}

// CHECK-LABEL: func.func @caller
// CHECK: %{{.*}} = call @gpu_function(%{{.*}}, %{{.*}}) : (memref<4xf32, 1>, !sdfg.stream) -> i32
func.func @caller(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  call @gpu_function(%A, %slot) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  return
}

// Its address called indirectly (func.constant, func.call_indirect) gets
// the new type and the status result too.
// CHECK-LABEL: func.func @indirect_caller
// CHECK: %[[F:.*]] = constant @gpu_function : (memref<4xf32, 1>, !sdfg.stream) -> i32
// CHECK: %{{.*}} = call_indirect %[[F]](%{{.*}}, %{{.*}}) : (memref<4xf32, 1>, !sdfg.stream) -> i32
func.func @indirect_caller(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %f = constant @gpu_function : (memref<4xf32, 1>, !sdfg.stream) -> ()
  call_indirect %f(%A, %slot) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  return
}

// One with GPU work that returns values of its own keeps its signature; its
// calls are opened and closed all the same (the status is read with
// sdfgrtGetLastErrorCode()).
// CHECK-LABEL: func.func @gpu_function_with_result
// CHECK-SAME: (%{{.*}}: memref<4xf32, 1>, %{{.*}}: !sdfg.stream {sdfg.external_stream = "s"}) -> f32 attributes {llvm.emit_c_interface} {
// CHECK-NEXT: call @sdfgrtBeginCall() : () -> ()
// CHECK: %{{.*}} = call @sdfgrtEndCall() : () -> i32
// CHECK-NEXT: return %{{.*}} : f32
func.func @gpu_function_with_result(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> f32 {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %zero = arith.constant 0.0 : f32
  return %zero : f32
}

// Host code keeps its results and gets a C entry point.
// CHECK-LABEL: func.func @host_function(%{{.*}}: index) -> index attributes {llvm.emit_c_interface}
// CHECK-NEXT: return
func.func @host_function(%n: index) -> index {
  return %n : index
}

// CHECK-LABEL: func.func private @helper(%{{.*}}: index) -> index {
func.func private @helper(%n: index) -> index {
  return %n : index
}
// CHECK: func.func private @external(index)
func.func private @external(index)

// CHECK: func.func private @sdfgrtBeginCall()
// CHECK: func.func private @sdfgrtEndCall() -> i32
