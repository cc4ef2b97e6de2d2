#!/usr/bin/env python3
"""Checks that the imported program takes its arguments in DaCe's C calling
convention: the names (sdfg.arg_name) in the order of the corpus manifest's
`arglist`, which generate.py took from DaCe's own SDFG.arglist().

usage: check-abi-order.py SDFG-TRANSLATE CORPUS-DIR NAME...
"""
import json
import os
import re
import subprocess
import sys

translate, corpus, names = sys.argv[1], sys.argv[2], sys.argv[3:]
# In the instrumented build lit preloads the ASan runtime into python; the
# tools carry their own and abort when a second one is preloaded.
tool_env = {key: value for key, value in os.environ.items() if key != "LD_PRELOAD"}
failed = 0
for name in names:
    ir = subprocess.run([translate, "--import-dace-sdfg", f"{corpus}/{name}.sdfg"],
                        check=True, capture_output=True, text=True, env=tool_env).stdout
    signature = next(line for line in ir.splitlines() if "sdfg.sdfg @" in line)
    imported = re.findall(r'sdfg\.arg_name = "([^"]+)"', signature)
    with open(f"{corpus}/{name}.json") as manifest:
        expected = [argument["name"] for argument in json.load(manifest)["arglist"]]
    if imported == expected:
        print(f"ok {name}: {', '.join(imported)}")
    else:
        failed += 1
        print(f"MISMATCH {name}: imported {imported}, DaCe {expected}")
sys.exit(1 if failed else 0)
