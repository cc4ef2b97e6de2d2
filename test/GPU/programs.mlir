// Programs that the GPU tests (StreamTests.cu) run on an H200. Built ahead of
// time by sdfg-compile; see CMakeLists.txt.
//
// @pipeline: H2D copy, two kernels, a D2D copy, a memset, a third kernel and
// a D2H copy, with three transient device buffers:
//   out[i] = 3 * in[i] + 6

module attributes {gpu.container_module} {
  gpu.module @pipeline_kernels {
    // y[i] = a * x[i] + b
    gpu.func @affine(%x: memref<?xf32, #gpu.address_space<global>>,
                     %y: memref<?xf32, #gpu.address_space<global>>,
                     %a: f32, %b: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : memref<?xf32, #gpu.address_space<global>>
        %m = arith.mulf %a, %v : f32
        %r = arith.addf %m, %b : f32
        memref.store %r, %y[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
    // y[i] += x[i]
    gpu.func @accumulate(%x: memref<?xf32, #gpu.address_space<global>>,
                         %y: memref<?xf32, #gpu.address_space<global>>,
                         %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : memref<?xf32, #gpu.address_space<global>>
        %w = memref.load %y[%i] : memref<?xf32, #gpu.address_space<global>>
        %r = arith.addf %v, %w : f32
        memref.store %r, %y[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }

  sdfg.sdfg @pipeline(%in: memref<?xf32>, %out: memref<?xf32>, %n: index)
      target(gpu, streams = 2) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %five = arith.constant 5.0 : f32
    %a = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %b = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %c = gpu.alloc (%n) {sdfg.stream_slot = 1 : i64} : memref<?xf32, #gpu.address_space<global>>
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.memcpy %a, %in : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.launch_func @pipeline_kernels::@affine blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32, #gpu.address_space<global>>,
             %b : memref<?xf32, #gpu.address_space<global>>,
             %two : f32, %one : f32, %n : index)
    gpu.launch_func @pipeline_kernels::@accumulate blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32, #gpu.address_space<global>>,
             %b : memref<?xf32, #gpu.address_space<global>>, %n : index)
        {sdfg.stream_slot = 1 : i64}
    gpu.memcpy %c, %b : memref<?xf32, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<global>>
    gpu.memset %a, %five : memref<?xf32, #gpu.address_space<global>>, f32
    gpu.launch_func @pipeline_kernels::@accumulate blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32, #gpu.address_space<global>>,
             %c : memref<?xf32, #gpu.address_space<global>>, %n : index)
    gpu.memcpy %out, %c : memref<?xf32>, memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %a : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %b : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %c {sdfg.stream_slot = 1 : i64} : memref<?xf32, #gpu.address_space<global>>
    sdfg.return
  }
}
