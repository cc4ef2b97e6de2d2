// Class 7 of sdfg-insert-host-syncs: host memory the GPU addresses through a view
// in a GPU memory space (memref.memory_space_cast of a pinned or mapped
// host buffer, llvm.addrspacecast of its pointer) is still that host
// buffer: a kernel writing the view and the host reading the buffer (or
// the other way round) conflict. Whether the host can touch a buffer is
// decided by what it is (the root: a host argument, gpu.alloc, ...), never
// by the type of the view in hand.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | sdfg-opt -sdfg-insert-host-syncs | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%a: memref<4xf32, 1>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%c0] : memref<4xf32, 1>
      gpu.return
    }
    gpu.func @write_strided(%a: memref<4xf32, strided<[1], offset: 4>, 1>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%c0] : memref<4xf32, strided<[1], offset: 4>, 1>
      gpu.return
    }
    gpu.func @write_generic(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @write_pointer(%p: !llvm.ptr<1>) kernel {
      %one = arith.constant 1.0 : f32
      llvm.store %one, %p : f32, !llvm.ptr<1>
      gpu.return
    }
  }

  // The kernel writes through the GPU view; the host reads the buffer.
  // CHECK-LABEL: func.func @kernel_writes_view_host_reads_buffer
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load %arg0
  func.func @kernel_writes_view_host_reads_buffer(%h: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %g = memref.memory_space_cast %h : memref<4xf32> to memref<4xf32, 1>
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%g : memref<4xf32, 1>)
    %v = memref.load %h[%c0] : memref<4xf32>
    return %v : f32
  }

  // The kernel writes the buffer; the host reads through the GPU view.
  // CHECK-LABEL: func.func @host_reads_through_gpu_view
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load %memspacecast
  func.func @host_reads_through_gpu_view(%h: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %g = memref.memory_space_cast %h : memref<4xf32> to memref<4xf32, 1>
    gpu.launch_func @k::@write_generic blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xf32>)
    %v = memref.load %g[%c0] : memref<4xf32, 1>
    return %v : f32
  }

  // Returning a GPU view of host memory a kernel still writes: the caller
  // reads it (it is not GPU-only memory, whatever its type says).
  // CHECK-LABEL: func.func @return_gpu_view_of_host_memory
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: return
  func.func @return_gpu_view_of_host_memory(%h: memref<4xf32>) -> memref<4xf32, 1> {
    %c1 = arith.constant 1 : index
    %g = memref.memory_space_cast %h : memref<4xf32> to memref<4xf32, 1>
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%g : memref<4xf32, 1>)
    return %g : memref<4xf32, 1>
  }

  // A GPU buffer returned through a GPU view: no sync (nothing the host can
  // touch).
  // CHECK-LABEL: func.func @return_gpu_buffer
  // CHECK-NOT: sdfg.sync
  // CHECK: return
  func.func @return_gpu_buffer() -> memref<4xf32, 1> {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<4xf32, 1>
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32, 1>)
    return %d : memref<4xf32, 1>
  }

  // A host view of a GPU argument (managed memory): the host read waits.
  // CHECK-LABEL: func.func @host_view_of_gpu_argument
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: memref.memory_space_cast
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  func.func @host_view_of_gpu_argument(%m: memref<4xf32, 1>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32, 1>)
    %h = memref.memory_space_cast %m : memref<4xf32, 1> to memref<4xf32>
    %v = memref.load %h[%c0] : memref<4xf32>
    return %v : f32
  }

  // A subview cast to the GPU, written on one branch only: the read of the
  // whole buffer after the branch waits.
  // CHECK-LABEL: func.func @cast_subview_in_branch
  // CHECK: scf.if
  // CHECK: gpu.launch_func async
  // CHECK: }
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load %arg0
  func.func @cast_subview_in_branch(%h: memref<8xf32>, %c: i1) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = memref.subview %h[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    %g = memref.memory_space_cast %s : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[1], offset: 4>, 1>
    scf.if %c {
      gpu.launch_func @k::@write_strided blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%g : memref<4xf32, strided<[1], offset: 4>, 1>)
    }
    %v = memref.load %h[%c0] : memref<8xf32>
    return %v : f32
  }

  // The cast inside a gpu.launch body.
  // CHECK-LABEL: func.func @cast_in_launch_body
  // CHECK: gpu.launch async
  // CHECK: gpu.terminator
  // CHECK-NEXT: }
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load %arg0
  func.func @cast_in_launch_body(%h: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %d = %c1) {
      %g = memref.memory_space_cast %h : memref<4xf32> to memref<4xf32, 1>
      memref.store %one, %g[%c0] : memref<4xf32, 1>
      gpu.terminator
    }
    %v = memref.load %h[%c0] : memref<4xf32>
    return %v : f32
  }

  // The pointer form: the address as an integer, back to a pointer, cast
  // to the global address space, written by the kernel.
  // CHECK-LABEL: func.func @pointer_addrspacecast
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load %arg0
  func.func @pointer_addrspacecast(%h: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i = memref.extract_aligned_pointer_as_index %h : memref<4xf32> -> index
    %i64 = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %i64 : i64 to !llvm.ptr
    %g = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
    gpu.launch_func @k::@write_pointer blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%g : !llvm.ptr<1>)
    %v = memref.load %h[%c0] : memref<4xf32>
    return %v : f32
  }
}
