// RUN: sdfg-opt %s -split-input-file -test-sdfg-buffer-aliases 2>&1 | FileCheck %s

// Arguments may alias each other (a caller may pass one buffer twice) and
// globals of their memory class, but not GPU-only memory when they are
// host-visible, nor anything when marked llvm.noalias; views and selects
// carry the roots of what they are made from; an allocation is its own.
// CHECK-LABEL: function @roots
// CHECK-NEXT: a: roots {arg 0}
// CHECK-NEXT: b: roots {arg 1}
// CHECK-NEXT: d: roots {arg 2 device} device-only
// CHECK-NEXT: n: roots {arg 3 noalias}
// CHECK-NEXT: alloc: roots {alloc %[[ALLOC:.*]]}
// CHECK-NEXT: view: roots {alloc %[[ALLOC]]}
// CHECK-NEXT: galloc: roots {alloc %{{.*}} device} device-only
// CHECK-NEXT: global: roots {global @G}
// CHECK-NEXT: select: roots {arg 0, alloc %[[ALLOC]]}
// CHECK-NEXT: address: address of {arg 1}
// CHECK-NEXT: a <-> b: MayAlias
// CHECK-NEXT: a <-> d: NoAlias
// CHECK-NEXT: a <-> n: NoAlias
// CHECK-NEXT: a <-> alloc: NoAlias
// CHECK-NEXT: a <-> view: NoAlias
// CHECK-NEXT: a <-> galloc: NoAlias
// CHECK-NEXT: a <-> global: MayAlias
// CHECK-NEXT: a <-> select: MayAlias
// CHECK-NEXT: b <-> d: NoAlias
// CHECK-NEXT: b <-> n: NoAlias
// CHECK-NEXT: b <-> alloc: NoAlias
// CHECK-NEXT: b <-> view: NoAlias
// CHECK-NEXT: b <-> galloc: NoAlias
// CHECK-NEXT: b <-> global: MayAlias
// CHECK-NEXT: b <-> select: MayAlias
// CHECK-NEXT: d <-> n: NoAlias
// CHECK-NEXT: d <-> alloc: NoAlias
// CHECK-NEXT: d <-> view: NoAlias
// CHECK-NEXT: d <-> galloc: NoAlias
// CHECK-NEXT: d <-> global: NoAlias
// CHECK-NEXT: d <-> select: NoAlias
// CHECK-NEXT: n <-> alloc: NoAlias
// CHECK-NEXT: n <-> view: NoAlias
// CHECK-NEXT: n <-> galloc: NoAlias
// CHECK-NEXT: n <-> global: NoAlias
// CHECK-NEXT: n <-> select: NoAlias
// CHECK-NEXT: alloc <-> view: MayAlias
// CHECK-NEXT: alloc <-> galloc: NoAlias
// CHECK-NEXT: alloc <-> global: NoAlias
// CHECK-NEXT: alloc <-> select: MayAlias
// CHECK-NEXT: view <-> galloc: NoAlias
// CHECK-NEXT: view <-> global: NoAlias
// CHECK-NEXT: view <-> select: MayAlias
// CHECK-NEXT: galloc <-> global: NoAlias
// CHECK-NEXT: galloc <-> select: NoAlias
// CHECK-NEXT: global <-> select: MayAlias
// CHECK-NEXT: escaped: {}
memref.global @G : memref<8xf32> = uninitialized
func.func @roots(%a: memref<8xf32> {test.tag = "a"}, %b: memref<8xf32> {test.tag = "b"},
                 %d: memref<8xf32, 1> {test.tag = "d"},
                 %n: memref<8xf32> {llvm.noalias, test.tag = "n"}, %c: i1) {
  %alloc = memref.alloc() {test.tag = "alloc"} : memref<8xf32>
  %view = memref.subview %alloc[2] [4] [1] {test.tag = "view"} : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %galloc = gpu.alloc () {test.tag = "galloc"} : memref<8xf32, 1>
  %global = memref.get_global @G : memref<8xf32> {test.tag = "global"}
  %select = arith.select %c, %a, %alloc {test.tag = "select"} : memref<8xf32>
  %address = memref.extract_aligned_pointer_as_index %b : memref<8xf32> -> index {test.tag = "address"}
  return
}

// -----

// Roots flow through block arguments, loops of them included (solved to a
// fixpoint); an address stored to memory escapes; a call result is unknown
// memory, which may alias everything.
// CHECK-LABEL: function @flow
// CHECK-NEXT: loop: roots {arg 0, alloc %{{.*}}}
// CHECK-NEXT: unknown: roots {unknown}
// CHECK-NEXT: loop <-> unknown: MayAlias
// CHECK-NEXT: escaped: {arg 1}
func.func private @opaque() -> memref<8xf32>
func.func @flow(%a: memref<8xf32>, %b: memref<8xf32>, %slot: memref<memref<8xf32>>, %c: i1) {
  %alloc = memref.alloc() : memref<8xf32>
  cf.br ^loop(%a : memref<8xf32>)
^loop(%m: memref<8xf32>):
  %tagged = memref.cast %m {test.tag = "loop"} : memref<8xf32> to memref<8xf32>
  memref.store %b, %slot[] : memref<memref<8xf32>>
  cf.cond_br %c, ^loop(%alloc : memref<8xf32>), ^exit
^exit:
  %u = func.call @opaque() {test.tag = "unknown"} : () -> memref<8xf32>
  return
}
