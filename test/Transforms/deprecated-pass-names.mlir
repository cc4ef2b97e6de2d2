// The passes' names before the `sdfg-` prefix still work for one release,
// options and textual pipelines included, each warning once that it is
// deprecated; the output is the renamed pass's.
// RUN: sdfg-opt %s -add-external-gpu-stream -insert-host-syncs -insert-host-syncs 2>%t.err | FileCheck %s
// RUN: FileCheck %s --input-file=%t.err --check-prefix=WARN
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs > %t.new.mlir
// RUN: sdfg-opt %s -add-external-gpu-stream -insert-host-syncs 2>/dev/null | diff - %t.new.mlir
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(add-external-gpu-stream{concurrent-streams=true},make-sync-call)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not sdfg-opt %s -add-external-gpu-stream=no-such-option=1 2>&1 | FileCheck %s --check-prefix=OPTION

// WARN: warning: pass name 'add-external-gpu-stream' is deprecated; use 'sdfg-add-external-gpu-stream'
// WARN-NEXT: warning: pass name 'insert-host-syncs' is deprecated; use 'sdfg-insert-host-syncs'
// WARN-NOT: warning

// CHECK-LABEL: sdfg.sdfg @read_after_copy
// CHECK: gpu.memcpy async
// CHECK-NEXT: sdfg.sync
// CHECK-NEXT: memref.load

// PIPELINE: warning: pass name 'add-external-gpu-stream' is deprecated
// PIPELINE: warning: pass name 'make-sync-call' is deprecated
// PIPELINE: sdfg.sdfg @read_after_copy

// OPTION: no-such-option
sdfg.sdfg @read_after_copy(%D: memref<4xf32, 1>, %H: memref<4xf32>, %out: memref<f32>) target(gpu) {
  %c0 = arith.constant 0 : index
  gpu.memcpy %H, %D : memref<4xf32>, memref<4xf32, 1>
  %v = memref.load %H[%c0] : memref<4xf32>
  memref.store %v, %out[] : memref<f32>
  sdfg.return
}
