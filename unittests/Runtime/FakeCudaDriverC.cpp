//===- FakeCudaDriverC.cpp - The fake driver's state, from C --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A C view of the fake driver (FakeCudaDriver.h) for tests that are not
// C++: the Python package's tests load the fake driver with ctypes, point
// the program library's runtime at it (SDFGRT_CUDA_LIBRARY), make streams
// as a framework would, and ask what the runtime did on which stream.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

using namespace fakecuda;

extern "C" {

/// Forgets everything (fakecuda::reset).
void fakecudaReset(void) { reset(); }

/// A new stream of context `id` (0: device 0's primary context).
void *fakecudaCreateStream(int id) { return createStream(context(id)); }

/// Kernel launches so far, and the stream and kernel name of launch `i`.
int fakecudaLaunchCount(void) {
  return static_cast<int>(driver().launches.size());
}
void *fakecudaLaunchStream(int i) { return driver().launches.at(i).stream; }
const char *fakecudaLaunchKernel(int i) {
  return driver().launches.at(i).kernel.c_str();
}

/// Stream waits so far (cuStreamWaitEvent), the waiting stream of wait `i`
/// and the stream its event was recorded on.
int fakecudaWaitCount(void) { return static_cast<int>(driver().waits.size()); }
void *fakecudaWaitStream(int i) { return driver().waits.at(i).stream; }
void *fakecudaWaitEventStream(int i) {
  return driver().waits.at(i).eventStream;
}

/// Calls of the driver function `name` (as cuda.h writes it).
int fakecudaCallCount(const char *name) { return driver().count(name); }

/// Makes every later call of `name` fail with `code` (null: none fails).
void fakecudaFailCall(const char *name, int code) {
  driver().failingCall = name ? name : "";
  driver().failure = static_cast<CUresult>(code);
}

} // extern "C"
