// RUN: sdfg-opt %s -split-input-file -verify-diagnostics

// The init op must be in the entry block.
sdfg.sdfg @init_outside_entry(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 1) {
  cf.br ^next
^next:
  // expected-error @+1 {{'sdfg.init_streams' op must be in the entry block of a program}}
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// -----

// The init op must not sit inside a nested region either.
func.func @init_in_region(%c: i1, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  scf.if %c {
    // expected-error @+1 {{'sdfg.init_streams' op must be in the entry block of a program}}
    %slot = sdfg.init_streams %s -> !sdfg.stream
  }
  return
}

// -----

sdfg.sdfg @init_twice(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 1) {
  %a = sdfg.init_streams %s -> !sdfg.stream
  // expected-error @+1 {{'sdfg.init_streams' op initializes the streams of program @init_twice a second time}}
  %b = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// -----

sdfg.sdfg @init_result_count(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 3) {
  // expected-error @+1 {{'sdfg.init_streams' op yields 2 streams, but program @init_result_count has 3 stream slots (expected 3 results)}}
  %slots:2 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream
  sdfg.return
}

// -----

// With zero slots, init yields the single default stream.
sdfg.sdfg @init_zero_slots(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 0) {
  // expected-error @+1 {{'sdfg.init_streams' op yields 2 streams, but program @init_zero_slots has 0 stream slots (expected 1 result)}}
  %slots:2 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream
  sdfg.return
}

// -----

func.func @init_from_non_argument(%c: i1, %s: !sdfg.stream, %t: !sdfg.stream) {
  %pick = arith.select %c, %s, %t : !sdfg.stream
  // expected-error @+1 {{'sdfg.init_streams' op the external stream must be an argument of program @init_from_non_argument}}
  %slot = sdfg.init_streams %pick -> !sdfg.stream
  return
}

// -----

// Stream argument of the wrong type: the init op takes a !sdfg.stream.
// expected-note @+1 {{prior use here}}
func.func @init_wrong_type(%p: memref<f32>) {
  // expected-error @+1 {{use of value '%p' expects different type than prior uses: '!sdfg.stream' vs 'memref<f32>'}}
  %slot = sdfg.init_streams %p -> !sdfg.stream
  return
}

// -----

// Stream argument of the wrong type: the marked argument is not a stream.
// expected-error @+1 {{'sdfg.sdfg' op external stream argument #1 has type 'memref<4xf32>', expected '!sdfg.stream'}}
sdfg.sdfg @marked_wrong_type(%A: memref<4xf32>, %s: memref<4xf32> {sdfg.external_stream = "s"}) target(gpu, streams = 1) {
  sdfg.return
}

// -----

// expected-error @+1 {{'func.func' op marks arguments #0 and #2 as the caller's stream; a program has one}}
func.func private @marked_twice(!sdfg.stream {sdfg.external_stream = "s"}, memref<4xf32>, !sdfg.stream {sdfg.external_stream = "t"})

// -----

// expected-error @+1 {{'func.func' op 'sdfg.external_stream' must be a string (the argument's name)}}
func.func private @marked_not_string(!sdfg.stream {sdfg.external_stream = 1 : i64})

// -----

sdfg.sdfg private @takes_stream(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu, streams = 1)

// Stream argument of the wrong type: a call passes something else.
sdfg.sdfg @call_wrong_type(%A: memref<4xf32>) target(gpu, streams = 1) {
  // expected-error @+1 {{'sdfg.call' op operand #0 has type 'memref<4xf32>', but program @takes_stream expects '!sdfg.stream'}}
  sdfg.call @takes_stream(%A) : (memref<4xf32>) -> ()
  sdfg.return
}

// -----

sdfg.sdfg @slot_out_of_range(%A: memref<4xf32, 1>, %B: memref<4xf32>) target(gpu, streams = 2) {
  // expected-error @+1 {{'gpu.memcpy' op stream slot 2 is out of range: program @slot_out_of_range has 2 stream slots}}
  gpu.memcpy %A, %B : memref<4xf32, 1>, memref<4xf32> {sdfg.stream_slot = 2 : i64}
  sdfg.return
}

// -----

// A program with zero slots runs on the default stream: no slot to name.
sdfg.sdfg @slot_without_slots(%A: memref<4xf32, 1>, %v: f32) target(gpu, streams = 0) {
  // expected-error @+1 {{'gpu.memset' op stream slot 0 is out of range: program @slot_without_slots has 0 stream slots}}
  gpu.memset %A, %v : memref<4xf32, 1>, f32 {sdfg.stream_slot = 0 : i64}
  sdfg.return
}

// -----

func.func @func_slot_out_of_range(%A: memref<4xf32, 1>) {
  // expected-error @+1 {{'gpu.dealloc' op stream slot 1 is out of range: program @func_slot_out_of_range has 1 stream slot}}
  gpu.dealloc %A {sdfg.stream_slot = 1 : i64} : memref<4xf32, 1>
  return
}

// -----

func.func @negative_slot(%A: memref<4xf32, 1>) {
  // expected-error @+1 {{'gpu.dealloc' op 'sdfg.stream_slot' must be a non-negative integer}}
  gpu.dealloc %A {sdfg.stream_slot = -1 : i64} : memref<4xf32, 1>
  return
}

// -----

// expected-error @+1 {{'sdfg.sdfg' op 'sdfg.num_streams' is for functions; an sdfg.sdfg declares its slots with 'streams = N'}}
sdfg.sdfg @num_streams_on_sdfg() target(gpu, streams = 1) attributes {sdfg.num_streams = 2 : i64} {
  sdfg.return
}

// -----

// Stream value used outside its program: inside a kernel body.
func.func @stream_in_kernel(%s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'sdfg.stream_token' op uses a stream outside the host code of its program @stream_in_kernel}}
    %t = sdfg.stream_token %slot
    gpu.terminator
  }
  return
}

