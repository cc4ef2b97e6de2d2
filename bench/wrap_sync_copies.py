#!/usr/bin/env python3
"""Rewrites every synchronous gpu.memcpy / gpu.memset of an MLIR file into the
form upstream MLIR 22 can lower without gpu-async-region: a stream of its own,
created, waited for and destroyed around the op,

    %t = gpu.wait async
    %d = gpu.memcpy async [%t] ...
    gpu.wait [%d]

which is what upstream's gpu-to-llvm does for a synchronous gpu.launch_func
(and what gpu-async-region would emit for the copy alone). Upstream's
gpu-to-llvm leaves synchronous copies and memsets unconverted (exit 0, the
IR then fails in mlir-translate), so the "plain gpu-to-llvm" rows of the
benchmark run their input through this first.

usage: wrap_sync_copies.py [INPUT] [-o OUTPUT]   (default: stdin, stdout)
"""
import argparse
import re
import sys

SYNC_OP = re.compile(r"^(\s*)gpu\.(memcpy|memset)\s+(?!async)(.*)$")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", type=argparse.FileType("r"),
                        default=sys.stdin)
    parser.add_argument("-o", dest="output", type=argparse.FileType("w"),
                        default=sys.stdout)
    args = parser.parse_args()
    text = args.input.read()
    out, count = [], 0
    for line in text.splitlines():
        match = SYNC_OP.match(line)
        if not match:
            out.append(line)
            continue
        indent, op, rest = match.groups()
        token, done = f"%wrap_stream{count}", f"%wrap_done{count}"
        out.append(f"{indent}{token} = gpu.wait async")
        out.append(f"{indent}{done} = gpu.{op} async [{token}] {rest}")
        out.append(f"{indent}gpu.wait [{done}]")
        count += 1
    args.output.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
