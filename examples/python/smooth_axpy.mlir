// The program of the Python client example (smooth_axpy.py), as an SDFG
// code generator would emit it: one state with two transient device
// buffers, two kernels, a device-to-device copy and a library-node
// reduction.
//
//   t   = smooth(x)            t[i] = x[i-1]/4 + x[i]/2 + x[i+1]/4
//                              (the edge values repeated past both ends)
//   u   = alpha * t + y        (axpy)
//   out = u
//   sum = reduce_add(u)
//
// x, y, out and sum are device arrays that the caller owns (CuPy or PyTorch
// tensors); t and u are transients: gpu.alloc / gpu.dealloc become
// stream-ordered allocations on the caller's stream, from the memory pool
// current for its device (the one CuPy's MemoryAsyncPool uses).
//
//   build/bin/sdfg-compile examples/python/smooth_axpy.mlir \
//       -o smooth_axpy.so --header smooth_axpy.h
//
// exports
//   int32_t _mlir_ciface_smooth_axpy(sdfg_memref_1d_float *x,
//       sdfg_memref_1d_float *y, sdfg_memref_1d_float *out,
//       sdfg_memref_0d_float *sum, float alpha,
//       void *external_gpu_stream);
//   int32_t _mlir_ciface_smooth_axpy_host(... same memrefs, float alpha);
// @smooth_axpy_host computes the same on the CPU (host arrays, no stream):
// `smooth_axpy.py self-check` calls it to check the descriptor packing
// without a GPU.

