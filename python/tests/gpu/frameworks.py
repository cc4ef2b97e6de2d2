#!/usr/bin/env python3
"""The package on a GPU: one program (examples/python/smooth_axpy.mlir)
called from CuPy, PyTorch, NumPy host arrays and JAX (through the XLA FFI,
inside jax.jit), each on a non-blocking stream behind GPU work that the
call must wait for, 100 runs each, with a negative control in the same run
(the same calls on another stream must give wrong results).

  frameworks.py LIB.so cupy|torch|numpy|jax [--runs N]

Each run makes the program's input on the GPU *after* a spin (a CuPy or
PyTorch kernel that waits, or a long JAX loop), so a call that is not
ordered after that work reads a stale input. Prints one line per check and
"SUMMARY <framework>: N passed, N failed"; exits 1 on a failure.
"""

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))  # the package, uninstalled
import sdfgstream  # noqa: E402

N = 1 << 16
ALPHA = np.float32(0.75)
SPIN_SOURCE = r'''
extern "C" __global__ void spin(unsigned long long nanoseconds) {
  unsigned long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  for (;;) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start >= nanoseconds) break;
  }
}
'''


class Unordered:
    """A device array seen through __cuda_array_interface__ without the
    stream its producer used: nothing orders a call after its producer
    (the negative control's arrays)."""

    def __init__(self, pointer, shape, typestr="<f4"):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (pointer, False), "strides": None,
                                         "version": 2}


def reference(x, y, alpha=ALPHA):
    x = np.asarray(x, np.float32)
    padded = np.concatenate([x[:1], x, x[-1:]])
    t = np.float32(0.25) * padded[:-2] + np.float32(0.5) * padded[1:-1] + \
        np.float32(0.25) * padded[2:]
    out = (alpha * t + np.asarray(y, np.float32)).astype(np.float32)
    return out, out.sum(dtype=np.float64)


def right(out, total, x, y):
    want, want_total = reference(x, y)
    return (np.allclose(np.asarray(out), want, rtol=1e-5, atol=1e-6)
            and abs(float(total) - want_total) <= 1e-3 * max(1.0, abs(want_total)))


class Report:
    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, 0

    def check(self, ok, text):
        print("%s: %s" % ("PASS" if ok else "FAIL", text), flush=True)
        self.passed += bool(ok)
        self.failed += not ok

    def finish(self):
        print("SUMMARY %s: %d passed, %d failed" % (self.name, self.passed, self.failed))
        return 1 if self.failed else 0


MODES = ("current", "other", "control")


def call_in_mode(lib, mode, x, y, out, total, other, address):
    """smooth_axpy on the framework's current stream (no stream=), on
    `other` with the framework's arrays, or (the control) on `other` with
    only the arrays' addresses (`address(array)`), which nothing orders."""
    if mode == "current":
        lib.smooth_axpy(x=x, y=y, out=out, sum=total, alpha=ALPHA)
    elif mode == "other":
        lib.smooth_axpy(x=x, y=y, out=out, sum=total, alpha=ALPHA, stream=other)
    else:
        lib.smooth_axpy(x=Unordered(address(x), (N,)), y=Unordered(address(y), (N,)),
                        out=Unordered(address(out), (N,)),
                        sum=Unordered(address(total), ()), alpha=ALPHA, stream=other)


def report_modes(report, name, wrong, runs, current, arrays, owner):
    report.check(wrong["current"] == 0, "%s: %d of %d calls wrong on %s (the default "
                 "stream)" % (name, wrong["current"], runs, current))
    report.check(wrong["other"] == 0, "%s: %d of %d calls wrong on another stream with "
                 "%s (ordered after %s)" % (name, wrong["other"], runs, arrays, owner))
    report.check(wrong["control"] > 0, "%s control: %d of %d wrong on another stream "
                 "with an unordered input" % (name, wrong["control"], runs))


