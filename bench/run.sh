#!/usr/bin/env bash
#===- bench/run.sh - Run the GPU benchmarks on the GPU machine ------------===#
#
# Part of the SDFGStream project.
#
# Runs on the GPU machine (CUDA driver only: no MLIR, no compiler), from what
# bench/build.sh staged in .bench/. Prints one table per program and the
# targets of issue 6, and writes to $OUT (default ./bench-out):
#   bench.log     everything printed
#   summary.csv   one line per row: medians, p10/p90, ratios
#   samples.csv   one line per call
#   targets.csv   each target, its value and PASS/MISS
#   driver-calls.csv  the driver-call profile of the async calls
#   calls.png     the plot (skipped, with a message, without matplotlib)
# Arguments go to sdfg-bench-calls (--scale F: F times the calls, e.g. 0.1
# for a quick check; --only launch-bound|bandwidth-bound; --profile-calls N,
# 0 for no driver-call profile). Takes about a
# minute on an H200; the exit status is 1 if a row failed.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${OUT:-./bench-out}"
mkdir -p "$out" || exit 2
out="$(cd "$out" && pwd)"
bin="$root/.bench/bin/sdfg-bench-calls"
if [ ! -x "$bin" ]; then
  echo "bench/run.sh: $bin is missing: run bench/build.sh on the build" \
       "machine and carry .bench here" >&2
  exit 2
fi
# CUPTI (the driver-call profile): the staged copy first.
export LD_LIBRARY_PATH="$root/.bench/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

status_file="$out/.status"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -n), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit \
    --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /' || echo "gpu: nvidia-smi not found"
  sed 's/^/build /' "$root/.bench/BUILD-INFO" 2>/dev/null
  timeout 300 "$bin" --out "$out" "$@"
  echo "$?" > "$status_file"
} 2>&1 | tee "$out/bench.log"
status="$(cat "$status_file" 2>/dev/null || echo 2)"
rm -f "$status_file"
case "$status" in
  0) ;;
  124) echo "bench/run.sh: sdfg-bench-calls timed out (300 s)" | tee -a "$out/bench.log" ;;
  *) echo "bench/run.sh: sdfg-bench-calls exited with $status" | tee -a "$out/bench.log" ;;
esac

if [ -s "$out/summary.csv" ]; then
  python3 "$root/bench/plot.py" "$out" 2>&1 | tee -a "$out/bench.log" ||
    echo "bench/run.sh: plot skipped" | tee -a "$out/bench.log"
fi
echo "results in $out"
exit "$status"
