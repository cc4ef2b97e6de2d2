#!/usr/bin/env python3
"""Host cost of a launch-bound call through the sdfgstream package, against
the C host API, in one process on one stream.

  package_overhead.py LIB.so [--n 4096] [--calls 200] [--rounds 30]

The program is examples/python/smooth_axpy.mlir (two kernels, a copy, a
reduction, two stream-ordered transients) on 4096 floats: launch-bound.
Rows, each `--calls` calls per round, rounds interleaved, medians of the
per-call host time:

  C host API     the program's C entry called in a C loop (call_loop.c) with
                 prebuilt descriptors: what a C or C++ caller pays;
  ctypes entry   the C entry called from Python through ctypes with
                 prebuilt descriptors: the floor of any Python binding;
  package cupy   lib.smooth_axpy(x=..., ..., stream=s) with CuPy arrays;
  package torch  the same with PyTorch tensors;
  package prepared  program.prepare(...) once, then prepared() per call
                 (the same arrays each call: a time-stepping loop);
  package dlpack the same through DLPack capsules (objects offering only
                 __dlpack__, as JAX's arrays).

The stream is drained after each round, outside the timed calls; the GPU
keeps up with the calls (its work per call is shorter than their host
time). Prints a table and the package's overhead per call over the C host
API; exits 1 if a plain call with CuPy arrays or PyTorch tensors, or a
prepared call, costs more than --limit-us (5 us) over it. (DLPack-only
arrays cost what their producer takes to make a capsule per array: that
row is printed, not held to the limit.)
"""

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import sdfgstream  # noqa: E402


class DLPackOnly:
    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def build_loop():
    directory = tempfile.mkdtemp(prefix="sdfgstream-bench-")
    path = os.path.join(directory, "call_loop.so")
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC",
                    os.path.join(HERE, "call_loop.c"), "-o", path], check=True)
    loop = ctypes.CDLL(path)
    loop.sdfgstream_bench_call_loop.restype = ctypes.c_double
    loop.sdfgstream_bench_call_loop.argtypes = [ctypes.c_void_p] * 5 + [
        ctypes.c_float, ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_int32)]
    return loop.sdfgstream_bench_call_loop


def descriptor(pointer, shape):
    """An MLIR strided descriptor (rank 0 or 1) in a ctypes buffer."""
    import struct
    buffer = ctypes.create_string_buffer(8 * (3 + 2 * len(shape)))
    struct.pack_into("PPq" + "q" * 2 * len(shape), buffer, 0, pointer, pointer, 0,
                     *shape, *([1] * len(shape)))
    return buffer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("library")
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--limit-us", type=float, default=5.0)
    args = parser.parse_args()
    import cupy as cp
    import torch

    lib = sdfgstream.load(args.library)
    program = lib.smooth_axpy
    stream = cp.cuda.Stream(non_blocking=True)
    handle = stream.ptr
    n, alpha = args.n, 0.75
    x, y = cp.random.random(n, dtype=cp.float32), cp.random.random(n, dtype=cp.float32)
    out, total = cp.zeros(n, cp.float32), cp.zeros((), cp.float32)
    tx, ty = torch.as_tensor(x, device="cuda"), torch.as_tensor(y, device="cuda")
    tout, ttotal = torch.as_tensor(out, device="cuda"), torch.as_tensor(total, device="cuda")
    dx, dy, dout, dtotal = (DLPackOnly(a) for a in (x, y, out, total))
    descriptors = [descriptor(x.data.ptr, (n,)), descriptor(y.data.ptr, (n,)),
                   descriptor(out.data.ptr, (n,)), descriptor(total.data.ptr, ())]
    entry = lib._dll._mlir_ciface_smooth_axpy
    entry.restype = ctypes.c_int32
    entry.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_float, ctypes.c_void_p]
    entry_address = ctypes.cast(entry, ctypes.c_void_p).value
    addresses = [ctypes.addressof(d) for d in descriptors]
    c_loop = build_loop()
    status = ctypes.c_int32()

    def c_api(count):
        seconds = c_loop(entry_address, *addresses, alpha, handle, count, ctypes.byref(status))
        assert status.value == 0, lib.last_error()
        return seconds

    def timed(function):
        def run(count):
            start = time.perf_counter()
            for _ in range(count):
                function()
            return time.perf_counter() - start
        return run

    prepared = program.prepare(x=x, y=y, out=out, sum=total, alpha=alpha, stream=stream)
    rows = {
        "C host API": c_api,
        "ctypes entry": timed(lambda: entry(*addresses, alpha, handle)),
        "package cupy": timed(lambda: program(x=x, y=y, out=out, sum=total, alpha=alpha,
                                              stream=stream)),
        "package torch": timed(lambda: program(x=tx, y=ty, out=tout, sum=ttotal,
                                               alpha=alpha, stream=handle)),
        "package prepared": timed(prepared),
        "package dlpack": timed(lambda: program(x=dx, y=dy, out=dout, sum=dtotal,
                                                alpha=alpha, stream=handle)),
    }
    with stream:
        torch_stream = torch.cuda.ExternalStream(handle)
        with torch.cuda.stream(torch_stream):
            for run in rows.values():  # warm up: modules loaded, pools grown
                run(20)
            stream.synchronize()
            samples = {name: [] for name in rows}
            for _ in range(args.rounds):
                for name, run in rows.items():
                    samples[name].append(run(args.calls) / args.calls * 1e6)
                    stream.synchronize()
    # Right results after all of it.
    import numpy as np
    xh, yh = x.get(), y.get()
    padded = np.concatenate([xh[:1], xh, xh[-1:]])
    want = np.float32(alpha) * (0.25 * padded[:-2] + 0.5 * padded[1:-1] + 0.25 * padded[2:]) + yh
    assert np.allclose(out.get(), want, rtol=1e-5, atol=1e-6), "wrong result"

    base = statistics.median(samples["C host API"])
    print("device: %s" % cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
    print("%-16s %12s %12s %14s" % ("row", "us/call", "x C API", "+us over C API"))
    for name, values in samples.items():
        median = statistics.median(values)
        print("%-16s %12.2f %12.3f %14.2f" % (name, median, median / base, median - base))
    # Plain calls with framework arrays (the generated fast path) and the
    # prepared call are held to the limit; DLPack capsules are reported.
    verdict = "PASS"
    for row in ("package cupy", "package torch", "package prepared", "package dlpack"):
        overhead = statistics.median(samples[row]) - base
        held = row != "package dlpack"
        passed = overhead <= args.limit_us
        if held and not passed:
            verdict = "FAIL"
        print("%s: %.2f us per call over the C host API%s" % (
            row, overhead, " (limit %.1f): %s" % (args.limit_us, "PASS" if passed else "FAIL")
            if held else " (a capsule per array; not held to the limit)"))
    print("package overhead: %s" % verdict)
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