def run_cupy(lib, runs, report):
    """Modes: the call on CuPy's current stream (the default); on another
    stream with the CuPy arrays (ordered after CuPy's stream by the
    package); the control: on another stream with the arrays' addresses
    only (unordered)."""
    import cupy as cp
    spin = cp.RawKernel(SPIN_SOURCE, "spin")
    stream, other = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    rng = np.random.default_rng(1)
    wrong = dict.fromkeys(MODES, 0)
    for mode in MODES:
        for _ in range(runs):
            xh = rng.random(N, dtype=np.float32)
            yh = rng.random(N, dtype=np.float32)
            with stream:  # CuPy's current stream
                staged, y = cp.asarray(xh), cp.asarray(yh)
                x, out, total = cp.zeros(N, cp.float32), cp.zeros(N, cp.float32), cp.zeros((), cp.float32)
                stream.synchronize()
                spin((1,), (1,), (np.uint64(2_000_000),))
                cp.copyto(x, staged)  # the input, made after the spin
                call_in_mode(lib, mode, x, y, out, total, other, lambda a: a.data.ptr)
                stream.synchronize()
                other.synchronize()
                wrong[mode] += not right(out.get(), total.get(), xh, yh)
    report_modes(report, "cupy", wrong, runs, "CuPy's current non-blocking stream",
                 "CuPy arrays", "CuPy's stream")


def run_torch(lib, runs, report):
    """As run_cupy, with torch's current stream (torch.cuda.stream)."""
    import torch
    stream, other = torch.cuda.Stream(), torch.cuda.Stream()
    cycles = int(2e-3 * torch.cuda.get_device_properties(0).clock_rate * 1e3)
    gen = torch.Generator(device="cpu").manual_seed(2)
    wrong = dict.fromkeys(MODES, 0)
    for mode in MODES:
        for _ in range(runs):
            xh = torch.rand(N, generator=gen)
            yh = torch.rand(N, generator=gen)
            with torch.cuda.stream(stream):
                staged, y = xh.cuda(), yh.cuda()
                x = torch.zeros(N, device="cuda")
                out, total = torch.zeros(N, device="cuda"), torch.zeros((), device="cuda")
                stream.synchronize()
                torch.cuda._sleep(cycles)
                x.copy_(staged)
                call_in_mode(lib, mode, x, y, out, total, other, lambda t: t.data_ptr())
                stream.synchronize()
                other.synchronize()
                wrong[mode] += not right(out.cpu().numpy(), total.item(), xh.numpy(), yh.numpy())
    report_modes(report, "torch", wrong, runs, "torch's current stream", "torch tensors",
                 "torch's stream")


def run_numpy(lib, runs, report):
    """Host arrays (pinned NumPy arrays: their copies are asynchronous) through
    smooth_axpy_io on a CuPy stream whose spin the copies must wait for; the
    control reads the results without synchronizing the stream."""
    import cupy as cp
    import cupyx
    spin = cp.RawKernel(SPIN_SOURCE, "spin")
    stream = cp.cuda.Stream(non_blocking=True)
    rng = np.random.default_rng(3)
    x, y = cupyx.empty_pinned(N, np.float32), cupyx.empty_pinned(N, np.float32)
    out, total = cupyx.empty_pinned(N, np.float32), cupyx.empty_pinned((), np.float32)
    wrong = {"call": 0, "control": 0}
    for control in (False, True):
        for _ in range(runs):
            x[...] = rng.random(N, dtype=np.float32)
            y[...] = rng.random(N, dtype=np.float32)
            out[...] = 0
            total[...] = 0
            spin((1,), (1,), (np.uint64(2_000_000),), stream=stream)
            lib.smooth_axpy_io(x=x, y=y, out=out, sum=total, alpha=ALPHA, stream=stream)
            if not control:
                stream.synchronize()
            ok = right(out.copy(), total.copy(), x, y)
            stream.synchronize()
            wrong["control" if control else "call"] += not ok
    report.check(wrong["call"] == 0, "numpy: %d of %d calls wrong on pinned host arrays "
                 "(read after syncing the stream)" % (wrong["call"], runs))
    report.check(wrong["control"] > 0, "numpy control: %d of %d wrong read before the "
                 "sync" % (wrong["control"], runs))