module attributes {gpu.container_module} {
  gpu.module @smooth_axpy_kernels {
    // t[i] = 0.25 * x[max(i-1, 0)] + 0.5 * x[i] + 0.25 * x[min(i+1, n-1)]
    gpu.func @smooth(%x: memref<?xf32, #gpu.address_space<global>>,
                     %t: memref<?xf32, #gpu.address_space<global>>,
                     %n: index) kernel {
      %c1 = arith.constant 1 : index
      %quarter = arith.constant 0.25 : f32
      %half = arith.constant 0.5 : f32
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %has_left = arith.cmpi uge, %i, %c1 : index
        %im1 = arith.subi %i, %c1 : index
        %left = arith.select %has_left, %im1, %i : index
        %ip1 = arith.addi %i, %c1 : index
        %has_right = arith.cmpi ult, %ip1, %n : index
        %right = arith.select %has_right, %ip1, %i : index
        %a = memref.load %x[%left] : memref<?xf32, #gpu.address_space<global>>
        %b = memref.load %x[%i] : memref<?xf32, #gpu.address_space<global>>
        %c = memref.load %x[%right] : memref<?xf32, #gpu.address_space<global>>
        %qa = arith.mulf %quarter, %a : f32
        %hb = arith.mulf %half, %b : f32
        %qc = arith.mulf %quarter, %c : f32
        %ab = arith.addf %qa, %hb : f32
        %v = arith.addf %ab, %qc : f32
        memref.store %v, %t[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }

    // u[i] = alpha * t[i] + y[i]
    gpu.func @axpy(%t: memref<?xf32, #gpu.address_space<global>>,
                   %y: memref<?xf32, #gpu.address_space<global>>,
                   %u: memref<?xf32, #gpu.address_space<global>>,
                   %alpha: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %tv = memref.load %t[%i] : memref<?xf32, #gpu.address_space<global>>
        %yv = memref.load %y[%i] : memref<?xf32, #gpu.address_space<global>>
        %m = arith.mulf %alpha, %tv : f32
        %r = arith.addf %m, %yv : f32
        memref.store %r, %u[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }

  sdfg.sdfg @smooth_axpy(
      %x: memref<?xf32, #gpu.address_space<global>> {sdfg.arg_name = "x"},
      %y: memref<?xf32, #gpu.address_space<global>> {sdfg.arg_name = "y"},
      %out: memref<?xf32, #gpu.address_space<global>> {sdfg.arg_name = "out"},
      %sum: memref<f32, #gpu.address_space<global>> {sdfg.arg_name = "sum"},
      %alpha: f32 {sdfg.arg_name = "alpha"}) target(gpu, streams = 1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %x, %c0 : memref<?xf32, #gpu.address_space<global>>
    %blocks = arith.ceildivui %n, %c256 : index
    %t = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %u = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    gpu.launch_func @smooth_axpy_kernels::@smooth blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32, #gpu.address_space<global>>,
             %t : memref<?xf32, #gpu.address_space<global>>, %n : index)
    gpu.launch_func @smooth_axpy_kernels::@axpy blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%t : memref<?xf32, #gpu.address_space<global>>,
             %y : memref<?xf32, #gpu.address_space<global>>,
             %u : memref<?xf32, #gpu.address_space<global>>,
             %alpha : f32, %n : index)
    gpu.memcpy %out, %u : memref<?xf32, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<global>>
    sdfg.reduce add %u into %sum
        : memref<?xf32, #gpu.address_space<global>> -> memref<f32, #gpu.address_space<global>>
    gpu.dealloc %t : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %u : memref<?xf32, #gpu.address_space<global>>
    sdfg.return
  }

  // out = alpha * x + y alone: one kernel on the caller's arrays, no
  // transients and no host sync, so its calls can be captured into any CUDA
  // graph, XLA's command buffers too (sdfgstream.jax registers it
  // command-buffer compatible).
  sdfg.sdfg @axpy(
      %x: memref<?xf32, #gpu.address_space<global>> {sdfg.arg_name = "x"},
      %y: memref<?xf32, #gpu.address_space<global>> {sdfg.arg_name = "y"},
      %out: memref<?xf32, #gpu.address_space<global>> {sdfg.arg_name = "out"},
      %alpha: f32 {sdfg.arg_name = "alpha"}) target(gpu, streams = 1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %x, %c0 : memref<?xf32, #gpu.address_space<global>>
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @smooth_axpy_kernels::@axpy blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32, #gpu.address_space<global>>,
             %y : memref<?xf32, #gpu.address_space<global>>,
             %out : memref<?xf32, #gpu.address_space<global>>,
             %alpha : f32, %n : index)
    sdfg.return
  }

  // The same program for host arrays (NumPy): the inputs are copied to the
  // GPU on the caller's stream, @smooth_axpy runs there, the results are
  // copied back on it. Like every call, it only enqueues: the results are
  // in the caller's arrays once the stream has run the call (sync it before
  // reading them).
  sdfg.sdfg @smooth_axpy_io(%x: memref<?xf32> {sdfg.arg_name = "x"},
                            %y: memref<?xf32> {sdfg.arg_name = "y"},
                            %out: memref<?xf32> {sdfg.arg_name = "out"},
                            %sum: memref<f32> {sdfg.arg_name = "sum"},
                            %alpha: f32 {sdfg.arg_name = "alpha"}) target(gpu, streams = 1) {
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %dx = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %dy = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %dout = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %dsum = gpu.alloc () : memref<f32, #gpu.address_space<global>>
    gpu.memcpy %dx, %x : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.memcpy %dy, %y : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    sdfg.call @smooth_axpy(%dx, %dy, %dout, %dsum, %alpha)
        : (memref<?xf32, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<global>>,
           memref<?xf32, #gpu.address_space<global>>, memref<f32, #gpu.address_space<global>>,
           f32) -> ()
    gpu.memcpy %out, %dout : memref<?xf32>, memref<?xf32, #gpu.address_space<global>>
    gpu.memcpy %sum, %dsum : memref<f32>, memref<f32, #gpu.address_space<global>>
    gpu.dealloc %dx : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %dy : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %dout : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %dsum : memref<f32, #gpu.address_space<global>>
    sdfg.return
  }

  // The same computation on the host, for checks without a GPU.
  sdfg.sdfg @smooth_axpy_host(%x: memref<?xf32> {sdfg.arg_name = "x"},
                              %y: memref<?xf32> {sdfg.arg_name = "y"},
                              %out: memref<?xf32> {sdfg.arg_name = "out"},
                              %sum: memref<f32> {sdfg.arg_name = "sum"},
                              %alpha: f32 {sdfg.arg_name = "alpha"}) target(cpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %quarter = arith.constant 0.25 : f32
    %half = arith.constant 0.5 : f32
    %n = memref.dim %x, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %has_left = arith.cmpi uge, %i, %c1 : index
      %im1 = arith.subi %i, %c1 : index
      %left = arith.select %has_left, %im1, %i : index
      %ip1 = arith.addi %i, %c1 : index
      %has_right = arith.cmpi ult, %ip1, %n : index
      %right = arith.select %has_right, %ip1, %i : index
      %a = memref.load %x[%left] : memref<?xf32>
      %b = memref.load %x[%i] : memref<?xf32>
      %c = memref.load %x[%right] : memref<?xf32>
      %qa = arith.mulf %quarter, %a : f32
      %hb = arith.mulf %half, %b : f32
      %qc = arith.mulf %quarter, %c : f32
      %ab = arith.addf %qa, %hb : f32
      %v = arith.addf %ab, %qc : f32
      %yv = memref.load %y[%i] : memref<?xf32>
      %m = arith.mulf %alpha, %v : f32
      %r = arith.addf %m, %yv : f32
      memref.store %r, %out[%i] : memref<?xf32>
    }
    sdfg.reduce add %out into %sum : memref<?xf32> -> memref<f32>
    sdfg.return
  }
}
