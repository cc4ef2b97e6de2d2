#!/usr/bin/env bash
#===- bench/run.sh - Run the GPU benchmarks on the GPU machine ------------===#
#
# Part of the SDFGStream project.
#
# Runs on the GPU machine (CUDA driver only: no MLIR, no compiler), from what
# bench/build.sh staged in .bench/, one process after the other:
#   1. sdfg-bench-calls: one table per program, the driver-call profile of
#      the async calls, the targets of issue 6;
#   2. sdfg-bench-calls again, launch-bound only, with the SDFGStream graph
#      captured first (SDFG_BENCH_CAPTURE_SDFG_FIRST=1), into
#      $OUT/capture-sdfg-first/, and bench/graph_orders.py: the graph rows of
#      both runs side by side (each capture order);
#   3. sdfg-bench-slots: two stream slots, concurrent and serialized, against
#      hand-written CUDA (issue 14);
#   4. sdfg-bench-graph-variants: the launch-bound chain as graphs made in
#      different ways (captured, built node by node, updated in place, ...),
#      to tell which property of a graph costs device time (graph mode).
# Writes to $OUT (default ./bench-out):
#   bench.log           everything printed
#   summary.csv         sdfg-bench-calls: one line per row: medians,
#                       p10/p90, ratios
#   samples.csv         sdfg-bench-calls: one line per call
#   driver-calls.csv    the driver-call profile of the async calls
#   slots-summary.csv   sdfg-bench-slots: one line per row (same columns)
#   slots-samples.csv   sdfg-bench-slots: one line per call
#   targets.csv         each target, its value and PASS/MISS (both tools)
#   capture-sdfg-first/ summary.csv, samples.csv, targets.csv of run 2
#   calls.png           the plot (skipped, with a message, without matplotlib)
# Arguments go to sdfg-bench-calls (--scale F: F times the calls, e.g. 0.1
# for a quick check; --only launch-bound|bandwidth-bound; --profile-calls
# N); --scale also to sdfg-bench-slots. Takes about two minutes on an
# H200; the exit status is that of the first step that failed (1: a row
# failed).
#
#===----------------------------------------------------------------------===#
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${OUT:-./bench-out}"
mkdir -p "$out/capture-sdfg-first" "$out/upstream" || exit 2
out="$(cd "$out" && pwd)"
bin="$root/.bench/bin"
for tool in sdfg-bench-calls sdfg-bench-slots sdfg-bench-graph-variants; do
  if [ ! -x "$bin/$tool" ]; then
    echo "bench/run.sh: $bin/$tool is missing: run bench/build.sh on the" \
         "build machine and carry .bench here" >&2
    exit 2
  fi
done
# CUPTI (the driver-call profile): the staged copy first.
export LD_LIBRARY_PATH="$root/.bench/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

scale=()
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; ++i)); do
  [ "${args[i]}" != "--scale" ] || scale=(--scale "${args[i + 1]}")
done

# Nothing of an earlier run in $OUT may pass for this one's.
rm -f "$out"/{summary,samples,targets,driver-calls,slots-summary,slots-samples}.csv \
  "$out"/capture-sdfg-first/{summary,samples,targets,driver-calls}.csv \
  "$out"/upstream/{summary,samples,targets,driver-calls}.csv "$out/calls.png"
log="$out/bench.log"
: > "$log"
status=0
# step NAME SECONDS COMMAND...: runs COMMAND with a time limit, its output
# printed and appended to the log; the first failure is the exit status.
step() {
  local name="$1" limit="$2" status_file="$out/.status" rc
  shift 2
  { timeout "$limit" "$@"; echo "$?" > "$status_file"; } 2>&1 | tee -a "$log"
  rc="$(cat "$status_file" 2>/dev/null || echo 2)"
  rm -f "$status_file"
  case "$rc" in
    0) ;;
    124) echo "bench/run.sh: $name timed out ($limit s)" | tee -a "$log" ;;
    *) echo "bench/run.sh: $name exited with $rc" | tee -a "$log" ;;
  esac
  if [ "$rc" != 0 ] && [ "$status" = 0 ]; then
    status="$rc"
  fi
}
say() { echo "$@" | tee -a "$log"; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -n), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit \
    --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /' || echo "gpu: nvidia-smi not found"
  sed 's/^/build /' "$root/.bench/BUILD-INFO" 2>/dev/null
} 2>&1 | tee -a "$log"

# The upstream rows create and destroy a stream per operation; after that
# churn every graph launch of the process takes ~7 us more device time on an
# idle GPU (docs/benchmarks.md, "Graph mode on the H200"). So they run in a
# process of their own, with the sync rows they are compared against.
upstream_rows=upstream-plain,upstream-region
say "=== sdfg-bench-calls (all rows but the upstream ones)"
step sdfg-bench-calls 300 env SDFG_BENCH_SKIP_ROWS="$upstream_rows" \
  "$bin/sdfg-bench-calls" --out "$out" "$@"

say ""
say "=== sdfg-bench-calls, upstream rows against the sync rows (a fresh" \
    "process; $out/upstream)"
step "sdfg-bench-calls (upstream rows)" 300 \
  env SDFG_BENCH_ONLY_ROWS="hand-sync,sdfg-sync,$upstream_rows" \
  "$bin/sdfg-bench-calls" --out "$out/upstream" "$@" --profile-calls 0

say ""
say "=== sdfg-bench-calls, launch-bound, SDFGStream graph captured first" \
    "(SDFG_BENCH_CAPTURE_SDFG_FIRST=1, a fresh process; $out/capture-sdfg-first)"
step "sdfg-bench-calls (SDFGStream graph captured first)" 300 \
  env SDFG_BENCH_CAPTURE_SDFG_FIRST=1 SDFG_BENCH_SKIP_ROWS="$upstream_rows" \
  "$bin/sdfg-bench-calls" \
  --out "$out/capture-sdfg-first" "$@" --only launch-bound --profile-calls 0

say ""
say "=== sdfg-bench-slots"
step sdfg-bench-slots 120 "$bin/sdfg-bench-slots" --out "$out" \
  ${scale[@]+"${scale[@]}"}

say ""
say "=== sdfg-bench-graph-variants"
step sdfg-bench-graph-variants 120 "$bin/sdfg-bench-graph-variants"

if [ -s "$out/summary.csv" ] && [ -s "$out/capture-sdfg-first/summary.csv" ]; then
  say ""
  step graph_orders.py 60 python3 "$root/bench/graph_orders.py" \
    "$out/summary.csv" "$out/capture-sdfg-first/summary.csv"
fi
if [ -s "$out/summary.csv" ]; then
  python3 "$root/bench/plot.py" "$out" 2>&1 | tee -a "$log" ||
    say "bench/run.sh: plot skipped"
fi
say "results in $out"
exit "$status"
