// The stream form of MLIR after release 22, as flang's CUF lowering and
// Enzyme-JAX emit it: `gpu.launch_func <%stream : !llvm.ptr>`. An async
// object that is an argument of the function is adopted as the caller's
// stream; the launches then run on it like any other GPU op.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-add-external-gpu-stream | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-cuda=format=isa | FileCheck %s --check-prefix=CUDA
// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-rocm="format=isa toolkit=%rocm_toolkit" | FileCheck %s --check-prefix=ROCM

// CHECK-LABEL: func.func @cuf_style
// CHECK-SAME: (%{{.*}}: memref<?xf32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}, %{{.*}}: index)
// CHECK-NEXT: %[[SLOT:.*]] = sdfg.init_streams %[[S]]
// CHECK: %[[T:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.launch_func async [%[[T]]] @kernels::@scale
// CHECK-NOT: <%
// CHECK: %[[T2:.*]] = sdfg.stream_token %[[SLOT]]
// CHECK-NEXT: gpu.launch_func async [%[[T2]]] @kernels::@scale
// CUDA-LABEL: llvm.func @cuf_style
// CUDA-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream
// CUDA-COUNT-2: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@scale
// ROCM-LABEL: llvm.func @cuf_style
// ROCM-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream
// ROCM-COUNT-2: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@scale
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32, 1>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : memref<?xf32, 1>
        %w = arith.addf %v, %v : f32
        memref.store %w, %x[%i] : memref<?xf32, 1>
      }
      gpu.return
    }
  }
  func.func @cuf_style(%x: memref<?xf32, 1>, %stream: !llvm.ptr, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?xf32, 1>, %n : index)
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?xf32, 1>, %n : index)
    return
  }
}

// -----

// A CUF module's subroutines calling each other: each passes its own stream
// to the next. Both take the caller's stream; the call passes its slot.
// CHECK-LABEL: func.func private @cuf_inner
// CHECK-SAME: (%{{.*}}: memref<?xf32, 1>, %[[S:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK-LABEL: func.func @cuf_outer
// CHECK-SAME: (%[[OS:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}, %[[X:.*]]: memref<?xf32, 1>)
// CHECK-NEXT: %[[OSLOT:.*]] = sdfg.init_streams %[[OS]]
// CHECK: gpu.launch_func async
// CHECK: call @cuf_inner(%[[X]], %[[OSLOT]]) : (memref<?xf32, 1>, !sdfg.stream) -> ()
// CUDA-LABEL: llvm.func @cuf_outer
// CUDA-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream
// CUDA: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@scale
// CUDA: llvm.call @cuf_inner({{.*}}, %[[S]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32, 1>) kernel {
      gpu.return
    }
  }
  func.func private @cuf_inner(%x: memref<?xf32, 1>, %stream: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32, 1>)
    return
  }
  func.func @cuf_outer(%stream: !llvm.ptr, %x: memref<?xf32, 1>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32, 1>)
    func.call @cuf_inner(%x, %stream) : (memref<?xf32, 1>, !llvm.ptr) -> ()
    return
  }
}

// -----

// A CUF subroutine that launches nothing itself and only passes its stream on
// (through another such subroutine) to one that launches: each takes the
// caller's stream, and each call passes its caller's slot.
// CHECK-LABEL: func.func private @leaf
// CHECK-SAME: %{{.*}}: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}
// CHECK-LABEL: func.func private @middle
// CHECK-SAME: (%{{.*}}: memref<?xf32, 1>, %[[MS:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"})
// CHECK: %[[MSLOT:.*]] = sdfg.init_streams %[[MS]]
// CHECK: call @leaf(%{{.*}}, %[[MSLOT]]) : (memref<?xf32, 1>, !sdfg.stream) -> ()
// CHECK-LABEL: func.func @top
// CHECK-SAME: (%[[TS:.*]]: !sdfg.stream {sdfg.external_stream = "external_gpu_stream"}, %{{.*}}: memref<?xf32, 1>)
// CHECK: %[[TSLOT:.*]] = sdfg.init_streams %[[TS]]
// CHECK: call @middle(%{{.*}}, %[[TSLOT]]) : (memref<?xf32, 1>, !sdfg.stream) -> ()
// CUDA-LABEL: llvm.func @top
// CUDA-SAME: %[[S:arg[0-9]+]]: !llvm.ptr {sdfg.external_stream
// CUDA: llvm.call @middle({{.*}}, %[[S]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32, 1>) kernel {
      gpu.return
    }
  }
  func.func private @leaf(%x: memref<?xf32, 1>, %stream: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32, 1>)
    return
  }
  func.func private @middle(%x: memref<?xf32, 1>, %stream: !llvm.ptr) {
    func.call @leaf(%x, %stream) : (memref<?xf32, 1>, !llvm.ptr) -> ()
    return
  }
  func.func @top(%stream: !llvm.ptr, %x: memref<?xf32, 1>) {
    func.call @middle(%x, %stream) : (memref<?xf32, 1>, !llvm.ptr) -> ()
    return
  }
}
