//===- FakeCusparse.h - A cuSPARSE without a GPU ----------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A stand-in for libcusparse.so.12 that the runtime under test dlopens
// (through SDFGRT_CUSPARSE_LIBRARY), next to FakeCudaDriver. It implements
// the cuSPARSE entry points the runtime resolves, compiled against
// cusparse.h so that their prototypes are the real ones, and records, for
// every call, the handle, the stream the handle was set to and the CUDA
// context current (FakeCudaDriver's). SpMV and SpMM of a CSR matrix with
// 32-bit indices and f32 values are computed, on host memory (the fake
// driver's device memory), so a test can check a result.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUSPARSE_H
#define SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUSPARSE_H

#include <cuda.h>
#include <cusparse.h>

#include <string>
#include <vector>

struct cusparseContext {
  CUcontext context; // current when it was created
  cudaStream_t stream;
};

namespace fakecusparse {

struct Call {
  std::string name;
  cusparseHandle_t handle; // null for calls without one
  cudaStream_t stream;     // the handle's stream at the call
  CUcontext context;       // current at the call
};

struct Library {
  std::vector<Call> calls;
  std::vector<cusparseHandle_t> handles; // in creation order
  // Makes every call of `failingCall` return `failure`.
  std::string failingCall;
  cusparseStatus_t failure = CUSPARSE_STATUS_SUCCESS;
  // What cusparseSpMV_bufferSize answers (0 shows that the runtime never
  // returns a zero size).
  size_t spmvBufferSize = 0;

  int count(const std::string &name) const;
  /// The names of the calls, in order, without cusparseGetError*.
  std::vector<std::string> names() const;
};

/// The library's state; the test and the runtime see the same instance.
Library &library();
/// Forgets every call, handle and descriptor.
void reset();

} // namespace fakecusparse

#endif // SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUSPARSE_H
