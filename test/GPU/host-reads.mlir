// Programs of the GPU tests for host reads, overlapping device copies,
// nested programs and library nodes (StreamTests.cu, issue 4's claims).

module attributes {gpu.container_module} {
  gpu.module @nested_kernels {
    // x[i] += 1
    gpu.func @increment(%x: memref<?xf32, #gpu.address_space<global>>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %one = arith.constant 1.0 : f32
        %v = memref.load %x[%i] : memref<?xf32, #gpu.address_space<global>>
        %r = arith.addf %v, %one : f32
        memref.store %r, %x[%i] : memref<?xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }

  // The branch taken depends on a value copied to the host in the state
  // before: right only if the host waits for that copy (sdfg-insert-host-syncs).
  //   out = value > 0 ? 1 : 2
  sdfg.sdfg @branch_on_copy(%device: memref<i32, #gpu.address_space<global>>,
                            %host: memref<i32>, %out: memref<i32>) target(gpu) {
    gpu.memcpy %host, %device : memref<i32>, memref<i32, #gpu.address_space<global>>
    cf.br ^decide
  ^decide:
    %value = memref.load %host[] : memref<i32>
    %zero = arith.constant 0 : i32
    %positive = arith.cmpi sgt, %value, %zero : i32
    cf.cond_br %positive, ^yes, ^no
  ^yes:
    %one = arith.constant 1 : i32
    memref.store %one, %out[] : memref<i32>
    sdfg.return
  ^no:
    %two = arith.constant 2 : i32
    memref.store %two, %out[] : memref<i32>
    sdfg.return
  }

  // Copies `length` bytes of `buffer` from `from` to `to` (byte offsets),
  // on the device; the ranges may overlap (memmove semantics).
  sdfg.sdfg @move_bytes(%buffer: memref<?xi8, #gpu.address_space<global>>,
                        %from: index, %to: index, %length: index) target(gpu) {
    %source = memref.view %buffer[%from][%length]
        : memref<?xi8, #gpu.address_space<global>> to memref<?xi8, #gpu.address_space<global>>
    %target = memref.view %buffer[%to][%length]
        : memref<?xi8, #gpu.address_space<global>> to memref<?xi8, #gpu.address_space<global>>
    gpu.memcpy %target, %source
        : memref<?xi8, #gpu.address_space<global>>, memref<?xi8, #gpu.address_space<global>>
    sdfg.return
  }

  // A nested program with its kernel in a loop and a branch, called from a
  // program that also reduces with a library node.
  sdfg.sdfg private @increment_times(%x: memref<?xf32, #gpu.address_space<global>>,
                                     %n: index, %times: index) target(gpu) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.ceildivui %n, %c256 : index
    %any = arith.cmpi sgt, %times, %c0 : index
    cf.cond_br %any, ^loop, ^done
  ^loop:
    scf.for %k = %c0 to %times step %c1 {
      gpu.launch_func @nested_kernels::@increment blocks in (%blocks, %c1, %c1)
          threads in (%c256, %c1, %c1)
          args(%x : memref<?xf32, #gpu.address_space<global>>, %n : index)
    }
    cf.br ^done
  ^done:
    sdfg.return
  }

  //   sum = reduce_add(x + times)
  sdfg.sdfg @nested_then_reduce(%x: memref<?xf32, #gpu.address_space<global>>,
                                %sum: memref<f32, #gpu.address_space<global>>,
                                %n: index, %times: index) target(gpu) {
    sdfg.call @increment_times(%x, %n, %times)
        : (memref<?xf32, #gpu.address_space<global>>, index, index) -> ()
    sdfg.reduce add %x into %sum
        : memref<?xf32, #gpu.address_space<global>> -> memref<f32, #gpu.address_space<global>>
    sdfg.return
  }
}
