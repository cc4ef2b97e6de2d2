// Class 4 of sdfg-insert-host-syncs: every structured op through
// RegionBranchOpInterface (scf.while, scf.if, scf.index_switch, scf.for,
// scf.parallel, scf.forall and their nesting), irreducible control flow,
// and syncs hoisted out of loops only where that is sound.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

// A convergence loop: the after region copies a flag back, the before region
// reads it. The sync stays in the before region, in front of the read.
// CHECK-LABEL: func.func @while_flag
// CHECK: scf.while
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK: } do {
// CHECK-NOT: sdfg.sync
// CHECK: gpu.memcpy async
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @while_flag(%dflag: memref<i1, 1>) {
  %flag = memref.alloc() : memref<i1>
  gpu.memcpy %flag, %dflag : memref<i1>, memref<i1, 1>
  scf.while : () -> () {
    %more = memref.load %flag[] : memref<i1>
    scf.condition(%more)
  } do {
    gpu.memcpy %flag, %dflag : memref<i1>, memref<i1, 1>
    scf.yield
  }
  return
}

// -----

// A copy in one case of an index_switch nested in a loop nest: the read
// after the nest waits; nothing in the loops does.
// CHECK-LABEL: func.func @switch_in_loops
// CHECK: scf.for
// CHECK-NOT: sdfg.sync
// CHECK: scf.index_switch
// CHECK-NOT: sdfg.sync
// CHECK: gpu.memcpy async
// CHECK-NOT: sdfg.sync
// CHECK: scf.if
// CHECK-NOT: sdfg.sync
// CHECK: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @switch_in_loops(%d: memref<4xf32, 1>, %n: index, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.index_switch %i
    case 2 {
      gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
      scf.yield
    }
    default {
      scf.if %c {
        %zf = arith.constant 0.0 : f32
        gpu.memset %d, %zf : memref<4xf32, 1>, f32
      }
      scf.yield
    }
  }
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// scf.parallel and scf.forall that only read a copied result: one sync
// before each loop, none inside.
// CHECK-LABEL: func.func @parallel_loops
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: scf.parallel
// CHECK-NOT: sdfg.sync
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: scf.forall
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @parallel_loops(%d: memref<4xf32, 1>, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %h[%i] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  }
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  scf.forall (%i) in (4) {
    %v = memref.load %h[%i] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  }
  return
}

// -----

// A loop whose body overwrites the source of the copy it enqueues: the
// write waits in every iteration (the previous iteration's copy may still
// read it), so the sync cannot leave the loop.
// CHECK-LABEL: func.func @loop_write_after_read
// CHECK: scf.for
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.store
// CHECK-NEXT: sdfg.stream_token
// CHECK-NEXT: gpu.memcpy async
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @loop_write_after_read(%d: memref<4xf32, 1>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %h[%c0] : memref<4xf32>
    gpu.memcpy %d, %h : memref<4xf32, 1>, memref<4xf32>
  }
  return
}

// -----

// An irreducible control-flow graph: the loop of ^a and ^b has two entries.
// The read in ^b waits for the copy of ^a on every path, once.
// CHECK-LABEL: func.func @irreducible
// CHECK-COUNT-1: sdfg.sync
// CHECK-NOT: sdfg.sync
// CHECK: return
// CHECK-LABEL: func.func @irreducible_placement
// CHECK: ^bb2:
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
func.func @irreducible(%d: memref<f32, 1>, %c: i1, %e: i1) -> f32 {
  %h = memref.alloc() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %h[] : memref<f32>
  cf.cond_br %c, ^a, ^b
^a:
  gpu.memcpy %h, %d : memref<f32>, memref<f32, 1>
  cf.br ^b
^b:
  %v = memref.load %h[] : memref<f32>
  cf.cond_br %e, ^a, ^exit
^exit:
  return %v : f32
}
func.func @irreducible_placement(%d: memref<f32, 1>, %c: i1, %e: i1) -> f32 {
  %h = memref.alloc() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %h[] : memref<f32>
  cf.cond_br %c, ^a, ^b
^a:
  gpu.memcpy %h, %d : memref<f32>, memref<f32, 1>
  cf.br ^b
^b:
  %v = memref.load %h[] : memref<f32>
  cf.cond_br %e, ^a, ^exit
^exit:
  return %v : f32
}

// -----

// A region op that no interface describes (linalg.generic on host buffers)
// reads its inputs: the sync goes before it.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @linalg_on_host
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: linalg.generic
func.func @linalg_on_host(%d: memref<4xf32, 1>, %out: memref<4xf32> {llvm.noalias}) {
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%h : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A region op that no interface describes (omp.parallel: its region runs on
// every thread): a read of a result queued before it gets one sync before
// the op, not one per thread.
// CHECK-LABEL: func.func @opaque_region_reads
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: omp.parallel
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @opaque_region_reads(%d: memref<4xf32, 1>, %out: memref<f32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
  omp.parallel {
    %v = memref.load %h[%c0] : memref<4xf32>
    memref.store %v, %out[] : memref<f32>
    omp.terminator
  }
  return
}

// -----

// GPU work inside such a region, read there: the sync is inside, after it.
// CHECK-LABEL: func.func @opaque_region_with_gpu_work
// CHECK: omp.parallel
// CHECK-NEXT: sdfg.stream_token
// CHECK-NEXT: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load
// CHECK-NOT: sdfg.sync
// CHECK: return
func.func @opaque_region_with_gpu_work(%d: memref<4xf32, 1>, %out: memref<f32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  omp.parallel {
    gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32, 1>
    %v = memref.load %h[%c0] : memref<4xf32>
    memref.store %v, %out[] : memref<f32>
    omp.terminator
  }
  return
}
