#!/usr/bin/env bash
# Regenerates the DaCe SDFG importer's test corpus (test/Import/DaCe/corpus):
# sets up DaCe v2.0.0-alpha5 (scripts/dace-env.sh), then runs
#   generate.py      programs/<name>.py -> <name>.sdfg (+ format variants),
#   cpu_variants.py  <name>.sdfg -> <name>.cpu.sdfg (the CPU-only variant that
#                    check.py compiles with sdfg-compile), and
#   oracle.py        DaCe's CPU build of each .sdfg -> <name>.ref.npz, <name>.json.
# Arguments: program names (default: all). Set SDFGSTREAM_DACE_CORPUS_STEPS to
# "generate", "cpu_variants" or "oracle" to run some steps only. DaCe's build folders go to
# $DACE_default_build_folder (default <tmp>/sdfgstream-dace-corpus/.dacecache).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=dace-env.sh
source "$root/scripts/dace-env.sh"
corpus="$root/test/Import/DaCe/corpus"
steps=${SDFGSTREAM_DACE_CORPUS_STEPS:-generate cpu_variants oracle}

for step in $steps; do
  echo "== $step.py" >&2
  "$SDFGSTREAM_PYTHON" "$corpus/$step.py" "$@"
done
