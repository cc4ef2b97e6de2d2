#!/usr/bin/env bash
# Regenerates the GT4Py corpus (test/Import/GT4Py/corpus, README.md there):
# sets up GT4Py and DaCe (scripts/gt4py-env.sh), then runs generate.py, which
# for every program in programs/ and each of f32, f64 runs GT4Py's embedded
# backend (the oracle) and its DaCe CPU backend, saves the SDFGs GT4Py's DaCe
# translation step emits for the GPU and the CPU, the GPU SDFG made CPU-only
# (checked against the oracle through DaCe's CPU build), the manifest and the
# .ref.npz; then check_corpus.py. Arguments: program names, with or without the
# _f32/_f64 suffix (default: all). Build folders go to <tmp>/sdfgstream-gt4py-corpus.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=gt4py-env.sh
source "$root/scripts/gt4py-env.sh"
corpus="$root/test/Import/GT4Py/corpus"

"$SDFGSTREAM_PYTHON" "$corpus/generate.py" "$@"
"$SDFGSTREAM_PYTHON" "$corpus/check_corpus.py" "$corpus"
