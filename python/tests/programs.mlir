// Host programs for the package's tests (python/tests): every parameter
// kind the package passes, checked through the real ABI without a GPU.
module {
  // y = a * x + y, by keyword names.
  sdfg.sdfg @axpy(%x: memref<?xf64> {sdfg.arg_name = "x"},
                  %y: memref<?xf64> {sdfg.arg_name = "y"},
                  %a: f64 {sdfg.arg_name = "a"}) target(cpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      %xi = memref.load %x[%i] : memref<?xf64>
      %yi = memref.load %y[%i] : memref<?xf64>
      %p = arith.mulf %a, %xi : f64
      %s = arith.addf %p, %yi : f64
      memref.store %s, %y[%i] : memref<?xf64>
    }
    sdfg.return
  }

  // frame = pack * type: parameters named as the generated call's own
  // helpers once were (type, a frame, a packing function): they shadow
  // nothing (_fastcall.py names its own with a _sdfg_ prefix).
  sdfg.sdfg @shadowing(%type: memref<?xf64> {sdfg.arg_name = "type"},
                       %frame: memref<?xf64> {sdfg.arg_name = "frame"},
                       %pack: f64 {sdfg.arg_name = "pack"}) target(cpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %type, %c0 : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %type[%i] : memref<?xf64>
      %p = arith.mulf %pack, %v : f64
      memref.store %p, %frame[%i] : memref<?xf64>
    }
    sdfg.return
  }

  // The sum of a strided vector (a column of a matrix): its strides and
  // offset come from the descriptor. A function with a result of its own.
  func.func @strided_sum(%v: memref<?xf32, strided<[?], offset: ?>>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.dim %v, %c0 : memref<?xf32, strided<[?], offset: ?>>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %e = memref.load %v[%i] : memref<?xf32, strided<[?], offset: ?>>
      %t = arith.addf %acc, %e : f32
      scf.yield %t : f32
    }
    return %s : f32
  }

  // How many elements of a 4 x n int32 matrix exceed t (or equal it, with
  // `inclusive`), into out[] (an i64 scalar in memory); also returns the
  // row length (an index result).
  func.func @count_above(%m: memref<4x?xi32>, %t: i32, %inclusive: i1,
                         %out: memref<i64>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %n = memref.dim %m, %c1 : memref<4x?xi32>
    %count = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> i64 {
      %row = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> i64 {
        %e = memref.load %m[%i, %j] : memref<4x?xi32>
        %gt = arith.cmpi sgt, %e, %t : i32
        %eq = arith.cmpi eq, %e, %t : i32
        %eqi = arith.andi %eq, %inclusive : i1
        %hit = arith.ori %gt, %eqi : i1
        %add = arith.select %hit, %one, %zero : i64
        %next = arith.addi %b, %add : i64
        scf.yield %next : i64
      }
      scf.yield %row : i64
    }
    memref.store %count, %out[] : memref<i64>
    return %n : index
  }

  // The first element behind an opaque address (a pointer parameter).
  func.func @first(%p: !llvm.ptr) -> f32 {
    %v = llvm.load %p : !llvm.ptr -> f32
    return %v : f32
  }

  // The sum of a rank-1 array given unranked.
  func.func @unranked_sum(%u: memref<*xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %v = memref.cast %u : memref<*xf32> to memref<?xf32>
    %n = memref.dim %v, %c0 : memref<?xf32>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %e = memref.load %v[%i] : memref<?xf32>
      %t = arith.addf %acc, %e : f32
      scf.yield %t : f32
    }
    return %s : f32
  }
}
