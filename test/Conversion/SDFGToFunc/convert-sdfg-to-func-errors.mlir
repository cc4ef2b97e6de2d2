// RUN: sdfg-opt %s -split-input-file -convert-sdfg-to-func -verify-diagnostics

// What convert-sdfg-to-func refuses, at the op, instead of producing IR
// the verifier rejects.
//
// A public func.func with GPU work gains the call's status as its result.
// Its address can be called (func.call_indirect), but where it goes
// anywhere else its type would have to change there too: an error at that
// use, naming the program, instead of IR the verifier rejects.

// expected-note @+1 {{the program}}
func.func @gpu_function(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  return
}

func.func private @register(%f: (memref<4xf32, 1>, !sdfg.stream) -> ())

func.func @registers() {
  %f = constant @gpu_function : (memref<4xf32, 1>, !sdfg.stream) -> ()
  // expected-error @+1 {{'func.call' op takes the address of @gpu_function, a program with GPU work whose type gains the call's status (i32) as its result; only func.call and func.call_indirect of it can follow that}}
  call @register(%f) : ((memref<4xf32, 1>, !sdfg.stream) -> ()) -> ()
  return
}

// -----

// expected-note @+1 {{the program}}
func.func @gpu_function(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  return
}

// The address chosen by a branch: the select would need the new type.
func.func @choose(%c: i1, %A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  %f = constant @gpu_function : (memref<4xf32, 1>, !sdfg.stream) -> ()
  // expected-error @+1 {{'arith.select' op takes the address of @gpu_function}}
  %g = arith.select %c, %f, %f : (memref<4xf32, 1>, !sdfg.stream) -> ()
  call_indirect %g(%A, %slot) : (memref<4xf32, 1>, !sdfg.stream) -> ()
  return
}

// -----

// A library node left in a program: it would end up outside any sdfg.sdfg.
sdfg.sdfg @unexpanded(%A: memref<?xf32, 1>, %o: memref<f32, 1>) target(gpu, streams = 1) {
  // expected-error @+1 {{'sdfg.reduce' op is a library node, which must be expanded (sdfg-expand-library-nodes) before convert-sdfg-to-func turns its program into a function}}
  sdfg.reduce add %A into %o : memref<?xf32, 1> -> memref<f32, 1>
  sdfg.return
}

// -----

// The entries that bracket a call are the runtime's (RuntimeEntries.def):
// a module that declares one with another type is refused where the
// program needs it, instead of calling it with the wrong signature.

// expected-note @+1 {{declared here}}
func.func private @sdfgrtEndCall() -> i64

// expected-error @+1 {{'sdfgrtEndCall' is a runtime entry of type '() -> i32', but the module declares it otherwise}}
sdfg.sdfg @program(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// -----

// expected-note @+1 {{declared here}}
llvm.mlir.global internal @sdfgrtBeginCall(0 : i32) : i32

// expected-error @+1 {{'sdfgrtBeginCall' is a runtime entry of type '() -> ()', but the module declares it otherwise}}
func.func @function_program(%A: memref<4xf32, 1>, %s: !sdfg.stream {sdfg.external_stream = "s"}) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  return
}
