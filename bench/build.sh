#!/usr/bin/env bash
#===- bench/build.sh - Build the GPU benchmarks and stage them -----------===#
#
# Part of the SDFGStream project.
#
# Runs here (no GPU needed): builds sdfg-bench-calls, sdfg-bench-slots
# (programs compiled by SDFGStream and, for the calls, by upstream MLIR 22,
# linked statically with the runtimes and the CUDA runtime) and
# sdfg-bench-graph-variants (CUDA only), and stages what
# bench/run.sh needs on the GPU machine in .bench/ (git-ignored by its own
# .gitignore):
#   .bench/bin/sdfg-bench-calls, .bench/bin/sdfg-bench-slots,
#   .bench/bin/sdfg-bench-graph-variants
#   .bench/lib/libcupti.so.*     CUPTI of this toolkit (the driver-call
#                                profile of sdfg-bench-calls links it)
#   .bench/BUILD-INFO            commit, date, toolchain of this build
# Carry `.bench` to the GPU machine and run bench/run.sh there.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh" sdfg-opt sdfg-translate
# bench/ is configured only when nvcc and the CUDA runtime target exist; a
# build tree configured before bench/ existed needs a re-run of cmake.
# (bench/ is not in the default build: ask for the target by name.)
targets=(sdfg-bench-calls sdfg-bench-slots sdfg-bench-graph-variants)
if ! ninja -C "$build" -t query "${targets[@]}" >/dev/null 2>&1; then
  cmake "$build" >/dev/null
fi
if ! ninja -C "$build" -t query "${targets[@]}" >/dev/null 2>&1; then
  echo "bench/build.sh: no ${targets[*]} targets: the benchmarks need nvcc" \
       "(/usr/local/cuda) and cuda.h; see the cmake output" >&2
  exit 1
fi
ninja -C "$build" "${targets[@]}"

stage="$root/.bench"
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib"
printf '*\n' > "$stage/.gitignore"
for target in "${targets[@]}"; do
  cp "$build/bin/$target" "$stage/bin/"
done
# The CUPTI library sdfg-bench-calls was linked against (the GPU machine
# may have the driver only); bench/run.sh puts .bench/lib on the library
# path.
cupti="$(ldd "$build/bin/sdfg-bench-calls" | awk '/libcupti/ { print $3 }')"
if [ ! -f "$cupti" ]; then
  echo "bench/build.sh: sdfg-bench-calls does not link a libcupti found" \
       "here" >&2
  exit 1
fi
cp -L "$cupti" "$stage/lib/"
{
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
    [ -z "$(git -C "$root" status --porcelain 2>/dev/null)" ] ||
      echo ' (+ uncommitted changes)')"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "mlir: $(/usr/lib/llvm-22/bin/mlir-opt --version | grep -o 'version [0-9.]*' | head -1)"
  echo "nvcc: $(/usr/local/cuda/bin/nvcc --version | tail -1)"
} > "$stage/BUILD-INFO"
cat "$stage/BUILD-INFO"
du -sh "$stage"
echo "next: carry .bench to the GPU machine and run bench/run.sh there"
