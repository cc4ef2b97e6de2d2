// RUN: sdfg-opt %s -sdfg-record-locations | FileCheck %s

// Each module is its own symbol table, so a GPU op in a nested module
// points into a table that module holds, with its own declaration (found
// by the fuzzer: the one table went to the outermost module, where the
// nested module's ops cannot see it, and the result did not verify).
// CHECK-LABEL: module @outer
// CHECK:   llvm.func @sdfgrtSetLocation(!llvm.ptr)
// CHECK:   llvm.mlir.global private constant @__sdfgrt_locations("{{[^"]*}}record-locations.mlir:[[@LINE+17]]:10\00{{[^"]*}}record-locations.mlir:[[@LINE+18]]:5\00")
// CHECK:   func.func @outer_program
// CHECK:     llvm.mlir.addressof @__sdfgrt_locations
// CHECK:     llvm.call @sdfgrtSetLocation
// CHECK:     gpu.memcpy
// CHECK:   module @inner
// CHECK:     llvm.func @sdfgrtSetLocation(!llvm.ptr)
// CHECK:     llvm.mlir.global private constant @__sdfgrt_locations("{{[^"]*}}record-locations.mlir:[[@LINE+20]]:12\00{{[^"]*}}record-locations.mlir:[[@LINE+21]]:7\00")
// CHECK:     func.func @inner_program
// CHECK:       llvm.mlir.addressof @__sdfgrt_locations
// CHECK:       llvm.call @sdfgrtSetLocation
// CHECK:       gpu.memset
module @outer {
  func.func @outer_program(%D: memref<16xf32, #gpu.address_space<global>>, %H: memref<16xf32>,
                           %s: !sdfg.stream {sdfg.external_stream = "s"}) {
    %slot = sdfg.init_streams %s -> !sdfg.stream
    %t = sdfg.stream_token %slot
    %0 = gpu.memcpy async [%t] %D, %H : memref<16xf32, #gpu.address_space<global>>, memref<16xf32>
    sdfg.sync %slot
    return
  }
  module @inner {
    func.func @inner_program(%B: memref<16xi8, #gpu.address_space<global>>,
                             %s: !sdfg.stream {sdfg.external_stream = "s"}) {
      %slot = sdfg.init_streams %s -> !sdfg.stream
      %b = arith.constant 7 : i8
      %t = sdfg.stream_token %slot
      %0 = gpu.memset async [%t] %B, %b : memref<16xi8, #gpu.address_space<global>>, i8
      sdfg.sync %slot
      return
    }
  }
}