// -----

// Stream value used outside its program: returned to the caller.
func.func @stream_returned(%s: !sdfg.stream {sdfg.external_stream = "s"}) -> !sdfg.stream {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  // expected-error @+1 {{'func.return' op returns a stream of program @stream_returned; streams may not leave their program}}
  return %slot : !sdfg.stream
}

// -----

// Stream slots are bounded (passes make one value per slot): 3000000000
// used to run out of memory in sdfg-add-external-gpu-stream.
// expected-error @+1 {{'sdfg.sdfg' op declares 3000000000 stream slots; a program has at most 1024}}
sdfg.sdfg @too_many_slots(%A: memref<64xf32, 1>, %B: memref<64xf32>) target(gpu, streams = 3000000000) {
  gpu.memcpy %A, %B : memref<64xf32, 1>, memref<64xf32>
  sdfg.return
}

// -----

// expected-error @+1 {{'sdfg.sdfg' op declares 1025 stream slots; a program has at most 1024}}
sdfg.sdfg private @one_slot_too_many() target(gpu, streams = 1025)

// -----

// A declaration names a program defined elsewhere; convert-sdfg-to-func
// makes it a func.func declaration, which must be private (found by
// fuzz/sdfg-fuzz: the public one became IR that does not verify).
// expected-error @+1 {{'sdfg.sdfg' op symbol declaration cannot have public visibility}}
sdfg.sdfg @public_declaration() target(gpu, streams = 1)

// -----

// The bound itself is allowed.
sdfg.sdfg @most_slots(%A: memref<4xf32, 1>, %v: f32) target(gpu, streams = 1024) {
  gpu.memset %A, %v : memref<4xf32, 1>, f32 {sdfg.stream_slot = 1023 : i64}
  sdfg.return
}

// -----

// expected-error @+1 {{'func.func' op 'sdfg.num_streams' is 3000000000; a program has at most 1024 stream slots}}
func.func @too_many_function_slots() attributes {sdfg.num_streams = 3000000000 : i64} {
  return
}

// -----

// A slot wider than 64 bits is out of range, not truncated.
sdfg.sdfg @wide_slot(%A: memref<4xf32, 1>, %v: f32) target(gpu, streams = 2) {
  // expected-error @+1 {{'gpu.memset' op stream slot 18446744073709551617 is out of range: program @wide_slot has 2 stream slots}}
  gpu.memset %A, %v : memref<4xf32, 1>, f32 {sdfg.stream_slot = 18446744073709551617 : i128}
  sdfg.return
}

// -----

sdfg.sdfg @gpu_work_in_cpu_program(%A: memref<4xf32, 1>, %B: memref<4xf32>) target(cpu) {
  // expected-error @+1 {{'gpu.memcpy' op is GPU work, but program @gpu_work_in_cpu_program targets the CPU}}
  gpu.memcpy %A, %B : memref<4xf32, 1>, memref<4xf32>
  sdfg.return
}

// -----

sdfg.sdfg @kernel_in_cpu_program() target(cpu) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op is GPU work, but program @kernel_in_cpu_program targets the CPU}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    gpu.terminator
  }
  sdfg.return
}

