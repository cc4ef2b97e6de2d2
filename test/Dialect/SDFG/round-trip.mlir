// RUN: sdfg-opt %s | sdfg-opt | FileCheck %s
// RUN: sdfg-opt %s --mlir-print-op-generic | sdfg-opt | FileCheck %s

// A GPU program with two stream slots, three states and a conditional
// interstate edge that assigns a symbol.
// CHECK-LABEL: sdfg.sdfg @stencil
// CHECK-SAME: (%{{.*}}: memref<?xf32, #gpu.address_space<global>>, %{{.*}}: memref<?xf32>, %{{.*}}: index, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "s"})
// CHECK-SAME: target(gpu, streams = 2)
// CHECK: %[[SLOTS:.*]]:2 = sdfg.init_streams %[[S]] -> !sdfg.stream, !sdfg.stream
// CHECK: %[[T:.*]] = sdfg.stream_token %[[SLOTS]]#1
// CHECK: gpu.memcpy async [%[[T]]]
// CHECK: cf.cond_br %{{.*}}, ^bb1(%{{.*}} : index), ^bb2
// CHECK: ^bb1(%{{.*}}: index):
// CHECK: sdfg.stream_wait %[[SLOTS]]#0 after %[[SLOTS]]#1
// CHECK: sdfg.sync %[[SLOTS]]#0, %[[SLOTS]]#1
// CHECK: sdfg.return
// CHECK: ^bb2:
// CHECK: sdfg.call @inner(%{{.*}}, %[[SLOTS]]#0) : (memref<?xf32, #gpu.address_space<global>>, !sdfg.stream) -> ()
// CHECK: sdfg.reduce max %{{.*}} into %{{.*}} on %[[SLOTS]]#0 : memref<?xf32, #gpu.address_space<global>> -> memref<f32, #gpu.address_space<global>>
// CHECK: sdfg.return
sdfg.sdfg @stencil(%A: memref<?xf32, #gpu.address_space<global>>,
                   %H: memref<?xf32>, %n: index,
                   %s: !sdfg.stream {sdfg.external_stream = "s"})
    target(gpu, streams = 2) {
  %slots:2 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream
  %t = sdfg.stream_token %slots#1
  %done = gpu.memcpy async [%t] %A, %H : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
  %c0 = arith.constant 0 : index
  %positive = arith.cmpi sgt, %n, %c0 : index
  cf.cond_br %positive, ^done(%n : index), ^more
^done(%m: index):
  sdfg.stream_wait %slots#0 after %slots#1
  sdfg.sync %slots#0, %slots#1
  sdfg.return
^more:
  sdfg.call @inner(%A, %slots#0) : (memref<?xf32, #gpu.address_space<global>>, !sdfg.stream) -> ()
  %out = memref.alloca() : memref<f32, #gpu.address_space<global>>
  sdfg.reduce max %A into %out on %slots#0 : memref<?xf32, #gpu.address_space<global>> -> memref<f32, #gpu.address_space<global>>
  sdfg.return
}

// CHECK-LABEL: sdfg.sdfg private @inner
// CHECK-SAME: target(gpu, streams = 0)
sdfg.sdfg private @inner(%A: memref<?xf32, #gpu.address_space<global>>,
                         %s: !sdfg.stream {sdfg.external_stream = "s"})
    target(gpu, streams = 0) {
  %default = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// A CPU program: no streams, the default slot count is 0.
// CHECK-LABEL: sdfg.sdfg @host(%{{.*}}: memref<4xi32>, %{{.*}}: memref<i32>) target(cpu) {
// CHECK: sdfg.reduce add
sdfg.sdfg @host(%A: memref<4xi32>, %out: memref<i32>) target(cpu) {
  sdfg.reduce add %A into %out : memref<4xi32> -> memref<i32>
  sdfg.return
}

// A declaration of an external program, and the default slot count of a
// GPU program.
// CHECK-LABEL: sdfg.sdfg private @external(f64) target(gpu, streams = 1)
// CHECK-NOT: {
sdfg.sdfg private @external(f64) target(gpu)

// Stream slots of a func.func and slot attributes.
// CHECK-LABEL: func.func @with_slots
// CHECK-SAME: attributes {sdfg.num_streams = 3 : i64}
// CHECK: gpu.memset async [%{{.*}}] %{{.*}}, %{{.*}} : memref<8xi32, 1>, i32 {sdfg.stream_slot = 2 : i64}
func.func @with_slots(%A: memref<8xi32, 1>, %v: i32,
                      %s: !sdfg.stream {sdfg.external_stream = "stream"})
    attributes {sdfg.num_streams = 3 : i64} {
  %slots:3 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream, !sdfg.stream
  %t = sdfg.stream_token %slots#2
  %done = gpu.memset async [%t] %A, %v : memref<8xi32, 1>, i32 {sdfg.stream_slot = 2 : i64}
  return
}

// Timers on the program's streams.
// CHECK-LABEL: func.func @timed
// CHECK: %[[T:.*]] = sdfg.timer_begin "timed" on %{{.*}}#0, %{{.*}}#1
// CHECK: sdfg.timer_end %[[T]] on %{{.*}}#0, %{{.*}}#1
func.func @timed(%s: !sdfg.stream {sdfg.external_stream = "stream"})
    attributes {sdfg.num_streams = 2 : i64} {
  %slots:2 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream
  %t = sdfg.timer_begin "timed" on %slots#0, %slots#1
  sdfg.timer_end %t on %slots#0, %slots#1
  return
}

// Device checks of GPU buffers.
// CHECK-LABEL: func.func @checked
// CHECK: sdfg.check_device %{{.*}} on %{{.*}} argument 0 : memref<?xf32, #gpu.address_space<global>>
func.func @checked(%A: memref<?xf32, #gpu.address_space<global>>, %s: !sdfg.stream {sdfg.external_stream = "stream"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.check_device %A on %slot argument 0 : memref<?xf32, #gpu.address_space<global>>
  return
}
