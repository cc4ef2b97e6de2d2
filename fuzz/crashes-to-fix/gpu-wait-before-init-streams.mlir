// Found by fuzz/sdfg-fuzz (2026-12-03, minimized by hand). Verifies, but
//   sdfg-opt gpu-wait-before-init-streams.mlir --add-external-gpu-stream
// turns the blocking gpu.wait into `sdfg.sync %slot` of the init op that
// comes after it: "operand #0 does not dominate this use". The rewrite of
// add-external-gpu-stream (lib/Transforms/AddExternalGpuStream.cpp,
// StreamThreading.cpp) is another engineer's; fuzz/sdfg-fuzz.cpp skips such
// inputs (hasGpuWorkBeforeInitStreams) until it is fixed. Once fixed, move
// this file to test/Transforms as a regression test and drop the skip.
sdfg.sdfg @p(%s: !sdfg.stream {sdfg.external_stream = "s"}) target(gpu) {
  gpu.wait
  %slot = sdfg.init_streams %s -> !sdfg.stream
  sdfg.return
}
