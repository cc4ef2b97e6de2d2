// Addresses the analysis cannot follow count as escaped (issue 22, class 1):
// a kernel that spills its pointer to a stack slot and writes through the
// reloaded one (clang/flang -O0 kernels), turns it into an integer and back,
// or packs it into a struct, may write the buffer; a buffer whose address
// the host stores into memory (a pointer table) or packs into a struct may
// be accessed by every later kernel. The host read of the buffer after such
// a kernel waits for it.
//
// RUN: sdfg-opt %s -split-input-file -sdfg-add-external-gpu-stream -sdfg-insert-host-syncs | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // -O0: the parameter goes to a stack slot, the store goes through the
    // pointer loaded back from it.
    gpu.func @spilled(%p: !llvm.ptr) kernel {
      %one = llvm.mlir.constant(1 : i32) : i32
      %slot = llvm.alloca %one x !llvm.ptr : (i32) -> !llvm.ptr
      llvm.store %p, %slot : !llvm.ptr, !llvm.ptr
      %q = llvm.load %slot : !llvm.ptr -> !llvm.ptr
      %f = llvm.mlir.constant(2.0 : f32) : f32
      llvm.store %f, %q : f32, !llvm.ptr
      gpu.return
    }
    // An integer round trip inside the kernel.
    gpu.func @round_trip(%m: memref<16xf32>) kernel {
      %a = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
      %i = arith.index_cast %a : index to i64
      %p = llvm.inttoptr %i : i64 to !llvm.ptr
      %f = arith.constant 3.0 : f32
      llvm.store %f, %p : f32, !llvm.ptr
      gpu.return
    }
    // A descriptor packed into a struct, written through its aligned pointer.
    gpu.func @packed(%m: memref<16xf32>) kernel {
      %d = builtin.unrealized_conversion_cast %m : memref<16xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %p = llvm.extractvalue %d[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %f = arith.constant 4.0 : f32
      llvm.store %f, %p : f32, !llvm.ptr
      gpu.return
    }
    // Writes through the addresses of a table it is given (integers).
    gpu.func @through_table(%table: memref<2xi64>) kernel {
      %c0 = arith.constant 0 : index
      %i = memref.load %table[%c0] : memref<2xi64>
      %p = llvm.inttoptr %i : i64 to !llvm.ptr
      %f = arith.constant 5.0 : f32
      llvm.store %f, %p : f32, !llvm.ptr
      gpu.return
    }
    // Writes through the pointers of a table it is given (pointers).
    gpu.func @through_pointer_table(%table: !llvm.ptr) kernel {
      %p = llvm.load %table : !llvm.ptr -> !llvm.ptr
      %f = arith.constant 5.5 : f32
      llvm.store %f, %p : f32, !llvm.ptr
      gpu.return
    }
    // Writes through the pointer of a struct it is given.
    gpu.func @through_struct(%s: !llvm.struct<(ptr, i64)>) kernel {
      %p = llvm.extractvalue %s[0] : !llvm.struct<(ptr, i64)>
      %f = arith.constant 6.0 : f32
      llvm.store %f, %p : f32, !llvm.ptr
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @spilled_pointer
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: llvm.load
  func.func @spilled_pointer(%p: !llvm.ptr) -> f32 {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@spilled blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    %v = llvm.load %p : !llvm.ptr -> f32
    return %v : f32
  }

  // CHECK-LABEL: func.func @kernel_round_trip
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  func.func @kernel_round_trip(%m: memref<16xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@round_trip blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    %v = memref.load %m[%c0] : memref<16xf32>
    return %v : f32
  }

  // CHECK-LABEL: func.func @kernel_packs
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  func.func @kernel_packs(%m: memref<16xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@packed blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    %v = memref.load %m[%c0] : memref<16xf32>
    return %v : f32
  }

  // The host stores %b's address into a table; the kernel given the table
  // writes %b.
  // CHECK-LABEL: func.func @pointer_table
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load %{{.*}} : memref<16xf32>
  func.func @pointer_table(%b: memref<16xf32>, %table: memref<2xi64>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.extract_aligned_pointer_as_index %b : memref<16xf32> -> index
    %i = arith.index_cast %a : index to i64
    memref.store %i, %table[%c0] : memref<2xi64>
    gpu.launch_func @k::@through_table blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%table : memref<2xi64>)
    %v = memref.load %b[%c0] : memref<16xf32>
    return %v : f32
  }

  // The same with a table of pointers (ragged data: one pointer per row).
  // CHECK-LABEL: func.func @pointer_table_of_pointers
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr -> f32
  func.func @pointer_table_of_pointers(%b: !llvm.ptr, %table: !llvm.ptr) -> f32 {
    %c1 = arith.constant 1 : index
    llvm.store %b, %table : !llvm.ptr, !llvm.ptr
    gpu.launch_func @k::@through_pointer_table blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%table : !llvm.ptr)
    %v = llvm.load %b : !llvm.ptr -> f32
    return %v : f32
  }

  // The host packs %b's pointer into a struct and passes the struct.
  // CHECK-LABEL: func.func @struct_argument
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: llvm.load
  func.func @struct_argument(%b: !llvm.ptr, %n: i64) -> f32 {
    %c1 = arith.constant 1 : index
    %u = llvm.mlir.undef : !llvm.struct<(ptr, i64)>
    %s0 = llvm.insertvalue %b, %u[0] : !llvm.struct<(ptr, i64)>
    %s = llvm.insertvalue %n, %s0[1] : !llvm.struct<(ptr, i64)>
    gpu.launch_func @k::@through_struct blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%s : !llvm.struct<(ptr, i64)>)
    %v = llvm.load %b : !llvm.ptr -> f32
    return %v : f32
  }

  // A memref descriptor packed by a cast into a struct, as a pointer; the
  // kernel writes through it.
  // CHECK-LABEL: func.func @descriptor_cast
  // CHECK: gpu.launch_func async
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: memref.load
  func.func @descriptor_cast(%m: memref<16xf32>, %n: i64) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %d = builtin.unrealized_conversion_cast %m : memref<16xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %p = llvm.extractvalue %d[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %u = llvm.mlir.undef : !llvm.struct<(ptr, i64)>
    %s0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, i64)>
    %s = llvm.insertvalue %n, %s0[1] : !llvm.struct<(ptr, i64)>
    gpu.launch_func @k::@through_struct blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%s : !llvm.struct<(ptr, i64)>)
    %v = memref.load %m[%c0] : memref<16xf32>
    return %v : f32
  }

  // A gpu.launch body that writes through a spilled pointer.
  // CHECK-LABEL: func.func @launch_body_spill
  // CHECK: gpu.launch async
  // CHECK: sdfg.sync
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr -> f32
  func.func @launch_body_spill(%p: !llvm.ptr) -> f32 {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
      %one = llvm.mlir.constant(1 : i32) : i32
      %slot = llvm.alloca %one x !llvm.ptr : (i32) -> !llvm.ptr
      llvm.store %p, %slot : !llvm.ptr, !llvm.ptr
      %q = llvm.load %slot : !llvm.ptr -> !llvm.ptr
      %f = llvm.mlir.constant(7.0 : f32) : f32
      llvm.store %f, %q : f32, !llvm.ptr
      gpu.terminator
    }
    %v = llvm.load %p : !llvm.ptr -> f32
    return %v : f32
  }
}
