// RUN: sdfg-translate --sdfg-to-c-header %s -o %t.h
// RUN: FileCheck %s < %t.h
// RUN: printf '#include "%t.h"\n#include "%t.h"\n' > %t.c
// RUN: %host_cc -std=c99 -Wall -Werror -fsyntax-only %t.c
// RUN: %host_cxx -std=c++17 -Wall -Werror -fsyntax-only -x c++ %t.c

// Program names a header can and cannot declare. A name that is a C or C++
// keyword, main, or a name the header defines gets only its entry
// _mlir_ciface_NAME (the short wrapper would not compile); a name that is
// no identifier at all, or the stream argument named like one of the other
// parameters, is an error at the program (c-header-name-errors.mlir). Only
// the module's own functions are declared: a nested module's are not built
// into the library.

// CHECK: int64_t _mlir_ciface_int(int64_t arg0);
// CHECK-NEXT: /* (No short name: int is a C or C++ keyword, main, or a name of this header.) */
// CHECK: void _mlir_ciface_main(void);
// CHECK-NEXT: /* (No short name: main
// CHECK: void _mlir_ciface_class(void);
// CHECK-NEXT: /* (No short name: class
// CHECK: void _mlir_ciface_sdfg_memref_1d_float(sdfg_memref_1d_float *arg0);
// CHECK-NEXT: /* (No short name: sdfg_memref_1d_float
// CHECK: int32_t _mlir_ciface_with_stream(void *queue);
// CHECK-NEXT: static inline int32_t with_stream(void *queue) {
// A function returning an i32 value of its own: no status comment.
// CHECK: /* Function @count. */
// CHECK-NEXT: int32_t _mlir_ciface_count(void);
// CHECK-NOT: hidden
func.func @int(%x: i64) -> i64 {
  return %x : i64
}
func.func @main() {
  return
}
func.func @class() {
  return
}
func.func @sdfg_memref_1d_float(%a: memref<4xf32>) {
  return
}
sdfg.sdfg @with_stream(%s: !sdfg.stream {sdfg.external_stream = "queue"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
func.func @count() -> i32 {
  %c = arith.constant 3 : i32
  return %c : i32
}
module @nested {
  func.func @hidden() {
    return
  }
}

