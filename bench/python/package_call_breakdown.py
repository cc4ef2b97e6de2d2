#!/usr/bin/env python3
"""Where the host time of a plain package call goes, piece by piece.

  package_call_breakdown.py LIB.so [--number 20000]

Same program and arrays as package_overhead.py (smooth_axpy on 4096
floats, CuPy arrays and PyTorch tensors on one non-blocking stream, that
stream current in both frameworks). Times, each as the best of five runs of
--number repetitions, in ns per repetition:

  * the whole plain call (CuPy, PyTorch) and the prepared call;
  * the run alone (Program._run, the ctypes call included) and the frame
    lookup;
  * the framework reads the generated call makes per array (one attribute
    or method each; _fastarrays.py) and the current-stream queries, to see
    what it could avoid.

No limit is checked: this is for finding what to make cheaper; the verdict
on the overhead is package_overhead.py's.
"""

import argparse
import os
import sys
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import sdfgstream  # noqa: E402


def best_ns(statement, number, namespace):
    timer = timeit.Timer(statement, globals=namespace)
    return min(timer.repeat(repeat=5, number=number)) / number * 1e9


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("library")
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--number", type=int, default=20000)
    args = parser.parse_args()
    import cupy as cp
    import torch

    lib = sdfgstream.load(args.library)
    program = lib.smooth_axpy
    stream = cp.cuda.Stream(non_blocking=True)
    handle = stream.ptr
    n = args.n
    x, y = cp.random.random(n, dtype=cp.float32), cp.random.random(n, dtype=cp.float32)
    out, total = cp.zeros(n, cp.float32), cp.zeros((), cp.float32)
    tx, ty = torch.as_tensor(x, device="cuda"), torch.as_tensor(y, device="cuda")
    tout, ttotal = torch.as_tensor(out, device="cuda"), torch.as_tensor(total, device="cuda")
    namespace = dict(cp=cp, torch=torch, program=program, stream=stream, handle=handle,
                     x=x, y=y, out=out, total=total, tx=tx, ty=ty, tout=tout,
                     ttotal=ttotal)
    with stream:
        torch_stream = torch.cuda.ExternalStream(handle)
        with torch.cuda.stream(torch_stream):
            # The fast path learns each array type at its first call.
            for _ in range(2):
                program(x=x, y=y, out=out, sum=total, alpha=0.5, stream=stream)
                program(x=tx, y=ty, out=tout, sum=ttotal, alpha=0.5, stream=handle)
            stream.synchronize()
            namespace.update(frame=program._frame(),
                             prepared=program.prepare(x=x, y=y, out=out, sum=total,
                                                      alpha=0.5, stream=stream))
            rows = [
                ("plain call, CuPy",
                 "program(x=x, y=y, out=out, sum=total, alpha=0.5, stream=stream)"),
                ("plain call, PyTorch",
                 "program(x=tx, y=ty, out=tout, sum=ttotal, alpha=0.5, stream=handle)"),
                ("prepared call", "prepared()"),
                ("run (ctypes call included)", "program._run(frame, handle, ())"),
                ("frame lookup", "program._frame()"),
                ("cupy a.dtype", "x.dtype"),
                ("cupy a.shape", "x.shape"),
                ("cupy a.strides", "x.strides"),
                ("cupy a.size", "x.size"),
                ("cupy a.ndim", "x.ndim"),
                ("cupy a._c_contiguous", "getattr(x, '_c_contiguous', None)"),
                ("cupy a.data", "x.data"),
                ("cupy a.data.ptr", "x.data.ptr"),
                ("cupy a.data.device_id", "x.data.device_id"),
                ("cupy get_current_stream(0).ptr", "cp.cuda.get_current_stream(0).ptr"),
                ("cupy get_current_stream().ptr", "cp.cuda.get_current_stream().ptr"),
                ("torch t.dtype", "tx.dtype"),
                ("torch t.shape", "tx.shape"),
                ("torch t.is_contiguous()", "tx.is_contiguous()"),
                ("torch t.is_cuda", "tx.is_cuda"),
                ("torch t.data_ptr()", "tx.data_ptr()"),
                ("torch t.get_device()", "tx.get_device()"),
                ("torch t.stride()", "tx.stride()"),
                ("torch raw current stream", "torch._C._cuda_getCurrentRawStream(0)"),
                ("torch.cuda.current_device()", "torch.cuda.current_device()"),
                ("empty 6-keyword call", "(lambda x, y, out, sum, alpha, *, stream=None: None)"
                 "(x=x, y=y, out=out, sum=total, alpha=0.5, stream=stream)"),
            ]
            print("device: %s; Python %s; CuPy %s; PyTorch %s" % (
                cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                sys.version.split()[0], cp.__version__, torch.__version__))
            for name, statement in rows:
                print("%-34s %9.0f ns" % (name, best_ns(statement, args.number, namespace)))
                stream.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
