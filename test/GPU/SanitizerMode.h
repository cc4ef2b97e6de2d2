//===- SanitizerMode.h - GPU tests under compute-sanitizer -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The sanitizer tests (test/GPU/sanitizers-*.test) run the GPU test binary
// under compute-sanitizer with SDFG_GPU_TEST_SANITIZER=1. There the tests
// that repeat a program 1000 times repeat it a tenth as often (memcheck
// instruments every access, so each run costs far more), and what rests on
// timing alone is printed, not asserted: the durations of the timer test
// and the negative controls that race the host against a spinning kernel
// (the instrumentation changes how fast each side runs). What the program
// computes as compiled is asserted as always, and any memory or
// synchronization error fails the run through the sanitizer's own summary.
// The ordering claims themselves are asserted by the same tests outside the
// sanitizer, in the same GPU run.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TEST_GPU_SANITIZERMODE_H
#define SDFGSTREAM_TEST_GPU_SANITIZERMODE_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

/// Whether the tests run under compute-sanitizer (SDFG_GPU_TEST_SANITIZER
/// set to anything but "" or "0").
inline bool underComputeSanitizer() {
  const char *value = std::getenv("SDFG_GPU_TEST_SANITIZER");
  return value && *value && std::strcmp(value, "0") != 0;
}

/// How often to repeat a program that runs `runs` times outside the
/// sanitizer.
inline int repetitions(int runs) {
  return underComputeSanitizer() ? runs / 10 : runs;
}

/// Expects the negative control (the same program with its syncs or waits
/// withheld) to have gone wrong in at least one run; under the sanitizer
/// only prints how often it did.
inline void expectControlSawTheHazard(int withheld) {
  if (underComputeSanitizer()) {
    printf("NOTE under compute-sanitizer the negative control went wrong in "
           "%d runs (not asserted: it races the instrumented host against "
           "the GPU)\n",
           withheld);
    return;
  }
  EXPECT_GT(withheld, 0) << "the negative control did not see the hazard";
}

} // namespace

#endif // SDFGSTREAM_TEST_GPU_SANITIZERMODE_H
