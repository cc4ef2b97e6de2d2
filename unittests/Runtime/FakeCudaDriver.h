//===- FakeCudaDriver.h - A CUDA driver without a GPU -----------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A stand-in for libcuda.so.1 that the runtime under test dlopens (through
// SDFGRT_CUDA_LIBRARY). It implements the driver entry points the runtime
// resolves, compiled against cuda.h so that its symbols carry the same
// versioned names, works on host memory, and is strict where the real driver
// may be lenient: every module, function and stream operation must be made
// with the right context current. It records what it was asked to do.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVER_H
#define SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVER_H

#include <cuda.h>

#include <map>
#include <string>
#include <vector>

struct CUctx_st {
  int id;
};
struct CUstream_st {
  CUcontext context;
};
struct CUmod_st {
  CUcontext context;
  const void *image;
  int jitOptimizationLevel; // -1: loaded with cuModuleLoadData
};
struct CUfunc_st {
  CUmodule module;
  std::string name;
  int maxDynamicSharedBytes;
  bool nonPortableClusterSize;
};

namespace fakecuda {

struct Launch {
  std::string kernel;
  CUstream stream;
  CUcontext context; // current during the launch
  unsigned grid[3], block[3], cluster[3], smem;
};

struct Driver {
  // Calls by the name written in cuda.h (cuCtxPushCurrent, not *_v2).
  std::map<std::string, int> calls;
  // Makes every call of `failingCall` return `failure`.
  std::string failingCall;
  CUresult failure = CUDA_SUCCESS;
  CUresult initResult = CUDA_SUCCESS;
  bool initialized = false;
  std::vector<CUmodule> loaded;   // in load order, never freed
  std::vector<CUmodule> unloaded; // in unload order
  std::vector<Launch> launches;
  CUstream lastMemoryStream = nullptr;

  int count(const std::string &call) const {
    auto it = calls.find(call);
    return it == calls.end() ? 0 : it->second;
  }
  int totalCalls() const;
};

/// The driver's state; the test and the runtime see the same instance.
Driver &driver();
/// Forgets everything, including the calling thread's current contexts.
void reset();
/// Distinct contexts: 0 is device 0's primary context.
CUcontext context(int id);
/// A new stream of `context`.
CUstream createStream(CUcontext context);
/// The calling thread's current context (null: none).
CUcontext currentContext();

} // namespace fakecuda

#endif // SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVER_H
