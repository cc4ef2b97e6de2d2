// The concurrent-slots benchmark program (bench/SlotConcurrency.cu): two
// independent kernels on two stream slots, each spinning for `ns`
// nanoseconds of GPU time (the global timer) on one block and then filling
// its own buffer, A with `a` and B with `b`.
//
// bench/CMakeLists.txt compiles it twice: with `sdfg-compile
// --concurrent-streams` (slot 0 the caller's stream, slot 1 a pool stream
// forked from it and joined back: the kernels overlap, ~1 x ns) and without
// (both slots the caller's stream: the kernels run one after the other,
// ~2 x ns). Only the call's streams differ; the kernels are the same.

!G = memref<?xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @slot_kernels {
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
  }

  sdfg.sdfg @slots(%A: !G {llvm.noalias}, %B: !G {llvm.noalias}, %n: index,
                   %a: f32, %b: f32, %ns: i64) target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @slot_kernels::@spin_fill blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%A : !G, %n : index, %a : f32, %ns : i64)
    gpu.launch_func @slot_kernels::@spin_fill blocks in (%c1, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%B : !G, %n : index, %b : f32, %ns : i64) {sdfg.stream_slot = 1}
    sdfg.return
  }
}
