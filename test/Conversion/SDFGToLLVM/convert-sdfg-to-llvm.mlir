// RUN: sdfg-opt %s -split-input-file -sdfg-record-locations -convert-sdfg-to-llvm | FileCheck %s

// The stream ops become the stream pointer itself, so each runtime call
// takes the function's stream argument; a sync is a stream synchronize.
// CHECK-LABEL: llvm.func @copies
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @sdfgrtMemset8(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuMemset16(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NOT: sdfg.
func.func @copies(%D: memref<16xf32, #gpu.address_space<global>>, %H: memref<16xf32>,
                  %B: memref<16xi8, #gpu.address_space<global>>, %F: memref<4x4xf16, #gpu.address_space<global>>,
                  %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %b = arith.constant 7 : i8
  %h = arith.constant 1.0 : f16
  %t0 = sdfg.stream_token %slot
  %0 = gpu.memcpy async [%t0] %D, %H : memref<16xf32, #gpu.address_space<global>>, memref<16xf32>
  %t1 = sdfg.stream_token %slot
  %1 = gpu.memset async [%t1] %B, %b : memref<16xi8, #gpu.address_space<global>>, i8
  %t2 = sdfg.stream_token %slot
  %2 = gpu.memset async [%t2] %F, %h : memref<4x4xf16, #gpu.address_space<global>>, f16
  sdfg.sync %slot
  return
}

// -----

// The source location of each GPU op is recorded for the runtime's errors:
// one private byte array holds every text once; each op passes a pointer
// into it right before it runs.
// CHECK: llvm.mlir.global private constant @__sdfgrt_locations("{{.*}}convert-sdfg-to-llvm.mlir:[[@LINE+8]]:8\00")
// CHECK-LABEL: llvm.func @located
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @__sdfgrt_locations : !llvm.ptr
// CHECK: %[[TEXT:.*]] = llvm.getelementptr %[[BASE]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<{{[0-9]+}} x i8>
// CHECK: llvm.call @sdfgrtSetLocation(%[[TEXT]])
func.func @located(%D: memref<16xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %0 = gpu.dealloc async [%t] %D : memref<16xf32>
  return
}

// -----

// Ops that share a location share its text; each distinct text is stored
// once, and the declaration of sdfgrtSetLocation exists once.
// CHECK: llvm.func @sdfgrtSetLocation(!llvm.ptr)
// CHECK-NOT: llvm.func @sdfgrtSetLocation
// CHECK: llvm.mlir.global private constant @__sdfgrt_locations("prog.py:3:1\00prog.py:4:2\00")
// CHECK-LABEL: llvm.func @shared_locations
// CHECK: llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<24 x i8>
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuMemFree
// CHECK: llvm.getelementptr %{{.*}}[0, 12] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<24 x i8>
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuMemFree
// CHECK: llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<24 x i8>
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK: llvm.call @mgpuStreamSynchronize
// CHECK-NOT: __sdfgrt_loc
func.func @shared_locations(%A: memref<16xf32>, %B: memref<16xf32>,
                            %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t0 = sdfg.stream_token %slot
  %0 = gpu.dealloc async [%t0] %A : memref<16xf32> loc("prog.py":3:1)
  %t1 = sdfg.stream_token %slot
  %1 = gpu.dealloc async [%t1] %B : memref<16xf32> loc("prog.py":4:2)
  sdfg.sync %slot loc("prog.py":3:1)
  return
}

// -----

// Timers: the program's name is one constant; the call handle comes from
// sdfgrtTimerBegin and each stream gets a begin and an end event; nothing
// waits (no stream or device synchronization).
// CHECK: llvm.mlir.global private constant @__sdfgrt_program_timed("timed\00")
// CHECK-LABEL: llvm.func @timed
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @__sdfgrt_program_timed
// CHECK: %[[CALL:.*]] = llvm.call @sdfgrtTimerBegin(%[[NAME]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK: llvm.call @sdfgrtTimerRecordBegin(%[[CALL]], %[[S]])
// CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[S]])
// CHECK: llvm.call @sdfgrtTimerRecordEnd(%[[CALL]], %[[S]])
// CHECK: llvm.call @sdfgrtTimerEnd(%[[CALL]])
// CHECK-NOT: Synchronize
// CHECK: llvm.return
func.func @timed(%D: memref<16xf32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %timer = sdfg.timer_begin "timed" on %slot
  %t = sdfg.stream_token %slot
  %0 = gpu.dealloc async [%t] %D : memref<16xf32>
  sdfg.timer_end %timer on %slot
  return
}

// -----

// A device check passes the buffer's aligned pointer, the stream and the
// argument number to the runtime, with its location recorded first. On the
// host, memory space 1 is a plain pointer.
// CHECK-LABEL: llvm.func @checked
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: llvm.call @sdfgrtSetLocation
// CHECK-NEXT: %[[PTR:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT: %[[ARG:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: llvm.call @sdfgrtCheckDevicePointer(%[[PTR]], %[[S]], %[[ARG]]) : (!llvm.ptr, !llvm.ptr, i32) -> ()
func.func @checked(%D: memref<16xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.check_device %D on %slot argument 3 : memref<16xf32, 1>
  return
}

// -----

// Call-site argument attributes of memref arguments (which become several
// LLVM arguments) are dropped rather than copied one to one (upstream MLIR 22
// then crashes); the callee keeps its own.
// CHECK-LABEL: llvm.func @call_site_attrs
// CHECK: llvm.call @takes_buffer(
// CHECK-NOT: arg_attrs
// CHECK: llvm.return
func.func private @takes_buffer(memref<4xf32> {llvm.noalias})
func.func @call_site_attrs(%h: memref<4xf32>) {
  func.call @takes_buffer(%h) {arg_attrs = [{llvm.noalias}]} : (memref<4xf32>) -> ()
  return
}

// -----

// Numbered GPU memory spaces are plain pointers on the host, like
// #gpu.address_space<global>: upstream's gpu.dealloc lowering passes the
// pointer to mgpuMemFree uncast, which for an addrspace(1) pointer was IR
// that does not verify (found by fuzz/sdfg-fuzz).
// CHECK-LABEL: llvm.func @free_numbered_space
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[S]]) : (!llvm.ptr, !llvm.ptr) -> ()
func.func @free_numbered_space(%D: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.stream_token %slot
  %0 = gpu.dealloc async [%t] %D : memref<4xf32, 1>
  return
}

