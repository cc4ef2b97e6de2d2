// What sdfg-compile builds into a program library besides the programs:
// the manifest as one string, and a packed entry per program that takes its
// arguments as one array of addresses and calls the program's C entry with
// the IR types the lowering gives it (half floats by value included, which
// a C compiler may lack). A caller that knows no signature calls the
// programs through it (the Python package, the XLA FFI handler).
//
// RUN: sdfg-translate --sdfg-to-library-interface %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: llc -filetype=obj -relocation-model=pic %t.ll -o %t.o
//
// CHECK: @sdfgstream_manifest_text = private constant [{{[0-9]+}} x i8] c"{\22format\22:\22sdfgstream-manifest\22,
// CHECK: define ptr @sdfgstreamManifest() {
// CHECK-NEXT: ret ptr @sdfgstream_manifest_text
// CHECK: declare i32 @_mlir_ciface_axpy(ptr, float, ptr)
// CHECK: define i32 @_sdfgstream_packed_axpy(ptr %0) {
// CHECK: %[[X:.*]] = load ptr, ptr
// CHECK: %[[APTR:.*]] = load ptr, ptr
// CHECK: %[[A:.*]] = load float, ptr %[[APTR]]
// CHECK: %[[Y:.*]] = load ptr, ptr
// CHECK: %[[STATUS:.*]] = call i32 @_mlir_ciface_axpy(ptr %[[X]], float %[[A]], ptr %[[Y]])
// CHECK-NEXT: ret i32 %[[STATUS]]
// A function's own result goes to args[<parameters>]; the entry returns 0.
// CHECK: declare double @_mlir_ciface_sum(ptr, i64)
// CHECK: %[[SUM:.*]] = call double @_mlir_ciface_sum(
// CHECK-NEXT: %[[RPTR:.*]] = getelementptr ptr, ptr %0, i64 2
// CHECK-NEXT: %[[R:.*]] = load ptr, ptr %[[RPTR]]
// CHECK-NEXT: store double %[[SUM]], ptr %[[R]]
// CHECK-NEXT: ret i32 0
// CHECK: define i32 @_sdfgstream_packed_nothing(ptr %0) {
// CHECK-NEXT: call void @_mlir_ciface_nothing()
// CHECK-NEXT: ret i32 0
// Pointers and unranked descriptors are passed as the addresses they are.
// CHECK: declare void @_mlir_ciface_address(ptr, ptr)
// Half floats by value.
// CHECK: declare void @_mlir_ciface_halves(half, bfloat, i1)
// CHECK: load half, ptr
// CHECK: load bfloat, ptr
// CHECK: load i1, ptr

sdfg.sdfg @axpy(%x: memref<?xf32>, %a: f32, %y: memref<?xf32>) target(cpu) {
  sdfg.return
}
func.func @sum(%x: memref<?xf64>, %n: index) -> f64 {
  %z = arith.constant 0.0 : f64
  return %z : f64
}
func.func @nothing() {
  return
}
func.func @address(%p: !llvm.ptr, %u: memref<*xf32>) {
  return
}
func.func @halves(%h: f16, %b: bf16, %flag: i1) {
  return
}
