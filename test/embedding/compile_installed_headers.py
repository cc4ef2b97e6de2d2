#!/usr/bin/env python3
"""Compiles each header an install prefix has under include/SDFGStream on
its own (C++17, -fsyntax-only, with only the prefix and MLIR on the include
path), so that an installed header that includes something the install
left out (a .def, a generated .inc, a private header) fails here, not in
the embedding compiler. Prints one line per failure and "N headers, N
failed"; exits non-zero on a failure.

Usage: compile_installed_headers.py PREFIX MLIR_OPT CXX...
(MLIR's headers are found beside the mlir-opt it is given.)
"""

import concurrent.futures
import pathlib
import subprocess
import sys


def main():
    prefix = pathlib.Path(sys.argv[1])
    mlir_opt = pathlib.Path(sys.argv[2]).resolve()
    mlir_include = str(mlir_opt.parent.parent / "include")
    cxx = sys.argv[3:]
    include = prefix / "include"
    headers = sorted(include.glob("SDFGStream/**/*.h"))

    def check(header):
        source = '#include "%s"\n' % header.relative_to(include)
        result = subprocess.run(
            cxx + ["-std=c++17", "-fsyntax-only", "-w", "-x", "c++",
                   "-I", str(include), "-I", mlir_include, "-"],
            input=source, capture_output=True, text=True)
        return header, result

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for header, result in pool.map(check, headers):
            if result.returncode != 0:
                failed += 1
                first = (result.stderr.strip().splitlines() or ["?"])[0]
                print("FAIL %s: %s" % (header.relative_to(include), first))
    print("%d headers, %d failed" % (len(headers), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