// -----

sdfg.sdfg private @gpu_callee() target(gpu, streams = 1)

sdfg.sdfg @cpu_calls_gpu() target(cpu) {
  // expected-error @+1 {{'sdfg.call' op CPU program @cpu_calls_gpu cannot call GPU program @gpu_callee}}
  sdfg.call @gpu_callee() : () -> ()
  sdfg.return
}

// -----

sdfg.sdfg @cpu_stream_sync(%s: !sdfg.stream) target(cpu) {
  // expected-error @+1 {{'sdfg.sync' op is GPU work, but program @cpu_stream_sync targets the CPU}}
  sdfg.sync %s
  sdfg.return
}

// -----

// expected-error @+1 {{'sdfg.sdfg' op a CPU program has no stream slots, but declares 2}}
sdfg.sdfg @cpu_with_streams() target(cpu, streams = 2) {
  sdfg.return
}

// -----

// expected-error @+1 {{expected program target 'gpu' or 'cpu', got 'fpga'}}
sdfg.sdfg @unknown_target() target(fpga) {
  sdfg.return
}

// -----

// expected-error @+1 {{a program has no results; it writes its outputs into its array arguments}}
sdfg.sdfg @with_results() -> i32 target(gpu) {
  sdfg.return
}

// -----

// expected-error @+1 {{'sdfg.sdfg' op argument #0 has type 'vector<4xf32>'; program arguments are arrays (memref), symbols and scalars (integer, index, float) or the external stream (!sdfg.stream)}}
sdfg.sdfg @bad_argument(%v: vector<4xf32>) target(gpu) {
  sdfg.return
}

// -----

func.func @sync_nothing() {
  // expected-error @+1 {{'sdfg.sync' op needs at least one stream; a device-wide synchronization is never generated}}
  sdfg.sync
  return
}

// -----

sdfg.sdfg @call_unknown() target(gpu) {
  // expected-error @+1 {{'sdfg.call' op 'nowhere' does not reference an sdfg.sdfg program}}
  sdfg.call @nowhere() : () -> ()
  sdfg.return
}

// -----

sdfg.sdfg private @two_args(memref<4xf32>, index) target(gpu)

sdfg.sdfg @call_arity(%A: memref<4xf32>) target(gpu) {
  // expected-error @+1 {{'sdfg.call' op passes 1 operands, but program @two_args takes 2}}
  sdfg.call @two_args(%A) : (memref<4xf32>) -> ()
  sdfg.return
}

// -----

sdfg.sdfg @reduce_rank(%A: memref<4x4xf32>, %out: memref<f32>) target(cpu) {
  // expected-error @+1 {{'sdfg.reduce' op reduces a 1-D array, but the input has rank 2}}
  sdfg.reduce add %A into %out : memref<4x4xf32> -> memref<f32>
  sdfg.return
}

// -----

sdfg.sdfg @reduce_output_rank(%A: memref<4xf32>, %out: memref<1xf32>) target(cpu) {
  // expected-error @+1 {{'sdfg.reduce' op writes a rank-0 array, but the output has rank 1}}
  sdfg.reduce add %A into %out : memref<4xf32> -> memref<1xf32>
  sdfg.return
}

// -----

sdfg.sdfg @reduce_types(%A: memref<4xf32>, %out: memref<f64>) target(cpu) {
  // expected-error @+1 {{'sdfg.reduce' op input element type 'f32' differs from output element type 'f64'}}
  sdfg.reduce add %A into %out : memref<4xf32> -> memref<f64>
  sdfg.return
}

// -----

sdfg.sdfg @reduce_wide(%A: memref<4xi128>, %out: memref<i128>) target(gpu) {
  // expected-error @+1 {{'sdfg.reduce' op reduces signless integers of up to 64 bits or f16, bf16, f32, f64 floats, not 'i128'}}
  sdfg.reduce add %A into %out : memref<4xi128> -> memref<i128>
  sdfg.return
}

// -----

// Unsigned integers: arith (and so the expansion) takes signless ones.
sdfg.sdfg @reduce_unsigned(%A: memref<4xui32>, %out: memref<ui32>) target(gpu) {
  // expected-error @+1 {{'sdfg.reduce' op reduces signless integers of up to 64 bits or f16, bf16, f32, f64 floats, not 'ui32'}}
  sdfg.reduce add %A into %out : memref<4xui32> -> memref<ui32>
  sdfg.return
}

// -----

