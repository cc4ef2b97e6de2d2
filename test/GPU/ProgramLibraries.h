//===- ProgramLibraries.h - Calling the GPU tests' program libraries -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the GPU tests that load program libraries built by sdfg-compile
// (HazardTests.cu, ConcurrencyTests.cu, GraphModeTests.cu) share: the
// library's path next to the test binary, and the rank-1 memref descriptor
// the programs' C interfaces take.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TEST_GPU_PROGRAMLIBRARIES_H
#define SDFGSTREAM_TEST_GPU_PROGRAMLIBRARIES_H

#include <unistd.h>

#include <cstdint>
#include <string>

namespace {

/// A rank-1 memref descriptor, as the programs' C interfaces take it.
struct Memref1D {
  float *allocated, *aligned;
  int64_t offset, size, stride;
};

/// The dense view of `n` floats at `data`.
inline Memref1D view(float *data, int64_t n) { return {data, data, 0, n, 1}; }

/// The path of `name` in the directory of the running test binary (where
/// the build puts the program libraries).
inline std::string nextToSelf(const char *name) {
  char self[4096];
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  std::string path(self, length > 0 ? length : 0);
  return path.substr(0, path.rfind('/') + 1) + name;
}

} // namespace

#endif // SDFGSTREAM_TEST_GPU_PROGRAMLIBRARIES_H
