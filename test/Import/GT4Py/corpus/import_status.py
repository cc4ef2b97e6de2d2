#!/usr/bin/env python3
"""Runs `sdfg-translate --import-dace-sdfg` on every SDFG of the GT4Py corpus
and prints a Markdown table: per file, `imports` or the importer's first
error (the element it names and the message), for README.md's table of what
blocks GT4Py's SDFGs. With --elements, prints instead the table of the DaCe
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


def main(argv):
    if argv[1] == "--elements":
        return elements_table(argv[2])
    translate, corpus = argv[1], argv[2]
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    print("| file | result |")
    print("|---|---|")
    for path in sorted(glob.glob(os.path.join(corpus, "*.sdfg"))):
        run = subprocess.run([translate, "--import-dace-sdfg", path], capture_output=True,
                             text=True, env=env)
        result = "imports" if run.returncode == 0 else first_error(run.stderr)
        result = result.replace("|", "\\|")
        print("| `%s` | %s |" % (os.path.basename(path), result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
