#!/usr/bin/env python3
"""Generates the GT4Py corpus (README.md): for every program in programs/ and
every floating-point type (f32, f64), <name>_<type>.{sdfg,cpu.sdfg,
gt4py-cpu.sdfg,json,ref.npz}.

Per program and type:
  1. runs the gt4py.next program with GT4Py's embedded backend on inputs from
     numpy.random.default_rng(SEED): the oracle (out/* of <name>.ref.npz);
  2. calls it with GT4Py's DaCe CPU backend (auto-optimize and metrics off)
     to get the compilable program (GTIR and compile-time arguments) GT4Py's
     workflow hands to its DaCe translation step; with
     SDFGSTREAM_GT4PY_CORPUS_DACE_CPU=1 the call runs on, and its results
     must agree with the oracle (it doubles the time);
  3. calls that step (DaCeTranslator) with the CUDA device type, GT4Py's
     defaults for a GPU backend (asynchronous call), auto-optimize and
     metrics off: <name>.sdfg, the JSON GT4Py's workflow passes on to its
     DaCe build; and with the CPU device type: <name>.gt4py-cpu.sdfg;
  4. makes <name>.sdfg CPU-only as the DaCe corpus does
     (test/Import/DaCe/corpus/cpu_variants.py): <name>.cpu.sdfg, built with
     DaCe and called with the arguments GT4Py's own argument code computes
     (get_sdfg_args), which must agree with the oracle;
  5. writes the manifest <name>.json and <name>.ref.npz.

Run with Debian's /usr/bin/python3 and the PYTHONPATH of scripts/gt4py-env.sh
(scripts/gt4py-corpus.sh does both). Arguments: program names, with or without
the _f32/_f64 suffix (default: all). Deterministic: PYTHONHASHSEED=0, fixed
seeds, no guids (GT4Py drops them), source paths made relative, zip entries
of the .npz with a fixed time.
"""

import os
import sys
import tempfile

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
DACE_CORPUS = os.path.join(HERE, "..", "..", "DaCe", "corpus")
sys.path.insert(0, HERE)
sys.path.insert(1, DACE_CORPUS)
_work = os.path.join(tempfile.gettempdir(), "sdfgstream-gt4py-corpus")
os.environ.setdefault("DACE_default_build_folder", os.path.join(_work, ".dacecache"))
os.environ.setdefault("GT4PY_BUILD_CACHE_LIFETIME", "session")
os.environ.setdefault("GT4PY_BUILD_JOBS_MODE", "serial")

import warnings  # noqa: E402

import gt4py_corpus_lib as lib  # noqa: E402


def main(argv):
    warnings.filterwarnings("ignore", category=UserWarning)
    names = lib.select(argv[1:])

    def step(name):
        return lib.generate(name)
    failed = []
    for name in names:
        try:
            print("%-28s %s" % (name, step(name)), flush=True)
        except Exception as e:  # report and go on with the others
            import traceback
            traceback.print_exc()
            print("FAIL %s: %s" % (name, e), flush=True)
            failed.append(name)
    print("gt4py corpus: %d of %d generated" % (len(names) - len(failed), len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
