#!/usr/bin/env python3
"""Runs the pass recipe of docs/guide.md ("## Passes and their order") as
written there: the `--pass` words of its code block, optional ones in
[brackets] included when --with-optional is given, in their order, on INPUT
with SDFG-OPT; prints the result (stdout) and the command (stderr).

usage: run-guide-recipe.py SDFG-OPT GUIDE.md INPUT [--with-optional]
"""
import os
import re
import subprocess
import sys

sdfg_opt, guide, source = sys.argv[1:4]
with_optional = "--with-optional" in sys.argv[4:]
text = open(guide).read()
section = text[text.index("## Passes and their order"):]
block = re.search(r"```\n(sdfg-opt in\.mlir.*?)```", section, re.S).group(1)
passes = []
for line in block.splitlines():
    line = line.split("#", 1)[0]
    for optional, word in re.findall(r"(\[?)(--[\w=.,-]+)\]?", line):
        if optional and not with_optional:
            continue
        passes.append(word)
if "--sdfg-add-external-gpu-stream" not in passes:
    sys.exit("run-guide-recipe.py: no recipe found in %s" % guide)
command = [sdfg_opt, source] + passes
print(" ".join(command[1:]), file=sys.stderr)
# lit preloads the ASan runtime into python in the instrumented build; the
# tool has its own.
env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
sys.exit(subprocess.run(command, env=env).returncode)
