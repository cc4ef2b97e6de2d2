// The C source sdfg-compile builds into a program library: the header's
// declarations, the manifest as one string, and a packed entry per program
// that takes its arguments as one array of addresses. It compiles warning
// free as C; linked with the programs, a caller that knows no signature
// calls them through it (here: a C driver, as the Python package and the
// XLA FFI handler do).
//
// RUN: sdfg-translate --sdfg-to-library-interface %s -o %t.c
// RUN: FileCheck %s < %t.c
// RUN: %host_cc -std=gnu11 -Wall -Wextra -Werror -c %t.c -o %t.o
//
// CHECK: const char *sdfgstreamManifest(void) {
// CHECK: int32_t _sdfgstream_packed_axpy(void **args) {
// CHECK-NEXT: return _mlir_ciface_axpy((sdfg_memref_1d_float *)args[0], *(float *)args[1], (sdfg_memref_1d_float *)args[2]);
// CHECK: int32_t _sdfgstream_packed_sum(void **args) {
// CHECK-NEXT: *(double *)args[2] = _mlir_ciface_sum((sdfg_memref_1d_double *)args[0], *(int64_t *)args[1]);
// CHECK-NEXT: return 0;
// CHECK: int32_t _sdfgstream_packed_nothing(void **args) {
// CHECK-NEXT: (void)args;
// CHECK-NEXT: _mlir_ciface_nothing();
// CHECK-NEXT: return 0;
// CHECK: int32_t _sdfgstream_packed_address(void **args) {
// CHECK-NEXT: _mlir_ciface_address(args[0], (sdfg_unranked_memref *)args[1]);

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
