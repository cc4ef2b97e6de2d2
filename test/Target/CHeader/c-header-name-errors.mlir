// RUN: sdfg-translate --split-input-file --sdfg-to-c-header %s -verify-diagnostics -o /dev/null

// Names a header cannot declare: errors at the program.

// expected-error @+1 {{program @my-prog has no C entry point: _mlir_ciface_my-prog is no C identifier (or names another program's entry); rename it}}
func.func @"my-prog"() {
  return
}

// -----

// expected-error @+1 {{names its stream argument 'arg0' (sdfg.external_stream), which is no C identifier the header can give it (not a keyword, not argN); choose another name (sdfg-add-external-gpu-stream's argument-name)}}
sdfg.sdfg @clash(%s: !sdfg.stream {sdfg.external_stream = "arg0"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}

// -----

// expected-error @+1 {{names its stream argument 'my stream!'}}
sdfg.sdfg @spaces(%s: !sdfg.stream {sdfg.external_stream = "my stream!"}) target(gpu) {
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