// Floats the kernels' atomics and combines do not know (f8, tf32).
sdfg.sdfg @reduce_f8(%A: memref<4xf8E4M3FN>, %out: memref<f8E4M3FN>) target(gpu) {
  // expected-error @+1 {{'sdfg.reduce' op reduces signless integers of up to 64 bits or f16, bf16, f32, f64 floats, not 'f8E4M3FN'}}
  sdfg.reduce add %A into %out : memref<4xf8E4M3FN> -> memref<f8E4M3FN>
  sdfg.return
}

// -----

sdfg.sdfg @reduce_tf32(%A: memref<4xtf32>, %out: memref<tf32>) target(gpu) {
  // expected-error @+1 {{'sdfg.reduce' op reduces signless integers of up to 64 bits or f16, bf16, f32, f64 floats, not 'tf32'}}
  sdfg.reduce max %A into %out : memref<4xtf32> -> memref<tf32>
  sdfg.return
}

// -----

func.func @reduce_outside_program(%A: memref<4xf32>, %out: memref<f32>) {
  // expected-error @+1 {{'sdfg.reduce' op must be inside an sdfg.sdfg program}}
  sdfg.reduce add %A into %out : memref<4xf32> -> memref<f32>
  return
}

// -----

sdfg.sdfg @reduce_stream_on_cpu(%A: memref<4xf32>, %out: memref<f32>, %s: !sdfg.stream) target(cpu) {
  // expected-error @+1 {{'sdfg.reduce' op is GPU work, but program @reduce_stream_on_cpu targets the CPU}}
  sdfg.reduce add %A into %out on %s : memref<4xf32> -> memref<f32>
  sdfg.return
}

// -----

func.func @unknown_attribute() attributes {sdfg.streams = 1 : i64} {
  return
}
// expected-error @-3 {{'func.func' op unknown sdfg dialect attribute 'sdfg.streams'}}

// -----

// The caller's stream is marked on its argument, not on the program.
// expected-error @+1 {{'func.func' op 'sdfg.external_stream' is an argument attribute: it marks the argument of a program that carries the caller's stream}}
func.func @stream_marker_on_op(%s: !sdfg.stream) attributes {sdfg.external_stream = "s"} {
  return
}

// -----

// A timer records its events on streams: it needs one.
func.func @timer_without_stream() {
  // expected-error @+1 {{'sdfg.timer_begin' op needs at least one stream to record its events on}}
  %t = sdfg.timer_begin "p" on
  return
}

// -----

func.func @timer_without_name(%s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  // expected-error @+1 {{'sdfg.timer_begin' op needs a non-empty program name}}
  %t = sdfg.timer_begin "" on %slot
  return
}

// -----

// Timer events only on streams of the timer's own program.
func.func @timer_on_other_program_stream(%s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %t = sdfg.timer_begin "p" on %slot
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'sdfg.timer_end' op uses a stream outside the host code of its program @timer_on_other_program_stream}}
    sdfg.timer_end %t on %slot
    gpu.terminator
  }
  return
}

// -----

func.func @check_negative_argument(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  // expected-error @+1 {{'sdfg.check_device' op attribute 'argument' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  sdfg.check_device %A on %slot argument -1 : memref<4xf32, 1>
  return
}

// -----

// expected-error @+1 {{'sdfg.graph_mode' must be a unit attribute}}
func.func @graph_mode_with_a_value() attributes {sdfg.graph_mode = 1 : i64} {
  return
}

// -----

func.func @graph_mode_on_an_op() {
  // expected-error @+1 {{'sdfg.graph_mode' must be on a program}}
  %c = arith.constant {sdfg.graph_mode} 0 : index
  return
}

// -----

// Graph mode and concurrent streams apply to GPU work: on a CPU program
// they would be accepted and do nothing.
// expected-error @+1 {{'sdfg.graph_mode' is on a program that targets the CPU; it applies to the GPU work of target(gpu) programs}}
sdfg.sdfg @graph_mode_on_cpu(%A: memref<4xf32>) target(cpu) attributes {sdfg.graph_mode} {
  sdfg.return
}

// -----

// expected-error @+1 {{'sdfg.concurrent_streams' is on a program that targets the CPU}}
sdfg.sdfg @concurrent_on_cpu(%A: memref<4xf32>) target(cpu) attributes {sdfg.concurrent_streams} {
  sdfg.return
}

// -----

// expected-error @+1 {{'sdfg.concurrent_streams' must be a unit attribute}}
func.func @concurrent_streams_with_a_value() attributes {sdfg.concurrent_streams = "yes"} {
  return
}
