#!/usr/bin/env bash
# Builds a libFuzzer harness (in the instrumented tree that
# scripts/sanitize.sh shares, see scripts/instrumented-build.sh) and fuzzes
# for SECONDS (default 180).
#
#   scripts/fuzz.sh [--target passes|import] [SECONDS] [libFuzzer flags...]
#   scripts/fuzz.sh --reseed     re-minimizes fuzz/corpus from test/**/*.mlir
#                                (split at "// -----") and the current corpus
#
# Targets: `passes` (default) is fuzz/sdfg-fuzz, MLIR text through the stream
# passes and both GPU lowerings, starting from the committed corpus
# fuzz/corpus; `import` is fuzz/import/sdfg-import-fuzz, DaCe SDFG files
# (JSON, or gzip) through the importer and the stream passes, seeded from the
# importer's test inputs (test/Import/DaCe: Inputs/ and the DaCe-made corpus).
#
# New interesting inputs go to build-asan/fuzz-work[-import]/corpus (kept
# between runs, not committed); crashes, leaks, timeouts and invalid IR to
# build-asan/fuzz-work[-import]/artifacts. Exits non-zero on any finding; the
# last line says so. docs/fuzzing.md explains how to replay one.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_ASAN_BUILD_DIR:-$root/build-asan}"

target=passes
if [ "${1:-}" = "--target" ]; then
  target="${2:-}"
  shift 2 || true
fi
case "$target" in
  passes)
    harness=sdfg-fuzz
    work="$build/fuzz-work"
    # Inputs as large as the largest tests; hangs are findings too (a pass
    # that does not terminate); leaks stay on.
    common=(-max_len=16384 -timeout=60 -rss_limit_mb=4096 -detect_leaks=1
            -dict="$root/fuzz/mlir.dict")
    seeds=("$root/fuzz/corpus")
    ;;
  import)
    harness=sdfg-import-fuzz
    work="$build/fuzz-work-import"
    # The DaCe-made corpus files are up to ~90 KB of JSON.
    common=(-max_len=131072 -timeout=60 -rss_limit_mb=4096 -detect_leaks=1
            -dict="$root/fuzz/import/dace.dict")
    seeds=("$work/seeds")
    mkdir -p "$work/seeds"
    cp "$root"/test/Import/DaCe/Inputs/*.sdfg "$root"/test/Import/DaCe/corpus/*.sdfg \
      "$root"/test/Import/DaCe/corpus/*.sdfgz "$work/seeds/"
    ;;
  *)
    echo "unknown target '$target' (passes or import)"
    exit 2
    ;;
esac

if ! "$root/scripts/instrumented-build.sh" "$harness"; then
  echo "build failed"
  exit 1
fi
fuzzer="$build/bin/$harness"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

if [ "${1:-}" = "--reseed" ] && [ "$target" = passes ]; then
  seeds="$(mktemp -d)"
  trap 'rm -rf "$seeds"' EXIT
  python3 "$root/fuzz/split-tests.py" "$seeds/tests"
  mkdir -p "$seeds/old" "$root/fuzz/corpus"
  cp "$root"/fuzz/corpus/* "$seeds/old/" 2>/dev/null
  [ -d "$work/corpus" ] && cp "$work"/corpus/* "$seeds/old/" 2>/dev/null
  rm -f "$root"/fuzz/corpus/*
  # Edges only (-use_counters=0): every covered edge stays, in about a
  # third of the inputs that hit counts would keep (a small committed corpus).
  "$fuzzer" "${common[@]}" -merge=1 -use_counters=0 "$root/fuzz/corpus" \
    "$seeds/tests" "$seeds/old"
  status=$?
  echo "fuzz/corpus: $(ls "$root/fuzz/corpus" | wc -l) inputs, $(du -sh "$root/fuzz/corpus" | cut -f1)"
  exit $status
fi

seconds="${1:-180}"
shift || true
mkdir -p "$work/corpus" "$work/artifacts"
cd "$work"
touch "$work/run-start"
"$fuzzer" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "${seeds[@]}"
status=$?
findings=$(find "$work/artifacts" -type f -newer "$work/run-start" | wc -l)
if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
  echo "fuzzing found $findings finding(s) (exit status $status): see $work/artifacts"
  exit 1
fi
echo "fuzzing: no findings in ${seconds} s"
