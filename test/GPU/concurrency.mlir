// Programs of the concurrent-slots GPU tests (ConcurrencyTests.cu), written
// without the attribute: the test builds them with `sdfg-compile
// --concurrent-streams` (slots forked from the caller's stream), without it
// (every slot the caller's stream: the serialized reference) and with
// `--concurrent-streams --test-omit-stream-waits` (no waits between slots,
// no join: the negative control).

!G = memref<?xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Spins for `ns` nanoseconds of GPU time, then fills a[0, n) with
    // `value`.
    gpu.func @spin_fill(%a: !G, %n: index, %value: f32, %ns: i64) kernel {
      %start = nvvm.read.ptx.sreg.globaltimer : i64
      scf.while : () -> () {
        %now = nvvm.read.ptx.sreg.globaltimer : i64
        %elapsed = arith.subi %now, %start : i64
        %more = arith.cmpi ult, %elapsed, %ns : i64
        scf.condition(%more)
      } do {
        scf.yield
      }
      %tid = gpu.thread_id x
      %threads = gpu.block_dim x
      scf.for %i = %tid to %n step %threads {
        memref.store %value, %a[%i] : !G
      }
      gpu.return
    }
    // Spins for `ns` nanoseconds, then out[i] = 2 * in[i] for i < n.
    gpu.func @spin_double(%in: !G, %out: !G, %n: index, %ns: i64) kernel {
      %start = nvvm.read.ptx.sreg.globaltimer : i64
      scf.while : () -> () {
        %now = nvvm.read.ptx.sreg.globaltimer : i64
        %elapsed = arith.subi %now, %start : i64
        %more = arith.cmpi ult, %elapsed, %ns : i64
        scf.condition(%more)
      } do {
        scf.yield
      }
      %two = arith.constant 2.0 : f32
      %tid = gpu.thread_id x
      %threads = gpu.block_dim x
      scf.for %i = %tid to %n step %threads {
        %x = memref.load %in[%i] : !G
        %y = arith.mulf %x, %two : f32
        memref.store %y, %out[%i] : !G
      }
      gpu.return
    }
  }

  // Two independent kernels on two slots: A = 1 after `ns0` nanoseconds on
  // slot 0, B = 2 after `ns1` on slot 1.
  sdfg.sdfg @two_spins(%A: !G {llvm.noalias}, %B: !G {llvm.noalias},
                       %n: index, %ns0: i64, %ns1: i64)
      target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    gpu.launch_func @kernels::@spin_fill blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%A : !G, %n : index, %one : f32, %ns0 : i64)
    gpu.launch_func @kernels::@spin_fill blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%B : !G, %n : index, %two : f32, %ns1 : i64) {sdfg.stream_slot = 1}
    sdfg.return
  }

  // Work across slots that depends on itself and on the caller: slot 1
  // doubles A (which the caller's stream wrote before the call) into a
  // stream-ordered transient T allocated on slot 0; slot 0 doubles T into C
  // (C = 4 A); slot 1 then fills D with `value`, which the caller reads
  // after the call on its own stream (the join). Each kernel on slot 1
  // spins `ns` first, so that work that does not wait for it runs early.
  sdfg.sdfg @fork_join(%A: !G {llvm.noalias}, %C: !G {llvm.noalias},
                       %D: !G {llvm.noalias}, %n: index, %value: f32,
                       %ns: i64) target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0 : i64
    %T = gpu.alloc (%n) : !G
    gpu.launch_func @kernels::@spin_double blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%A : !G, %T : !G, %n : index, %ns : i64) {sdfg.stream_slot = 1}
    gpu.launch_func @kernels::@spin_double blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%T : !G, %C : !G, %n : index, %zero : i64)
    gpu.launch_func @kernels::@spin_fill blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%D : !G, %n : index, %value : f32, %ns : i64) {sdfg.stream_slot = 1}
    gpu.dealloc %T : !G
    sdfg.return
  }
}
