// RUN: sdfg-opt %s --pass-pipeline='builtin.module(gpu.module(convert-kernel-asserts-to-traps))' | FileCheck %s

// Every cf.assert of a kernel becomes a branch to a block that prints the
// message (with its location, block and thread; a '%' in it printed as
// such) and traps; the code after it runs on the other edge. Host asserts
// are left alone.

// CHECK-LABEL: gpu.func @two_asserts
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[POSITIVE:.*]] = arith.cmpf ogt, %[[X]]
// CHECK: cf.cond_br %[[POSITIVE]], ^[[NEXT:bb[0-9]+]], ^[[FAILED:bb[0-9]+]]
// CHECK: ^[[FAILED]]:
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[BZ:.*]] = gpu.block_id z
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
// CHECK: gpu.printf "{{.*}}convert-kernel-asserts-to-traps.mlir:[[@LINE+19]]:7: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] Assertion `x above 0` failed.\0A", %[[BX]], %[[BY]], %[[BZ]], %[[TX]], %[[TY]], %[[TZ]]
// CHECK-NEXT: llvm.intr.trap
// CHECK-NEXT: llvm.unreachable
// CHECK: ^[[NEXT]]:
// CHECK: %[[SMALL:.*]] = arith.cmpf olt, %[[X]]
// CHECK: cf.cond_br %[[SMALL]], ^[[NEXT2:bb[0-9]+]], ^[[FAILED2:bb[0-9]+]]
// CHECK: ^[[FAILED2]]:
// CHECK: gpu.printf "{{.*}}: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] Assertion `x below 100%%` failed.\0A"
// CHECK: llvm.intr.trap
// CHECK: ^[[NEXT2]]:
// CHECK-NEXT: gpu.return
// CHECK-NOT: cf.assert
// CHECK-LABEL: func.func @host
// CHECK: cf.assert
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @two_asserts(%x: f32) kernel {
      %zero = arith.constant 0.0 : f32
      %positive = arith.cmpf ogt, %x, %zero : f32
      cf.assert %positive, "x above 0"
      %hundred = arith.constant 100.0 : f32
      %small = arith.cmpf olt, %x, %hundred : f32
      cf.assert %small, "x below 100%"
      gpu.return
    }
  }
  func.func @host(%ok: i1) {
    cf.assert %ok, "host assert"
    return
  }
}
