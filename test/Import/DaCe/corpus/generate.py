#!/usr/bin/env python3
"""Regenerates the DaCe SDFG corpus of the importer: for every
programs/<name>.py, <name>.sdfg (to_sdfg(), apply_gpu_transformations()
unless GPU_TRANSFORM is False, the program's optional postprocess(), saved in
DaCe's default compact serialization), plus the format variants listed in
VARIANTS (<name>.verbose.sdfg with testing.serialize_all_fields, <name>.sdfgz
compressed). Prints a summary of the elements each SDFG contains and checks
the program's EXPECT (a dict of summary key -> minimum / required value).

Usage (from anywhere; scripts/dace-corpus.sh sets up the environment):
  PYTHONPATH=<dace tree> /usr/bin/python3 generate.py [name ...]

Determinism: guids come from a generator seeded by the program name,
source_files is relative (programs/<name>.py), PYTHONHASHSEED is pinned to 0
(the script re-executes itself if it is not), the .sdfgz's gzip header has
mtime 0, so regenerating gives byte-identical files.
"""

import gzip
import json
import os
import sys
import tempfile

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)
sys.path.insert(0, HERE)
# Keep DaCe's build folders and config out of the repository.
os.environ.setdefault("DACE_default_build_folder",
                      os.path.join(tempfile.gettempdir(), "sdfgstream-dace-corpus", ".dacecache"))

import corpus_lib  # noqa: E402

# Format variants: program -> extra files.
VERBOSE = {"axpy_f64"}
COMPRESSED = {"while_converge"}


def check_expect(name, module, summary):
    problems = []
    for key, want in getattr(module, "EXPECT", {}).items():
        have = summary[key]
        if isinstance(want, int) and not isinstance(want, bool):
            n = have if isinstance(have, int) else len(have)
            if n < want:
                problems.append("%s: %r < %r" % (key, have, want))
        elif callable(want):
            if not want(have):
                problems.append("%s: %r fails the check" % (key, have))
        elif isinstance(want, str):
            if not any(want in str(x) for x in (have if isinstance(have, (list, dict)) else [have])):
                problems.append("%s: %r lacks %r" % (key, have, want))
    if problems:
        raise RuntimeError("%s: expected elements missing: %s" % (name, "; ".join(problems)))


def generate(name):
    import dace
    corpus_lib.deterministic_guids(name)
    corpus_lib.relative_source_files()
    module = corpus_lib.load_program(name)
    sdfg = corpus_lib.build_sdfg(module)
    summary = corpus_lib.summarize(sdfg)
    check_expect(name, module, summary)
    sdfg.save(name + ".sdfg")
    if name in COMPRESSED:
        path = name + ".sdfgz"
        sdfg.save(path, compress=True)
        # gzip's header holds the time of writing: rewrite it with mtime 0.
        with gzip.open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as raw, gzip.GzipFile(path, "wb", fileobj=raw, mtime=0) as f:
            f.write(data)
    if name in VERBOSE:
        with dace.config.set_temporary("testing", "serialize_all_fields", value=True):
            sdfg.save(name + ".verbose.sdfg")
    # The saved file must load back and validate.
    dace.SDFG.from_file(name + ".sdfg").validate()
    return summary


def main(argv):
    def step(name):
        summary = generate(name)
        short = {k: v for k, v in summary.items() if v not in (0, [], {}, set())}
        return json.dumps(short, sort_keys=True)
    return corpus_lib.run_each(argv, step, "generated")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
