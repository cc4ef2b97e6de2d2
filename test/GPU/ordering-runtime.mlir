// Programs of the GPU tests of issue 22's classes 6, 8 and 9
// (OrderingRuntimeTests.cu): orderings that graph mode and a failed call
// owe the caller, beyond the host syncs and waits of ordering-classes.mlir.
// CMakeLists.txt builds this file with --concurrent-streams four times:
// eager, in graph mode, in graph mode without its checks
// (--test-omit-graph-mode-checks, linked with the negative-control runtime:
// no flush before a call that leaves the runtime, graph mode though an
// allocation escapes, no record-time launch check) and eager with the
// negative-control runtime (a failed call frees before it joins).

!G = memref<?xf32, #gpu.address_space<global>>
module attributes {gpu.container_module} {
  gpu.module @runtime_kernels {
    // x[i] = value
    gpu.func @fill(%x: !G, %value: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        memref.store %value, %x[%i] : !G
      }
      gpu.return
    }
    // Spins `ns` nanoseconds, then x[i] = value (one block).
    gpu.func @spin_fill(%x: !G, %value: f32, %n: index, %ns: i64) kernel {
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
        memref.store %value, %x[%i] : !G
      }
      gpu.return
    }
  }

  // A kernel library built elsewhere (OrderingRuntimeTests.cu defines it):
  // copies n elements from its first buffer to its second, enqueued on the
  // stream it is given.
  sdfg.sdfg private @library_copy(!G, !G, index) target(gpu)

  // Classes 6 and 8a: d = value on the GPU, then the library copies d to
  // out on the same stream. GPU-only buffers: no host sync before the call
  // (class 6); in graph mode the fill is still recorded, not launched, when
  // the library enqueues its copy, unless the call flushes it first (8a).
  sdfg.sdfg @fill_then_library(%d: !G, %out: !G, %n: index, %value: f32)
      target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @runtime_kernels::@fill
        blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%d : !G, %value : f32, %n : index)
    sdfg.call @library_copy(%d, %out, %n) : (!G, !G, index) -> ()
    sdfg.return
  }

  // Class 8b: a GPU buffer of the program's own, filled with value, handed
  // out through an out-pointer as an integer. Each call must hand out a
  // buffer of its own (graph mode keeps a program's allocations for its
  // next call: not this one's).
  sdfg.sdfg @hand_out_buffer(%address: memref<i64>, %n: index, %value: f32)
      target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %m = gpu.alloc (%n) : !G
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @runtime_kernels::@fill
        blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%m : !G, %value : f32, %n : index)
    %base = memref.extract_aligned_pointer_as_index %m : !G -> index
    %base64 = arith.index_cast %base : index to i64
    memref.store %base64, %address[] : memref<i64>
    sdfg.return
  }

  // Class 8c: a launch of `threads` threads per block, then host code
  // (flag = 1). With more threads than the device allows, the call fails at
  // the launch and the host code after it never runs, eager or in graph
  // mode.
  sdfg.sdfg @launch_then_host_store(%d: !G, %flag: memref<i32>, %n: index,
                                    %threads: index) target(gpu) {
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f32
    gpu.launch_func @runtime_kernels::@fill
        blocks in (%c1, %c1, %c1) threads in (%threads, %c1, %c1)
        args(%d : !G, %one : f32, %n : index)
    %set = arith.constant 1 : i32
    memref.store %set, %flag[] : memref<i32>
    sdfg.return
  }

  // Class 9: slot 1 spins `ns`, then writes the transient t; slot 0 then
  // launches with `threads` threads per block. When the device refuses
  // those, the call fails while slot 1 still runs: t may be freed only
  // after slot 1 has joined.
  sdfg.sdfg @fail_while_a_slot_writes(%d: !G, %n: index, %ns: i64,
                                      %threads: index)
      target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %seven = arith.constant 7.0 : f32
    %t = gpu.alloc (%n) : !G
    gpu.launch_func @runtime_kernels::@spin_fill
        blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%t : !G, %seven : f32, %n : index, %ns : i64)
        {sdfg.stream_slot = 1}
    gpu.launch_func @runtime_kernels::@fill
        blocks in (%c1, %c1, %c1) threads in (%threads, %c1, %c1)
        args(%d : !G, %one : f32, %n : index)
    gpu.dealloc %t : !G
    sdfg.return
  }
}
