#!/usr/bin/env bash
# Builds, here, everything the GPU tests need and stages it in .device/ (git
# ignored), to be carried to the GPU machine and run by
# scripts/gpu-tests-run.sh:
#   .device/bin/   sdfg-gpu-tests (programs compiled ahead of time + driver),
#                  libsdfg-gpu-test-host-api.so (the program library that
#                  its host API test loads), the hazard and concurrency
#                  program libraries, sdfg-cuda-probe,
#                  SDFGRuntimeCudaDeviceTests (the runtime against the real
#                  driver), sdfg-gpu-run and the integration programs
#                  (libsdfg-gpu-integration-*.so, test/GPU/integration)
#   .device/lit/   the lit test runner (pure Python)
#   .device/dace/  the DaCe and GT4Py corpora built for the GPU and the DaCe benchmark
#                  libraries (bench/dace/build.sh; test/GPU/dace)
#   .device/python/ the Python client example (examples/python): its program
#                  compiled by sdfg-compile (smooth_axpy.so, sm_90 fatbin, the
#                  runtime linked in; smooth_axpy.h; smooth_axpy_graph.so in
#                  graph mode) and the .py files
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh" sdfg-gpu-tests sdfg-gpu-run sdfg-cuda-probe SDFGRuntimeCudaDeviceTests \
  sdfg-opt sdfg-translate sdfgstream_runtime_cuda_static
rm -rf "$root/.device"
mkdir -p "$root/.device/bin"
cp "$build/bin/sdfg-gpu-tests" "$build"/bin/libsdfg-gpu-test-*.so \
  "$build/bin/sdfg-cuda-probe" "$build/bin/sdfg-gpu-run" \
  "$build"/bin/libsdfg-gpu-integration-*.so \
  "$build/unittests/Runtime/SDFGRuntimeCudaDeviceTests" \
  "$build/lib/libsdfgstream_runtime_cuda.so" "$root/.device/bin/"
cp -r /usr/lib/llvm-22/utils/lit/lit "$root/.device/lit"
find "$root/.device/lit" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$root/.device/python"
"$build/bin/sdfg-compile" "$root/examples/python/smooth_axpy.mlir" \
  -o "$root/.device/python/smooth_axpy.so" --header "$root/.device/python/smooth_axpy.h"
"$build/bin/sdfg-compile" "$root/examples/python/smooth_axpy.mlir" --graph-mode \
  -o "$root/.device/python/smooth_axpy_graph.so"
cp "$root/examples/python/smooth_axpy.py" "$root/examples/python/jax_ffi.py" \
  "$root/examples/python/graph_mode.py" "$root/.device/python/"
"$root/bench/dace/build.sh"
du -sh "$root/.device"
