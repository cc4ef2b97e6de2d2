// Class 1, 2 and 7 of sdfg-insert-host-syncs: a host access through any alias
// of a buffer that GPU work may still write is seen (casts of every kind,
// reshapes, select, region results, block arguments, globals, arguments that
// may alias each other), unranked memrefs count like ranked ones, and
// metadata-only uses are no reads. Programs in the shape upstream's CUDA
// integration tests have: func.func, gpu ops in sync form, printMemrefF32.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// A second run changes nothing.
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// The kernel result copied back and printed through an unranked cast: the
// sync is right before the print (the cast itself is no read).
// CHECK-LABEL: func.func @print_unranked
// CHECK: gpu.memcpy async
// CHECK-NEXT: memref.cast
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: call @printMemrefF32
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @print_unranked(%d: memref<4xf32, 1>) {
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  %u = memref.cast %h : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %h : memref<4xf32>
  return
}

// -----

func.func private @printMemrefF32(memref<*xf32>)

// An unranked argument written by a copy through its ranked cast.
// CHECK-LABEL: func.func @unranked_argument
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: call @printMemrefF32
func.func @unranked_argument(%u: memref<*xf32>, %d: memref<4xf32, 1>) {
  %h = memref.cast %u : memref<*xf32> to memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Reinterpret casts, reshapes and memory-space casts on either side.
// CHECK-LABEL: func.func @casts_and_reshapes
// CHECK: gpu.memcpy async
// CHECK-NEXT: memref.reinterpret_cast
// CHECK-NEXT: memref.expand_shape
// CHECK-NEXT: memref.collapse_shape
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @casts_and_reshapes(%d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  %g = memref.memory_space_cast %h : memref<4xf32> to memref<4xf32, 1>
  gpu.memcpy %g, %d : memref<4xf32, 1>, memref<4xf32, 1>
  %r = memref.reinterpret_cast %h to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
  %e = memref.expand_shape %r [[0], [1, 2]] output_shape [2, 2, 1] : memref<2x2xf32> into memref<2x2x1xf32>
  %c = memref.collapse_shape %e [[0, 1, 2]] : memref<2x2x1xf32> into memref<4xf32>
  %v = memref.load %c[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A value chosen by arith.select may be either buffer; a buffer that cannot
// be the written one needs no sync.
// CHECK-LABEL: func.func @select
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[A]],
// CHECK-NEXT: memref.load %[[B]][
// CHECK-NEXT: %[[EITHER:.*]] = arith.select %{{.*}}, %[[A]], %[[B]]
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load %[[EITHER]][
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @select(%d: memref<4xf32, 1>, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  gpu.memcpy %a, %d : memref<4xf32>, memref<4xf32, 1>
  %x = memref.load %b[%c0] : memref<4xf32>
  %s = arith.select %c, %a, %b : memref<4xf32>
  %y = memref.load %s[%c0] : memref<4xf32>
  %sum = arith.addf %x, %y : f32
  return %sum : f32
}

// -----

// Results of scf.if and scf.index_switch.
// CHECK-LABEL: func.func @region_results
// CHECK: gpu.memcpy async
// CHECK: scf.if
// CHECK: scf.index_switch
// CHECK: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @region_results(%d: memref<4xf32, 1>, %c: i1, %k: index) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  gpu.memcpy %a, %d : memref<4xf32>, memref<4xf32, 1>
  %r = scf.if %c -> memref<4xf32> {
    scf.yield %b : memref<4xf32>
  } else {
    scf.yield %a : memref<4xf32>
  }
  %s = scf.index_switch %k -> memref<4xf32>
  case 1 {
    scf.yield %r : memref<4xf32>
  }
  default {
    scf.yield %b : memref<4xf32>
  }
  %v = memref.load %s[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A block argument that a branch passes the written buffer to.
// CHECK-LABEL: func.func @block_argument
// CHECK: gpu.memcpy async
// CHECK: ^bb1(%[[M:.*]]: memref<4xf32>):
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load %[[M]]
func.func @block_argument(%d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  gpu.memcpy %a, %d : memref<4xf32>, memref<4xf32, 1>
  cf.br ^read(%a : memref<4xf32>)
^read(%m: memref<4xf32>):
  %v = memref.load %m[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Two memref.get_global of one global are one buffer; another global is not.
memref.global "private" @field : memref<4xf32> = dense<0.0>
memref.global "private" @other : memref<4xf32> = dense<0.0>
// CHECK-LABEL: func.func @globals
// CHECK: gpu.memcpy async
// CHECK-NEXT: memref.get_global @other
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.get_global @field
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @globals(%d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  %w = memref.get_global @field : memref<4xf32>
  gpu.memcpy %w, %d : memref<4xf32>, memref<4xf32, 1>
  %o = memref.get_global @other : memref<4xf32>
  %x = memref.load %o[%c0] : memref<4xf32>
  %r = memref.get_global @field : memref<4xf32>
  %y = memref.load %r[%c0] : memref<4xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// Arguments may be one buffer passed twice (or a global): a read of one
// after a copy into the other syncs. GPU-only arguments never alias host
// ones.
// CHECK-LABEL: func.func @arguments_may_alias
// CHECK: gpu.memcpy async
// CHECK-NOT: sdfg.sync
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load %arg1
func.func @arguments_may_alias(%a: memref<4xf32>, %b: memref<4xf32>, %d: memref<4xf32, 1>, %e: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  gpu.memcpy %e, %d : memref<4xf32, 1>, memref<4xf32, 1>
  gpu.memcpy %a, %d : memref<4xf32>, memref<4xf32, 1>
  %v = memref.load %b[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Arguments the caller promises are distinct (llvm.noalias) do not.
// CHECK-LABEL: func.func @noalias_arguments
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @noalias_arguments(%a: memref<4xf32> {llvm.noalias}, %b: memref<4xf32> {llvm.noalias}, %d: memref<4xf32, 1>) -> f32 {
  %c0 = arith.constant 0 : index
  gpu.memcpy %a, %d : memref<4xf32>, memref<4xf32, 1>
  %v = memref.load %b[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Metadata is no read: memref.dim, extract_strided_metadata, views and
// memref.rank of a buffer a copy writes need no sync; the load does.
// CHECK-LABEL: func.func @metadata_only
// CHECK: gpu.memcpy async
// CHECK-NOT: sdfg.sync
// CHECK: memref.dim
// CHECK-NOT: sdfg.sync
// CHECK: memref.extract_strided_metadata
// CHECK-NOT: sdfg.sync
// CHECK: memref.subview
// CHECK-NOT: sdfg.sync
// CHECK: memref.rank
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @metadata_only(%d: memref<?xf32, 1>, %n: index) -> (index, index, index, f32) {
  %c0 = arith.constant 0 : index
  %h = memref.alloc(%n) : memref<?xf32>
  gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32, 1>
  %size = memref.dim %h, %c0 : memref<?xf32>
  %base, %offset, %sizes, %strides = memref.extract_strided_metadata %h : memref<?xf32> -> memref<f32>, index, index, index
  %view = memref.subview %h[1] [2] [1] : memref<?xf32> to memref<2xf32, strided<[1], offset: 1>>
  %rank = memref.rank %h : memref<?xf32>
  %v = memref.load %view[%c0] : memref<2xf32, strided<[1], offset: 1>>
  return %size, %offset, %rank, %v : index, index, index, f32
}
