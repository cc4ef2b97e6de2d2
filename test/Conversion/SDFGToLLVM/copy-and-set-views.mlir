// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-llvm | FileCheck %s

// A copy between views addresses the first element of each: the aligned
// pointer advanced by the view's offset, a static one folded in, a dynamic
// one read from the descriptor (field 2). Upstream's pattern used the
// aligned pointers as they are, so a copy into a subview at offset 4 wrote
// to element 0.
// CHECK-LABEL: llvm.func @copy_into_offset_view
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK-DAG: %[[DST:.*]] = llvm.insertvalue %arg4, %{{.*}}[4, 0]
// CHECK-DAG: %[[SRC:.*]] = llvm.insertvalue %arg9, %{{.*}}[4, 0]
// CHECK: %[[DSTALIGNED:.*]] = llvm.extractvalue %[[DST]][1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[DSTFIRST:.*]] = llvm.getelementptr %[[DSTALIGNED]][4] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK: %[[SRCALIGNED:.*]] = llvm.extractvalue %[[SRC]][1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.call @mgpuMemcpy(%[[DSTFIRST]], %[[SRCALIGNED]], %{{.*}}, %[[S]])
func.func @copy_into_offset_view(%D: memref<8xf32, strided<[1], offset: 4>>, %H: memref<8xf32>,
                                 %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %0 = gpu.memcpy async [%t] %D, %H : memref<8xf32, strided<[1], offset: 4>>, memref<8xf32>
  return
}

// -----

// Both offsets dynamic (a shift within one buffer): each is read from its
// descriptor; the byte count is the element count times the element size.
// CHECK-LABEL: llvm.func @copy_between_dynamic_offsets
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: %[[ONE:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK: %[[ELEMENT:.*]] = llvm.ptrtoint %[[ONE]] : !llvm.ptr to i64
// CHECK: %[[COUNT:.*]] = llvm.extractvalue %{{.*}}[3, 0]
// CHECK: %[[BYTES:.*]] = llvm.mul %[[COUNT]], %[[ELEMENT]] : i64
// CHECK: %[[DSTALIGNED:.*]] = llvm.extractvalue %[[DST:.*]][1]
// CHECK: %[[DSTOFFSET:.*]] = llvm.extractvalue %[[DST]][2]
// CHECK: %[[DSTFIRST:.*]] = llvm.getelementptr %[[DSTALIGNED]][%[[DSTOFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[SRCALIGNED:.*]] = llvm.extractvalue %[[SRC:.*]][1]
// CHECK: %[[SRCOFFSET:.*]] = llvm.extractvalue %[[SRC]][2]
// CHECK: %[[SRCFIRST:.*]] = llvm.getelementptr %[[SRCALIGNED]][%[[SRCOFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.call @mgpuMemcpy(%[[DSTFIRST]], %[[SRCFIRST]], %[[BYTES]], %[[S]])
func.func @copy_between_dynamic_offsets(%D: memref<?xf32, strided<[1], offset: ?>>, %E: memref<?xf32, strided<[1], offset: ?>>,
                                        %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %0 = gpu.memcpy async [%t] %D, %E : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>
  return
}

// -----

// A numbered GPU memory space is a plain pointer on the host: the first
// element's address goes to the runtime as is.
// CHECK-LABEL: llvm.func @copy_from_global_view
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[16] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %[[FIRST]],
func.func @copy_from_global_view(%H: memref<4x4xi32>, %D: memref<4x4xi32, strided<[4, 1], offset: 16>, 1>,
                                 %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %0 = gpu.memcpy async [%t] %H, %D : memref<4x4xi32>, memref<4x4xi32, strided<[4, 1], offset: 16>, 1>
  return
}

// -----

// A view that is not dense (a tile of a matrix, rows 8 elements apart) goes
// to the runtime with both descriptors, copied to stack slots in the entry
// block (not in the loop: the stack does not grow per iteration).
// CHECK-LABEL: llvm.func @copy_tile_in_loop
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: %[[SRCSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[DSTSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: ^bb1(
// CHECK-NOT: llvm.alloca
// CHECK: %[[RANK:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK: llvm.store %{{.*}}, %[[DSTSLOT]]
// CHECK: llvm.store %{{.*}}, %[[SRCSLOT]]
// CHECK: llvm.call @sdfgrtMemcpyStrided(%[[RANK]], %[[DSTSLOT]], %[[SRCSLOT]], %{{.*}}, %[[S]]) : (i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
func.func @copy_tile_in_loop(%T: memref<4x4xf32, strided<[8, 1], offset: ?>>, %H: memref<4x4xf32>, %n: index,
                             %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %t = sdfg.stream_token %slot
  %0 = gpu.memcpy async [%t] %T, %H : memref<4x4xf32, strided<[8, 1], offset: ?>>, memref<4x4xf32>
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi ult, %next, %n : index
  cf.cond_br %more, ^loop(%next : index), ^done
^done:
  return
}

// -----

// Memsets: a dense view at an offset is set from its first element; 8-,
// 16- and 32-bit values by count, an i1 as the byte it is stored in.
// CHECK-LABEL: llvm.func @set_views
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[3] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK: llvm.call @mgpuMemset32(%[[FIRST]], %{{.*}}, %{{.*}}, %[[S]])
// CHECK: %[[BYTE:.*]] = llvm.zext %{{.*}} : i1 to i8
// CHECK: llvm.call @sdfgrtMemset8(%{{.*}}, %[[BYTE]], %{{.*}}, %[[S]])
func.func @set_views(%D: memref<5xi32, strided<[1], offset: 3>>, %v: i32,
                     %B: memref<16xi1>, %b: i1,
                     %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t0 = sdfg.stream_token %slot
  %0 = gpu.memset async [%t0] %D, %v : memref<5xi32, strided<[1], offset: 3>>, i32
  %t1 = sdfg.stream_token %slot
  %1 = gpu.memset async [%t1] %B, %b : memref<16xi1>, i1
  return
}

// -----

// A 64-bit value (which no vendor memset takes) and a view that is not
// dense go to the runtime with the descriptor, the element size and the
// value's bits.
// CHECK-LABEL: llvm.func @set_wide_and_strided
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f64 to i64
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK: llvm.call @sdfgrtMemsetStrided(%{{.*}}, %{{.*}}, %[[EIGHT]], %[[BITS]], %[[S]]) : (i64, !llvm.ptr, i64, i64, !llvm.ptr) -> ()
// CHECK: %[[HALF:.*]] = llvm.bitcast %{{.*}} : f16 to i16
// CHECK: %[[WIDE:.*]] = llvm.zext %[[HALF]] : i16 to i64
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK: llvm.call @sdfgrtMemsetStrided(%{{.*}}, %{{.*}}, %[[TWO]], %[[WIDE]], %[[S]])
func.func @set_wide_and_strided(%D: memref<16xf64>, %v: f64,
                                %C: memref<4xf16, strided<[4]>>, %h: f16,
                                %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t0 = sdfg.stream_token %slot
  %0 = gpu.memset async [%t0] %D, %v : memref<16xf64>, f64
  %t1 = sdfg.stream_token %slot
  %1 = gpu.memset async [%t1] %C, %h : memref<4xf16, strided<[4]>>, f16
  return
}
