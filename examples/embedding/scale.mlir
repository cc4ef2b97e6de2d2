// What the toy DSL's front end emits for
//
//   gpu procedure scale(a: f32[n]) { a = 2 * a }
//
// A procedure that enqueues GPU work is a func.func marked with the number of
// GPU work queues it uses (`toy_dsl.streams`); plain host code is unmarked.
// GPU memory is memory space 1 (global memory in NVVM's numbering).
//
//   toy-dsl-opt scale.mlir --toy-dsl-to-gpu-on-caller-stream="sync-call=true"
//   toy-dsl-opt scale.mlir --toy-dsl-to-cuda="format=isa"
//   toy-dsl-opt scale.mlir --toy-dsl-to-llvm

module attributes {gpu.container_module} {
  gpu.module @toy_kernels {
    gpu.func @scale(%a: memref<?xf32, 1>, %n: index)
        kernel {
      %two = arith.constant 2.0 : f32
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x = memref.load %a[%i] : memref<?xf32, 1>
        %y = arith.mulf %x, %two : f32
        memref.store %y, %a[%i] : memref<?xf32, 1>
      }
      gpu.return
    }
  }

  func.func @scale(%host: memref<?xf32>, %n: index)
      attributes {toy_dsl.streams = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %device = gpu.alloc (%n) : memref<?xf32, 1>
    gpu.memcpy %device, %host : memref<?xf32, 1>, memref<?xf32>
    %blocks = arith.ceildivui %n, %c256 : index
    gpu.launch_func @toy_kernels::@scale blocks in (%blocks, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%device : memref<?xf32, 1>, %n : index)
    gpu.memcpy %host, %device : memref<?xf32>, memref<?xf32, 1>
    gpu.dealloc %device : memref<?xf32, 1>
    return
  }

  // Host code: not a GPU procedure, left as it is.
  func.func @blocks_for(%n: index) -> index {
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    return %blocks : index
  }
}
