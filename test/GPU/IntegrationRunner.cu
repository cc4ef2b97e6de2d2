//===- IntegrationRunner.cu - Runs one integration program on a stream ----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfg-gpu-run [--expect-failure] PROGRAMS ENTRY: loads the program library
// PROGRAMS (a path, or the NAME of libsdfg-gpu-integration-NAME.so next to
// this binary), as a user of sdfg-compile's .so output would, and calls the
// program ENTRY,
// which takes nothing but the stream, on a non-blocking stream of its own.
// Ahead of the call the stream is kept busy by a spinning kernel, so a
// result that the program reads on the host without waiting for its GPU
// work comes out wrong. The program prints its results (printMemref*,
// vector.print, gpu.printf); the lit tests compare them with the expected
// output. Exit status 0 if the call and the stream both succeed; otherwise
// the failure is printed to stderr and the status is 1. With
// --expect-failure the other way round: 0 only if the call itself returned
// a failure (for the tests of failing programs: the GPU machine has no
// LLVM `not`).
//
//===----------------------------------------------------------------------===//

#include "SpinFor.cuh"

#include "SDFGStream/Runtime/HostAPI.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
constexpr unsigned long long kSpinNanoseconds = 20000000; // 20 ms

std::string libraryPath(const std::string &programs) {
  if (programs.find('/') != std::string::npos)
    return programs;
  char self[4096];
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  std::string path(self, length > 0 ? length : 0);
  return path.substr(0, path.rfind('/') + 1) + "libsdfg-gpu-integration-" +
         programs + ".so";
}

int fail(const char *what, cudaError_t error) {
  fflush(stdout);
  fprintf(stderr, "sdfg-gpu-run: %s: %s\n", what, cudaGetErrorString(error));
  return 1;
}
} // namespace

int main(int argc, char **argv) {
  bool expectFailure = argc == 4 && std::string(argv[1]) == "--expect-failure";
  if (expectFailure)
    ++argv, --argc;
  if (argc != 3) {
    fprintf(stderr, "usage: sdfg-gpu-run [--expect-failure] PROGRAMS ENTRY\n");
    return 2;
  }
  cudaStream_t stream;
  if (cudaError_t error =
          cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking))
    return fail("cudaStreamCreateWithFlags", error);
  int32_t status;
  std::string text;
  try {
    sdfgstream::Library library(libraryPath(argv[1]));
    library.setExternalGpuStream(stream);
    spinFor<<<1, 1, 0, stream>>>(kSpinNanoseconds);
    if (cudaError_t error = cudaGetLastError())
      return fail("spinning kernel", error);
    status = library.tryCall(argv[2]);
    text = library.lastError();
  } catch (const sdfgstream::Error &error) {
    fflush(stdout);
    fprintf(stderr, "sdfg-gpu-run: %s\n", error.what());
    return 1;
  }
  // Whatever the program printed on the host is out; kernel printf output
  // comes when the stream's work is done.
  cudaError_t drained = cudaStreamSynchronize(stream);
  fflush(stdout);
  if (status != 0) {
    fprintf(stderr, "sdfg-gpu-run: %s returned %d: %s\n", argv[2], status,
            text.c_str());
    return expectFailure ? 0 : 1;
  }
  if (expectFailure) {
    fprintf(stderr, "sdfg-gpu-run: %s succeeded, a failure was expected\n",
            argv[2]);
    return 1;
  }
  if (drained != cudaSuccess)
    return fail("cudaStreamSynchronize after the call", drained);
  cudaStreamDestroy(stream);
  return 0;
}
