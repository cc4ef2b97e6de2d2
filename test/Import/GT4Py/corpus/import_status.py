#!/usr/bin/env python3
"""Runs `sdfg-translate --import-dace-sdfg` on every SDFG of the GT4Py corpus
and prints a Markdown table: per file, `imports` or the importer's first
error (the element it names and the message), and where that error is about
the `init_code` line, the first error of a copy without it: README.md's
table of what blocks GT4Py's SDFGs. With --elements, prints instead the table of the DaCe
elements each GPU SDFG holds (from the manifests' `elements`).

usage: import_status.py SDFG-TRANSLATE CORPUS-DIR
       import_status.py --elements CORPUS-DIR
"""

import glob
import json
import os
import re
import subprocess
import sys
import tempfile


def first_error(stderr):
    """The first error's message and its first note (where the element is)."""
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        if "error:" in line:
            # "<file>:1:1: error: message" -> "message"
            message = re.sub(r"^.*?error:\s*", "", line).strip()
            for note in lines[i + 1:]:
                if "error:" in note:
                    break
                if "note:" in note:
                    return "%s (%s)" % (message, re.sub(r"^.*?note:\s*", "", note).strip())
            return message
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[0].strip() if lines else "(no message)"


def _counts(d):
    return ", ".join("%s %d" % kv for kv in d.items()) or "-"


def elements_table(corpus):
    print("| SDFG | nodes | maps | control flow | interstate edges | memlets | library nodes "
          "| code | storages |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(corpus, "*.json"))):
        with open(path) as f:
            e = json.load(f)["elements"]
        code = "; ".join("%s: `%s`" % (k, " ".join(v)) for k, v in e["code"].items()) or "-"
        print("| `%s.sdfg` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            os.path.basename(path)[:-5], _counts(e["nodes"]), _counts(e["schedules"]),
            _counts(e["control_flow"]), _counts(e["interstate_edges"]),
            _counts(e["memlets"]), _counts(e["library_nodes"]), code,
            _counts(e["storages"])))
    return 0


def status(translate, path):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    run = subprocess.run([translate, "--import-dace-sdfg", path], capture_output=True,
                         text=True, env=env)
    result = "imports" if run.returncode == 0 else first_error(run.stderr)
    return result.replace("|", "\\|")


def without_init_code(path, work):
    """A copy of the SDFG file without the top-level SDFG's init_code (GT4Py's
    stream line), to see what blocks the import next."""
    with open(path) as f:
        sdfg = json.load(f)
    sdfg["attributes"].pop("init_code", None)
    copy = os.path.join(work, os.path.basename(path))
    with open(copy, "w") as f:
        json.dump(sdfg, f)
    return copy


def main(argv):
    if argv[1] == "--elements":
        return elements_table(argv[2])
    translate, corpus = argv[1], argv[2]
    print("| file | first error | first error without the init_code line |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for path in sorted(glob.glob(os.path.join(corpus, "*.sdfg"))):
            first = status(translate, path)
            later = "-"
            if "init_code" in first:
                later = status(translate, without_init_code(path, work))
            print("| `%s` | %s | %s |" % (os.path.basename(path), first, later))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
