#!/usr/bin/env bash
#===- bench/dace/build.sh - Stage the DaCe corpus for the GPU machine -----===#
#
# Part of the SDFGStream project.
#
# Runs here (sdfg-compile needs ptxas; no GPU needed) and stages in
# .device/dace/ everything the DaCe GPU tests (test/GPU/dace) and benchmarks
# (bench/dace/*.py) run on the GPU machine, which has CUDA, CuPy and NumPy
# but no MLIR and no DaCe:
#   default/          every corpus program's GPU build (check.py --gpu
#                     --compile-only): the GPU oracle check
#   concurrent/       the same with --concurrent-streams
#   gt4py/            the GT4Py corpus's GPU SDFGs (test/Import/GT4Py/corpus,
#                     check.py --corpus --gpu --compile-only): test/GPU/dace/
#                     gt4py-oracle.test
#   omit-host-syncs/  while_converge, if_else, host_array_reads built with
#                     --test-omit-host-syncs: the negative control of the
#                     host-read test
#   bench/            independent_maps without and with --concurrent-streams;
#                     dependent_maps with --concurrent-streams, with and
#                     without --test-omit-stream-waits; triad_device; each
#                     .so with its .h; triad_device_b256 (DaCe's
#                     default_block_size 256,1,1 instead of 32,1,1);
#                     libtriad_hand.so (triad_hand.cu, nvcc)
#   bench/dace-*/     DaCe's own CUDA build (DaCe 2.0.0a5 from the snapshot,
#                     scripts/dace-env.sh; cmake and nvcc here) of
#                     triad_device (also with default_block_size 256,1,1:
#                     dace-triad_device_b256) and independent_maps:
#                     lib<name>.so, which
#                     needs only libcudart there. Skipped, with a message,
#                     when DaCe cannot be set up here.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"
corpus="$root/test/Import/DaCe/corpus"
out="$root/.device/dace"
compile="$build/bin/sdfg-compile"
check=(/usr/bin/python3 "$corpus/check.py" --gpu --compile-only --build-dir "$build")

rm -rf "$out"
mkdir -p "$out/bench"
"${check[@]}" --work-dir "$out/default" >"$out/default.log"
"${check[@]}" --concurrent-streams --work-dir "$out/concurrent" >"$out/concurrent.log"
"${check[@]}" --corpus "$root/test/Import/GT4Py/corpus" --work-dir "$out/gt4py" \
  >"$out/gt4py.log"
"${check[@]}" --compile-args=--test-omit-host-syncs --work-dir "$out/omit-host-syncs" \
  while_converge if_else host_array_reads >"$out/omit-host-syncs.log"
tail -n 1 "$out"/*.log

bench() { # bench NAME PROGRAM FLAGS...
  local name="$1" program="$2"
  shift 2
  "$compile" "$corpus/$program.sdfg" "$@" -o "$out/bench/$name.so" \
    --header "$out/bench/$name.h"
}
bench independent_maps_serial independent_maps
bench independent_maps_concurrent independent_maps --concurrent-streams
bench dependent_maps_ordered dependent_maps --concurrent-streams
bench dependent_maps_omit_waits dependent_maps --concurrent-streams --test-omit-stream-waits
bench triad_device triad_device
bench triad_device_b256 triad_device --dace-default-block-size 256,1,1
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -Xcompiler -fPIC -shared \
  "$root/bench/dace/triad_hand.cu" -o "$out/bench/libtriad_hand.so"

# DaCe's own CUDA build of the same SDFG files.
if env_line="$("$root/scripts/dace-env.sh" 2>"$out/dace-env.log")"; then
  eval "$env_line"
  dace_build() { # dace_build PROGRAM OUT-NAME [BLOCK]
    PATH="$PATH:/usr/local/cuda/bin" DACE_default_build_folder="$out/dace-cache" \
      /usr/bin/python3 "$root/bench/dace/dace_build.py" "$corpus/$1.sdfg" \
      "$out/bench/dace-$2" "${@:3}" >>"$out/dace-build.log" 2>&1 ||
      { echo "DaCe's build of $2 failed: see $out/dace-build.log"; exit 1; }
    rm -rf "$out/dace-cache"
  }
  dace_build triad_device triad_device
  dace_build triad_device triad_device_b256 256,1,1
  dace_build independent_maps independent_maps
else
  echo "DaCe could not be set up here ($out/dace-env.log): its builds are skipped"
fi
git -C "$root" rev-parse HEAD >"$out/BUILD-COMMIT"
du -sh "$out"
