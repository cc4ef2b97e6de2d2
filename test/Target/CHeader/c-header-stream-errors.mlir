// RUN: sdfg-translate --split-input-file --sdfg-to-c-header %s -verify-diagnostics -o /dev/null

// A GPU program that sdfg-add-external-gpu-stream has not given the caller's
// stream: its header would declare an entry without the stream parameter
// that the built library then takes. An error at the program.

// expected-error @+1 {{program @gpu_program does GPU work but has not been given the caller's stream; run sdfg-add-external-gpu-stream before --sdfg-to-c-header (as sdfg-compile does)}}
sdfg.sdfg @gpu_program(%a: memref<16xf32, #gpu.address_space<global>>) target(gpu) {
  sdfg.return
}

// -----

// A func.func that launches a kernel.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  // expected-error @+1 {{program @launches does GPU work but has not been given the caller's stream}}
  func.func @launches(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

// A host-only function and a CPU program need no stream.
func.func @host_only(%a: memref<16xf32>) {
  return
}
sdfg.sdfg @cpu_program(%a: memref<16xf32>) target(cpu) {
  sdfg.return
}
