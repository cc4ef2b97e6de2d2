//===- HostApiTestPrograms.cpp - A program library without MLIR -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Built like an sdfg-compile output (a shared library with the static CUDA
// runtime linked in, exporting `_mlir_ciface_<program>`), with hand-written
// programs that call the runtime the way generated code does, so that the
// host API tests (HostApiTest.cpp) load a real library without MLIR or a
// GPU. Its runtime copy opens the fake driver, as the test's does.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/RuntimeInternal.h"

namespace {
const char kCubin[] = "fake cubin";
// Registered at load time, as generated code does.
void *module = mgpuModuleLoad(const_cast<char *>(kCubin), sizeof(kCubin));
} // namespace

extern "C" {

/// GPU program: `*counter += increment` on the host, then a kernel launch
/// on the caller's stream.
SDFGRT_EXPORT int32_t _mlir_ciface_launch(int64_t *counter, int64_t increment,
                                          void *stream) {
  sdfgrtBeginCall();
  *counter += increment;
  sdfgrtSetLocation("host-api.mlir:4:5");
  mgpuLaunchKernel(mgpuModuleGetFunction(module, "kernel"), 1, 1, 1, 32, 1, 1,
                   0, stream, nullptr, nullptr, 0);
  return sdfgrtEndCall();
}

/// `launch` compiled in graph mode (its call opens with
/// sdfgrtBeginGraphCall): the kernel (no parameters) is recorded and runs
/// as a graph.
SDFGRT_EXPORT int32_t _mlir_ciface_graph_launch(void *stream) {
  sdfgrtBeginGraphCall("graph_launch");
  sdfgrtSetLocation("host-api.mlir:12:5");
  mgpuLaunchKernel(mgpuModuleGetFunction(module, "kernel"), 1, 1, 1, 32, 1, 1,
                   0, stream, nullptr, nullptr, 0);
  return sdfgrtEndCall();
}

/// GPU program with timers (what sdfg-instrument-timers adds to `launch`).
SDFGRT_EXPORT int32_t _mlir_ciface_timed_launch(void *stream) {
  sdfgrtBeginCall();
  void *timer = sdfgrtTimerBegin("timed_launch");
  sdfgrtTimerRecordBegin(timer, stream);
  sdfgrtSetLocation("host-api.mlir:9:5");
  mgpuLaunchKernel(mgpuModuleGetFunction(module, "kernel"), 1, 1, 1, 32, 1, 1,
                   0, stream, nullptr, nullptr, 0);
  sdfgrtTimerRecordEnd(timer, stream);
  sdfgrtTimerEnd(timer);
  return sdfgrtEndCall();
}

/// CPU program: no stream argument.
SDFGRT_EXPORT int32_t _mlir_ciface_cpu_add(int64_t *value, int64_t increment) {
  *value += increment;
  return 0;
}

/// Resets this library's copy of the runtime, its module registered anew
/// (test hook; call it while the fake driver still knows the module).
SDFGRT_EXPORT void hostApiTestResetRuntime() {
  mgpuModuleUnload(module);
  module = mgpuModuleLoad(const_cast<char *>(kCubin), sizeof(kCubin));
  sdfgrt::resetForTesting();
}

} // extern "C"