// -----

// Concurrent slots: one stack array of the slots' streams, filled by the
// runtime, which forks them from the caller's stream; slot 0 is the
// caller's stream itself. A wait between slots is an event record/wait;
// no stream is created or destroyed here.
// CHECK-LABEL: llvm.func @forked
// CHECK-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream = "s"})
// CHECK: %[[ARRAY:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x ptr>
// CHECK: %[[COUNT:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @sdfgrtForkStreams(%[[S]], %[[COUNT]], %[[ARRAY]]) : (!llvm.ptr, i32, !llvm.ptr) -> i32
// CHECK: %[[A1:.*]] = llvm.getelementptr %[[ARRAY]][0, 1]
// CHECK: %[[S1:.*]] = llvm.load %[[A1]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[A2:.*]] = llvm.getelementptr %[[ARRAY]][0, 2]
// CHECK: %[[S2:.*]] = llvm.load %[[A2]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @sdfgrtStreamWaitStream(%[[S]], %[[S2]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S1]])
// CHECK-NOT: Stream{{Create|Destroy}}
func.func @forked(%s: !sdfg.stream {sdfg.external_stream = "s"}) attributes {sdfg.num_streams = 3 : i64} {
  %slots:3 = sdfg.init_streams %s concurrent -> !sdfg.stream, !sdfg.stream, !sdfg.stream
  sdfg.stream_wait %slots#0 after %slots#2
  sdfg.sync %slots#1
  return
}
