// RUN: sdfg-opt %s -expand-strided-metadata -convert-sdfg-to-llvm | FileCheck %s

// A view whose static offset does not fit a 32-bit GEP constant (3e9
// elements into a 4 GiB buffer) is still addressed from its first element:
// the offset is an i64 index, not a truncated constant.

// CHECK-LABEL: llvm.func @copy_far_tail
// CHECK: %[[OFFSET:.*]] = llvm.mlir.constant(3000000000 : i64) : i64
// CHECK-NEXT: %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %[[FIRST]], %{{.*}}, %{{.*}})
module attributes {gpu.container_module} {
  func.func @copy_far_tail(%big: memref<4294967300xi8, 1>, %out: memref<4xi8>,
                           %s: !sdfg.stream {sdfg.external_stream = "s"}) {
    %slot = sdfg.init_streams %s -> !sdfg.stream
    %t = sdfg.stream_token %slot
    %tail = memref.subview %big[3000000000] [4] [1]
        : memref<4294967300xi8, 1> to memref<4xi8, strided<[1], offset: 3000000000>, 1>
    %t1 = gpu.memcpy async [%t] %out, %tail
        : memref<4xi8>, memref<4xi8, strided<[1], offset: 3000000000>, 1>
    return
  }
}
