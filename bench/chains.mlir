// The token-chains benchmark program (bench/SlotConcurrency.cu, issue 23):
// the two kernels of bench/slots.mlir written in upstream's async form, as
// a `func.func` whose two `gpu.wait async` start two independent chains.
// Each kernel spins for `ns` nanoseconds of GPU time on one block and then
// fills its own buffer, A with `a` and B with `b`; the function returns
// without waiting (the call is asynchronous on the caller's stream).
//
// bench/CMakeLists.txt compiles it twice: as it is (each chain a slot, the
// second forked from the caller's stream and joined back: the kernels
// overlap, ~1 x ns) and with `sdfg-compile --serialize-async` (both chains
// on the caller's stream: ~2 x ns).

!G = memref<?xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @token_chain_kernels {
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

  func.func @chains(%A: !G, %B: !G, %n: index, %a: f32, %b: f32, %ns: i64) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %k0 = gpu.launch_func async [%t0] @token_chain_kernels::@spin_fill
        blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%A : !G, %n : index, %a : f32, %ns : i64)
    %k1 = gpu.launch_func async [%t1] @token_chain_kernels::@spin_fill
        blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%B : !G, %n : index, %b : f32, %ns : i64)
    return
  }
}
