// A program as a stencil DSL compiler would generate it: an SDFG-style state
// machine that copies a field to the GPU, runs Jacobi sweeps until the
// residual (a library-node reduction read back by the host) is small enough,
// and copies the field back.
//
//   scripts/run-example.sh
//   # = sdfg-opt --sdfg-add-external-gpu-stream --sdfg-expand-library-nodes --sdfg-make-sync-call
//
// After sdfg-add-external-gpu-stream every copy, memset, launch and the nested
// reduction program run on the stream the caller passes as the last
// argument; sdfg-make-sync-call makes the call synchronous on that stream only.

module attributes {gpu.container_module} {
  gpu.module @stencil_kernels {
    // out[i] = (in[i-1] + in[i+1]) / 2 for interior points;
    // res[i] = |out[i] - in[i]|.
    gpu.func @jacobi(%in: memref<?xf32, #gpu.address_space<global>>,
                     %out: memref<?xf32, #gpu.address_space<global>>,
                     %res: memref<?xf32, #gpu.address_space<global>>,
                     %n: index) kernel {
      %c1 = arith.constant 1 : index
      %half = arith.constant 0.5 : f32
      %i = gpu.global_id x
      %last = arith.subi %n, %c1 : index
      %lo = arith.cmpi uge, %i, %c1 : index
      %hi = arith.cmpi ult, %i, %last : index
      %interior = arith.andi %lo, %hi : i1
      scf.if %interior {
        %im1 = arith.subi %i, %c1 : index
        %ip1 = arith.addi %i, %c1 : index
        %a = memref.load %in[%im1] : memref<?xf32, #gpu.address_space<global>>
        %b = memref.load %in[%ip1] : memref<?xf32, #gpu.address_space<global>>
        %c = memref.load %in[%i] : memref<?xf32, #gpu.address_space<global>>
        %sum = arith.addf %a, %b : f32
        %new = arith.mulf %sum, %half : f32
        memref.store %new, %out[%i] : memref<?xf32, #gpu.address_space<global>>
        %diff = arith.subf %new, %c : f32
        %abs = math.absf %diff : f32
        memref.store %abs, %res[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }

  // The time loop is a CFG of states; the interstate edge out of ^check
  // reads the residual on the host.
  sdfg.sdfg @jacobi_solve(%field: memref<?xf32>, %n: index, %max_iters: index,
                          %tolerance: f32) target(gpu, streams = 2) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %a = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %b = gpu.alloc (%n) : memref<?xf32, #gpu.address_space<global>>
    %res = gpu.alloc (%n) {sdfg.stream_slot = 1 : i64} : memref<?xf32, #gpu.address_space<global>>
    %max = gpu.alloc () : memref<f32, #gpu.address_space<global>>
    %host_max = memref.alloca() : memref<f32>
    gpu.memcpy %a, %field : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.memcpy %b, %field : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.memset %res, %zero : memref<?xf32, #gpu.address_space<global>>, f32 {sdfg.stream_slot = 1 : i64}
    cf.br ^sweep(%c0 : index)

  ^sweep(%iter: index):
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @stencil_kernels::@jacobi blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32, #gpu.address_space<global>>,
             %b : memref<?xf32, #gpu.address_space<global>>,
             %res : memref<?xf32, #gpu.address_space<global>>, %n : index)
    gpu.memcpy %a, %b : memref<?xf32, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<global>>
    cf.br ^check(%iter : index)

  ^check(%it: index):
    sdfg.reduce max %res into %max : memref<?xf32, #gpu.address_space<global>> -> memref<f32, #gpu.address_space<global>>
    gpu.memcpy %host_max, %max : memref<f32>, memref<f32, #gpu.address_space<global>>
    gpu.wait
    %r = memref.load %host_max[] : memref<f32>
    %next = arith.addi %it, %c1 : index
    %converged = arith.cmpf olt, %r, %tolerance : f32
    %exhausted = arith.cmpi uge, %next, %max_iters : index
    %stop = arith.ori %converged, %exhausted : i1
    cf.cond_br %stop, ^finish, ^sweep(%next : index)

  ^finish:
    gpu.memcpy %field, %a : memref<?xf32>, memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %a : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %b : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %res : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %max : memref<f32, #gpu.address_space<global>>
    sdfg.return
  }
}
