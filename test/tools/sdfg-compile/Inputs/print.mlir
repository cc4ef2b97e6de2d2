// The program of ../runner-utils.test (a host program: no GPU work).
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}

  func.func @show() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %halves = memref.alloc() : memref<2x3xf32>
    %ints = memref.alloc() : memref<4xi64>
    %half = arith.constant 0.5 : f32
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %k = arith.muli %i, %c3 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i64
        %f = arith.sitofp %li : i64 to f32
        %h = arith.mulf %f, %half : f32
        memref.store %h, %halves[%i, %j] : memref<2x3xf32>
      }
    }
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %three = arith.constant 3 : i64
      %v = arith.subi %ii, %three : i64
      memref.store %v, %ints[%i] : memref<4xi64>
    }
    %u = memref.cast %halves : memref<2x3xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %w = memref.cast %ints : memref<4xi64> to memref<*xi64>
    call @printMemrefI64(%w) : (memref<*xi64>) -> ()
    %row = vector.transfer_read %halves[%c0, %c0], %half : memref<2x3xf32>, vector<4xf32>
    vector.print %row : vector<4xf32>
    %answer = arith.constant 42 : i64
    vector.print str "answer "
    vector.print %answer : i64
    memref.dealloc %halves : memref<2x3xf32>
    memref.dealloc %ints : memref<4xi64>
    return
  }
}