def run_jax(lib, runs, report):
    import jax
    import jax.numpy as jnp
    import sdfgstream.jax
    import cupy as cp
    call = sdfgstream.jax.register(lib, "smooth_axpy", outputs=("out", "sum"))
    # Its transients are stream-ordered allocations: XLA must not take it
    # into a command buffer (CUDA refuses such child graphs).
    report.check(not call.graphable, "jax: smooth_axpy registered as not command-buffer "
                 "compatible (stream-ordered allocations) (%r)" % call)

    big = jnp.full((4096, 4096), 1e-4, jnp.float32)

    def slow(x0):
        # ~10 ms of GPU work on JAX's stream, asynchronous to the host (a
        # chain of matmuls; no loop whose trip the host would wait for),
        # that the program's input depends on.
        m = big
        for _ in range(6):
            m = jnp.dot(m, big, precision=jax.lax.Precision.HIGHEST)
        return x0 + m.reshape(-1)[:N] * 1e-6

    other = cp.cuda.Stream(non_blocking=True)

    def step(x0, y, control):
        x = slow(x0)
        out, total = call(x=x, y=y, alpha=ALPHA, out=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          _test_stream=other.ptr if control else None)
        return x, out, total

    jitted = {c: jax.jit(lambda x0, y, c=c: step(x0, y, c)) for c in (False, True)}
    rng = np.random.default_rng(4)
    wrong = {"call": 0, "control": 0}
    for control in (False, True):
        for _ in range(runs):
            x0 = jnp.asarray(rng.random(N, dtype=np.float32))
            y = jnp.asarray(rng.random(N, dtype=np.float32))
            x, out, total = jitted[control](x0, y)
            out, total = np.asarray(out), np.asarray(total)
            other.synchronize()
            wrong["control" if control else "call"] += not right(out, total, np.asarray(x), np.asarray(y))
    report.check(wrong["call"] == 0, "jax: %d of %d jitted calls wrong (FFI on JAX's "
                 "stream, after ~10 ms of JAX matmuls it reads the result of, no host "
                 "sync; new inputs each call)" % (wrong["call"], runs))
    report.check(wrong["control"] > 0, "jax control: %d of %d wrong with the handler on "
                 "another stream" % (wrong["control"], runs))
    # A program without transients or host syncs is command-buffer
    # compatible: XLA may capture it into its CUDA graphs with the matmuls
    # around it. Right results with new inputs each call either way; the
    # handler's run count says whether XLA replayed a capture.
    axpy = sdfgstream.jax.register(lib, "axpy", outputs=("out",))
    report.check(axpy.graphable, "jax: axpy (no transients, no host sync) registered "
                 "command-buffer compatible")
    graphed = jax.jit(lambda x0, y: (lambda x: (x, axpy(x=x, y=y, alpha=ALPHA,
                                                        out=jax.ShapeDtypeStruct(x.shape, x.dtype))))(slow(x0)))
    bad = 0
    for _ in range(runs):
        x0 = jnp.asarray(rng.random(N, dtype=np.float32))
        y = jnp.asarray(rng.random(N, dtype=np.float32))
        x, out = graphed(x0, y)
        want = ALPHA * np.asarray(x) + np.asarray(y)
        bad += not np.allclose(np.asarray(out), want, rtol=1e-5, atol=1e-6)
    report.check(bad == 0, "jax: %d of %d jitted axpy calls wrong (command-buffer "
                 "compatible; the handler ran %d times for %d executions)"
                 % (bad, runs, axpy.handler_calls(), runs))
    text = jitted[False].lower(x0, y).as_text()
    report.check("custom_call" in text and call.target in text,
                 "jax: the jitted function holds the program as an XLA custom call")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("library")
    parser.add_argument("framework", choices=("cupy", "torch", "numpy", "jax"))
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    lib = sdfgstream.load(args.library)
    report = Report(args.framework)
    {"cupy": run_cupy, "torch": run_torch, "numpy": run_numpy,
     "jax": run_jax}[args.framework](lib, args.runs, report)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
