// RUN: sdfg-opt %s -split-input-file -sdfg-insert-failure-exits -verify-diagnostics

// The status entries that sdfg-insert-failure-exits calls are the
// runtime's (RuntimeEntries.def): a module that declares one with another
// type is refused, instead of calling it with the wrong signature.

module attributes {gpu.container_module} {
  func.func private @sdfgrtBeginCall()
  // expected-note @+1 {{declared here}}
  func.func private @sdfgrtCallStatus() -> i1
  // expected-error @+1 {{'sdfgrtCallStatus' is a runtime entry of type '() -> i32', but the module declares it otherwise}}
  func.func @program(%s: !sdfg.stream {sdfg.external_stream = "s"}) -> i32 attributes {sdfg.program} {
    call @sdfgrtBeginCall() : () -> ()
    %slot = sdfg.init_streams %s -> !sdfg.stream
    sdfg.sync %slot
    %status = call @sdfgrtEndCall() : () -> i32
    return %status : i32
  }
  func.func private @sdfgrtEndCall() -> i32
}
