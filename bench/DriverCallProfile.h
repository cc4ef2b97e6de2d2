//===- DriverCallProfile.h - Where a call's host time goes -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Splits the host time of a call into its CUDA driver API calls (by
// function name: how many, and how long) and the time outside them (the
// caller's own code: for an SDFGStream call, the generated code and the
// runtime), from CUPTI's driver API callbacks (issue 14: where the 3 us of
// the bandwidth-bound async call go). sdfg-bench-calls profiles after its
// measured rows, so that the callbacks never slow those down.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_BENCH_DRIVERCALLPROFILE_H
#define SDFGSTREAM_BENCH_DRIVERCALLPROFILE_H

#include <cuda_runtime.h>

#include <cstdio>
#include <memory>

namespace sdfgbench {

/// Subscribes to CUPTI's driver API callbacks for its lifetime (one
/// subscriber: one profiler at a time). The callbacks are enabled only
/// while `profile` runs, and count only the calls of the thread that
/// created the profiler, made inside a profiled call.
class DriverCallProfiler {
public:
  DriverCallProfiler();
  ~DriverCallProfiler();
  DriverCallProfiler(const DriverCallProfiler &) = delete;
  DriverCallProfiler &operator=(const DriverCallProfiler &) = delete;

  /// False if CUPTI refused the subscription (the reason was printed).
  bool ok() const;

  /// Profiles `calls` calls of `call` on `stream`, each started on an idle
  /// stream (the stream is drained after each, outside what is counted):
  /// first timed with the callbacks off, then with them on, each block
  /// after unrecorded warm-up calls. Returns false, with the reason
  /// printed, if CUPTI failed.
  bool profile(const char *program, const char *row,
               void (*call)(cudaStream_t), cudaStream_t stream, int calls);

  /// Prints the rows profiled for `program` side by side, per call (means),
  /// with the difference of the last row from the first.
  void print(const char *program) const;

  /// Writes every profiled row to `file` (OUT/driver-calls.csv), with its
  /// header line.
  void writeCsv(FILE *file) const;

  /// What the profiler and its CUPTI callback share (DriverCallProfile.cu).
  struct State;

private:
  std::unique_ptr<State> state;
};

} // namespace sdfgbench

#endif // SDFGSTREAM_BENCH_DRIVERCALLPROFILE_H
