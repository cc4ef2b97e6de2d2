// Integration program, class 5 (issue 23): concurrency stated by tokens,
// in the shape of upstream's CUDA integration test concurrent-kernels.mlir.
// A setup chain allocates and zeroes two flags and is waited for; then two
// independent chains (each a `gpu.wait async` with no dependencies) launch
// one kernel each, which raises its own flag and spins until the other's is
// raised: the kernels finish only if both run at once. Each then records
// what it saw; the results are copied back after a blocking wait on both
// and printed: [1, 1]. sdfg-add-external-gpu-stream gives the two chains two
// slots forked from the caller's stream; built with --serialize-async both
// go on the caller's one stream, and the first kernel spins forever
// (concurrent-kernels.test shows it and kills it by a timeout).
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    // flags[me] = 1, then spin until flags[other] != 0; seen[me] = what
    // flags[other] was then. Atomics, so that no load is hoisted out of the
    // loop and the raise is seen by the other kernel.
    gpu.func @meet(%flags: memref<2xi32>, %seen: memref<2xi32>, %me: index,
                   %other: index) kernel {
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %raised = memref.atomic_rmw assign %one, %flags[%me]
          : (i32, memref<2xi32>) -> i32
      %found = scf.while (%last = %zero) : (i32) -> i32 {
        %waiting = arith.cmpi eq, %last, %zero : i32
        scf.condition(%waiting) %last : i32
      } do {
      ^bb0(%ignored: i32):
        %now = memref.atomic_rmw addi %zero, %flags[%other]
            : (i32, memref<2xi32>) -> i32
        scf.yield %now : i32
      }
      memref.store %found, %seen[%me] : memref<2xi32>
      gpu.return
    }
  }

  func.func @concurrent_kernels() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %host = memref.alloc() : memref<2xi32>
    // Setup, waited for: both kernels use the flags.
    %s0 = gpu.wait async
    %flags, %s1 = gpu.alloc async [%s0] () : memref<2xi32>
    %seen, %s2 = gpu.alloc async [%s1] () : memref<2xi32>
    %s3 = gpu.memset async [%s2] %flags, %zero : memref<2xi32>, i32
    %s4 = gpu.memset async [%s3] %seen, %zero : memref<2xi32>, i32
    gpu.wait [%s4]
    // Two independent chains.
    %a0 = gpu.wait async
    %b0 = gpu.wait async
    %a1 = gpu.launch_func async [%a0] @kernels::@meet
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%flags : memref<2xi32>, %seen : memref<2xi32>, %c0 : index,
             %c1 : index)
    %b1 = gpu.launch_func async [%b0] @kernels::@meet
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%flags : memref<2xi32>, %seen : memref<2xi32>, %c1 : index,
             %c0 : index)
    gpu.wait [%a1, %b1]
    // Results back, waited for, printed.
    %r0 = gpu.wait async
    %r1 = gpu.memcpy async [%r0] %host, %seen : memref<2xi32>, memref<2xi32>
    %r2 = gpu.dealloc async [%r1] %flags : memref<2xi32>
    %r3 = gpu.dealloc async [%r2] %seen : memref<2xi32>
    gpu.wait [%r3]
    %u = memref.cast %host : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<2xi32>
    return
  }
}
