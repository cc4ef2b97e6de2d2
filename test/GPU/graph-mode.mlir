// Programs of the graph-mode GPU tests (GraphModeTests.cu), written without
// the attribute: the test builds them with `sdfg-compile --graph-mode` and,
// for the negative control, with `--graph-mode --test-omit-host-syncs`.

!G = memref<?xf32, #gpu.address_space<global>>
!H = memref<?xf32>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y[i] = a * x[i] + b[i]  (b may be x)
    gpu.func @axpy(%x: !G, %b: !G, %y: !G, %a: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : !G
        %w = memref.load %b[%i] : !G
        %m = arith.mulf %a, %v : f32
        %r = arith.addf %m, %w : f32
        memref.store %r, %y[%i] : !G
      }
      gpu.return
    }
  }

  // Two segments around a host read: T = 2 in + 1 (a transient and a
  // memset), copied out; the host reads out[0] = 2 in[0] + 1 and scales
  // T by it in the second segment: out = (2 in + 1) * (2 in[0] + 1).
  sdfg.sdfg @two_segments(%in: !H, %out: !H, %n: index) target(gpu) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %blocks = arith.ceildivui %n, %c256 : index
    %t = gpu.alloc (%n) : !G
    %u = gpu.alloc (%n) : !G
    gpu.memcpy %t, %in : !G, !H
    gpu.memset %u, %one : !G, f32
    gpu.launch_func @kernels::@axpy blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%t : !G, %u : !G, %t : !G, %two : f32, %n : index)
    gpu.memcpy %out, %t : !H, !G
    %first = memref.load %out[%c0] : !H
    gpu.memset %u, %zero : !G, f32
    gpu.launch_func @kernels::@axpy blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%t : !G, %u : !G, %t : !G, %first : f32, %n : index)
    gpu.memcpy %out, %t : !H, !G
    gpu.dealloc %u : !G
    gpu.dealloc %t : !G
    sdfg.return
  }

  // One segment, no host read (capturable by the caller):
  // out = 3 in + 1.
  sdfg.sdfg @one_segment(%in: !H, %out: !H, %n: index) target(gpu) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %three = arith.constant 3.0 : f32
    %blocks = arith.ceildivui %n, %c256 : index
    %t = gpu.alloc (%n) : !G
    %u = gpu.alloc (%n) : !G
    gpu.memcpy %t, %in : !G, !H
    gpu.memset %u, %one : !G, f32
    gpu.launch_func @kernels::@axpy blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%t : !G, %u : !G, %t : !G, %three : f32, %n : index)
    gpu.memcpy %out, %t : !H, !G
    gpu.dealloc %u : !G
    gpu.dealloc %t : !G
    sdfg.return
  }
}
