// RUN: sdfg-opt %s -convert-sdfg-to-llvm | FileCheck %s

// A program library exports its public programs and nothing else: private
// and nested definitions (a library-node expansion, a nested program, a
// helper, the C entry of a private function) get internal linkage; public
// definitions are dso_local, so that their own calls reach them and no
// other definition of their name; declarations, definitions with a linkage
// of their own and kernels are left as they are.

// CHECK-LABEL: llvm.func @poll(
// CHECK-SAME: dso_local
// CHECK: llvm.call @poll(
// CHECK: llvm.call @__sdfg_reduce_add_f32_gpu(
// CHECK: llvm.call @helper(
// CHECK: llvm.call @elsewhere(
// CHECK-LABEL: llvm.func @_mlir_ciface_poll(
// CHECK-SAME: dso_local
// CHECK-LABEL: llvm.func internal @__sdfg_reduce_add_f32_gpu(
// CHECK-LABEL: llvm.func internal @helper(
// CHECK-LABEL: llvm.func @elsewhere(i64) -> i64
// CHECK-NOT: dso_local
// CHECK-LABEL: llvm.func weak @overridable(
// CHECK-NOT: dso_local
// CHECK-LABEL: llvm.func internal @hidden_entry(
// CHECK-LABEL: llvm.func internal @_mlir_ciface_hidden_entry(
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.func @kernel()
// CHECK-NOT: internal
// CHECK-NOT: dso_local
// CHECK: llvm.func @device_function()
module attributes {gpu.container_module} {
  func.func @poll(%n: i64) -> i64 attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %done = arith.cmpi eq, %n, %c0 : i64
    cf.cond_br %done, ^base, ^recurse
  ^base:
    return %c1 : i64
  ^recurse:
    %m = arith.subi %n, %c1 : i64
    %a = func.call @poll(%m) : (i64) -> i64
    %b = func.call @__sdfg_reduce_add_f32_gpu(%a) : (i64) -> i64
    %c = func.call @helper(%b) : (i64) -> i64
    %d = func.call @elsewhere(%c) : (i64) -> i64
    return %d : i64
  }
  func.func private @__sdfg_reduce_add_f32_gpu(%n: i64) -> i64 {
    return %n : i64
  }
  func.func nested @helper(%n: i64) -> i64 {
    return %n : i64
  }
  func.func private @elsewhere(i64) -> i64
  func.func @overridable() attributes {llvm.linkage = #llvm.linkage<weak>} {
    return
  }
  func.func private @hidden_entry() attributes {llvm.emit_c_interface} {
    return
  }
  gpu.module @kernels {
    llvm.func @kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.call @device_function() : () -> ()
      llvm.return
    }
    llvm.func @device_function() {
      llvm.return
    }
  }
}
