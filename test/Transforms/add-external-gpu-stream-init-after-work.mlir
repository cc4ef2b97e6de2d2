// Regression (found by fuzz/sdfg-fuzz): a hand-written sdfg.init_streams
// after GPU work of the entry block. The init op moves first, so the sync
// that the blocking gpu.wait becomes uses a slot that is defined.
// RUN: sdfg-opt %s -sdfg-add-external-gpu-stream -verify-each | FileCheck %s

// CHECK-LABEL: sdfg.sdfg @p
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams
// CHECK-NEXT: sdfg.sync %[[SLOT]]
// CHECK-NEXT: sdfg.return
sdfg.sdfg @p(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  gpu.wait
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
