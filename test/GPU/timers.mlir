// A program compiled with `sdfg-compile --timers` (sdfg-instrument-timers) for
// the GPU tests: one kernel that spins on the GPU's global timer for `ns`
// nanoseconds, so the program's GPU time is known in advance.

module attributes {gpu.container_module} {
  gpu.module @timer_kernels {
    gpu.func @spin(%ns: i64) kernel {
      %start = nvvm.read.ptx.sreg.globaltimer : i64
      scf.while : () -> () {
        %now = nvvm.read.ptx.sreg.globaltimer : i64
        %elapsed = arith.subi %now, %start : i64
        %more = arith.cmpi ult, %elapsed, %ns : i64
        scf.condition(%more)
      } do {
        scf.yield
      }
      gpu.return
    }
  }

  // Spins for `ns` nanoseconds on the caller's stream.
  sdfg.sdfg @timed_spin(%ns: i64) target(gpu, streams = 1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @timer_kernels::@spin blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%ns : i64)
    sdfg.return
  }
}
