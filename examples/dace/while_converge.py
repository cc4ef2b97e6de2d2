#!/usr/bin/env python3
"""Calls a DaCe program, imported and compiled by SDFGStream, from Python by
its DaCe argument names.

The program is test/Import/DaCe/corpus/while_converge.sdfg, which DaCe made
from test/Import/DaCe/corpus/programs/while_converge.py:

    @dace.program
    def while_converge(A: dace.float64[N], tol: dace.float64, iters: dace.int32[1]):
        ...
        while err > tol:               # err: a max-reduction on the GPU
            for i in dace.map[0:N]:
                B[i] = np.sqrt(A[i])
            ...

    sdfg-compile while_converge.sdfg -o while_converge.so --header while_converge.h

The header declares `_mlir_ciface_while_converge(A, iters, N, tol,
external_gpu_stream)` in DaCe's calling convention; the Python client
(the sdfgstream package, python/) reads the same signature from the library's
manifest and takes the arguments by name. On a GPU (`--gpu`, needs CuPy) the call goes on a
non-blocking CuPy stream behind a spin kernel: the loop condition reads a
value a kernel computed, and the call still gives NumPy's answer. Without a
GPU, the same script calls the CPU build of DaCe's CPU variant of the SDFG
(while_converge.cpu.sdfg) on NumPy arrays.

usage: while_converge.py LIBRARY HEADER [--gpu]
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import sdfgstream
except ImportError:  # run from the checkout, the package not installed
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import sdfgstream  # noqa: E402


def reference(a, tol):
    err, it = tol + 1.0, 0
    while err > tol:
        b = np.sqrt(a)
        err = np.max(np.abs(b - a))
        a, it = b, it + 1
    return a, it


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("library")
    ap.add_argument("header")
    ap.add_argument("--gpu", action="store_true")
    args = ap.parse_args()

    program = sdfgstream.load(args.library).while_converge
    print("while_converge(%s)" % ", ".join(program.names))

    rng = np.random.default_rng(2026)
    a_host = rng.uniform(0.1, 100.0, 100000)
    tol = 1e-9
    want_a, want_iters = reference(a_host.copy(), tol)
    iters = np.zeros(1, np.int32)
    if args.gpu:
        import cupy as cp
        spin = cp.RawKernel(r"""
extern "C" __global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) { }
}""", "spin")
        stream = cp.cuda.Stream(non_blocking=True)
        rate_khz = cp.cuda.runtime.getDeviceProperties(0)["clockRate"]
        # DaCe's program takes host arrays and copies them to the GPU itself.
        a = a_host.copy()
        with stream:
            spin((1,), (1,), (np.int64(rate_khz * 20),))  # ~20 ms
        program(A=a, iters=iters, N=a.size, tol=tol, stream=stream.ptr)
        stream.synchronize()
    else:
        a = a_host.copy()
        program(A=a, iters=iters, N=a.size, tol=tol)
    ok = iters[0] == want_iters and np.allclose(a, want_a, rtol=1e-12, atol=1e-12)
    print("%s: %d iterations (NumPy: %d), A %s NumPy's"
          % ("PASS" if ok else "FAIL", iters[0], want_iters,
             "matches" if np.allclose(a, want_a, rtol=1e-12, atol=1e-12) else "differs from"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
