// Integration program, class 5 (issues 22 and 23): GPU work in async.execute
// regions, in the shape of upstream's CUDA integration test async.mlir:
// regions that allocate, copy and launch in sync form, each depending on
// the one before and passing its device buffer on as an !async.value; the
// host awaits the last region, copies the result into a buffer it has
// registered with the GPU (pinned: the copy is asynchronous, as is the
// first one, from a registered input) and prints it.
// sdfg-add-external-gpu-stream runs the regions in place on the caller's stream;
// the print reads the copy only after the host sync sdfg-insert-host-syncs puts
// before it. Built with --test-omit-host-syncs (the negative control,
// async-execute.test) the print comes before the copy has landed.
//   d0 = [0, 1]; d1 = d0 + 1; d0 = d0 * 10 + d1 (after 20 ms)  ->  [1, 12]
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @async_execute() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ten = arith.constant 10 : i32
    %one = arith.constant 1 : i32
    %minus = arith.constant -7 : i32
    %input = memref.alloc() : memref<2xi32>
    scf.for %i = %c0 to %c2 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %input[%i] : memref<2xi32>
    }
    // Both host buffers registered: a copy from pageable memory would wait
    // for the stream first, absorbing the GPU work queued ahead.
    %input_unranked = memref.cast %input : memref<2xi32> to memref<*xi32>
    gpu.host_register %input_unranked : memref<*xi32>
    %result = memref.alloc() : memref<2xi32>
    memref.store %minus, %result[%c0] : memref<2xi32>
    memref.store %minus, %result[%c1] : memref<2xi32>
    %unranked = memref.cast %result : memref<2xi32> to memref<*xi32>
    gpu.host_register %unranked : memref<*xi32>

    %a0, %f0 = async.execute -> !async.value<memref<2xi32, 1>> {
      %d0 = gpu.alloc () : memref<2xi32, 1>
      gpu.memcpy %d0, %input : memref<2xi32, 1>, memref<2xi32>
      async.yield %d0 : memref<2xi32, 1>
    }
    %a1, %f1 = async.execute [%a0] (%f0 as %d0: !async.value<memref<2xi32, 1>>)
        -> !async.value<memref<2xi32, 1>> {
      %d1 = gpu.alloc () : memref<2xi32, 1>
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
        %v = memref.load %d0[%tx] : memref<2xi32, 1>
        %w = arith.addi %v, %one : i32
        memref.store %w, %d1[%tx] : memref<2xi32, 1>
        gpu.terminator
      }
      async.yield %d1 : memref<2xi32, 1>
    }
    %a2 = async.execute [%a1] (%f0 as %d0: !async.value<memref<2xi32, 1>>,
                               %f1 as %d1: !async.value<memref<2xi32, 1>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
        // 20 ms of GPU time first (the global timer), so that a host that
        // does not wait reads the result buffer long before it is written.
        // The last kernel: a kernel loaded after it (CUDA loads kernels
        // lazily, at their first launch) would wait for it.
        %ns = arith.constant 20000000 : i64
        %start = nvvm.read.ptx.sreg.globaltimer : i64
        scf.while : () -> () {
          %now = nvvm.read.ptx.sreg.globaltimer : i64
          %elapsed = arith.subi %now, %start : i64
          %more = arith.cmpi ult, %elapsed, %ns : i64
          scf.condition(%more)
        } do {
          scf.yield
        }
        %v = memref.load %d0[%tx] : memref<2xi32, 1>
        %w = memref.load %d1[%tx] : memref<2xi32, 1>
        %x = arith.muli %v, %ten : i32
        %y = arith.addi %x, %w : i32
        memref.store %y, %d0[%tx] : memref<2xi32, 1>
        gpu.terminator
      }
      gpu.dealloc %d1 : memref<2xi32, 1>
      async.yield
    }
    async.await %a2 : !async.token
    %d0 = async.await %f0 : !async.value<memref<2xi32, 1>>
    gpu.memcpy %result, %d0 : memref<2xi32>, memref<2xi32, 1>
    gpu.dealloc %d0 : memref<2xi32, 1>
    call @printMemrefI32(%unranked) : (memref<*xi32>) -> ()
    gpu.host_unregister %unranked : memref<*xi32>
    gpu.host_unregister %input_unranked : memref<*xi32>
    memref.dealloc %result : memref<2xi32>
    memref.dealloc %input : memref<2xi32>
    return
  }
}
