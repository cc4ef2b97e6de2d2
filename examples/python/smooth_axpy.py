#!/usr/bin/env python3
"""Runs an SDFGStream program compiled ahead of time on CuPy and PyTorch
streams, through the sdfgstream package (python/, docs/python.md).

The program (smooth_axpy.mlir, built by
`sdfg-compile smooth_axpy.mlir -o smooth_axpy.so --header smooth_axpy.h`)
smooths x with a 3-point stencil into a transient device buffer, computes
u = alpha * smoothed + y into a second transient, copies u to `out` and
reduces it into `sum`. Every copy, kernel, stream-ordered allocation and
free is enqueued on the stream passed as its last argument.

  smooth_axpy.py cupy         (a) on a non-blocking CuPy stream with CuPy's
                              MemoryAsyncPool: pool statistics before /
                              while enqueued / after, results against NumPy
  smooth_axpy.py torch        (b) on a torch.cuda.Stream, captured into a
                              torch.cuda.graph and replayed with new inputs
  smooth_axpy.py cupy torch   both, in one process
  smooth_axpy.py torch --graph-mode --lib smooth_axpy_graph.so
                              (b) with the library built with --graph-mode:
                              the first call runs as a graph, the call in
                              torch's capture eagerly into torch's graph

Every check prints a PASS, FAIL or SKIP line; the exit status is 1 if any
check failed (2 for bad usage).
"""

import argparse
import math
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import sdfgstream
except ImportError:  # run from the checkout, the package not installed
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import sdfgstream  # noqa: E402

ALPHA = 0.75
MiB = float(1 << 20)


class Report:
    """Counts and prints the outcome of each check."""

    def __init__(self, mode):
        self.mode = mode
        self.passed = self.failed = self.skipped = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print("%s: %s%s" % ("PASS" if ok else "FAIL", what,
                            " (%s)" % detail if detail else ""), flush=True)
        return ok

    def skip(self, what, why):
        self.skipped += 1
        print("SKIP: %s (%s)" % (what, why), flush=True)

    @staticmethod
    def info(text):
        print("INFO: " + text, flush=True)

    def finish(self):
        print("SUMMARY %s: %d passed, %d failed, %d skipped"
              % (self.mode, self.passed, self.failed, self.skipped), flush=True)
        return 1 if self.failed or not self.passed else 0


def call(program, *args, stream):
    """Calls `program`; returns 0, or the status of the CallError it raised
    (whose text is printed)."""
    try:
        program(*args, stream=stream)
        return 0
    except sdfgstream.CallError as error:
        print("INFO: %s" % error, flush=True)
        return error.status


#===----------------------------------------------------------------------===#
# References
#===----------------------------------------------------------------------===#

def reference_numpy(np, x, y, alpha=ALPHA):
    """(out, sum) as NumPy computes them in float32 (sum in float64)."""
    f = np.float32
    left = np.concatenate([x[:1], x[:-1]])
    right = np.concatenate([x[1:], x[-1:]])
    smoothed = (f(0.25) * left + f(0.5) * x) + f(0.25) * right
    out = f(alpha) * smoothed + y
    return out, float(np.sum(out, dtype=np.float64))


def reference_python(x, y, alpha=ALPHA):
    """The same on Python floats (no NumPy)."""
    n = len(x)
    out = []
    for i in range(n):
        left, right = x[max(i - 1, 0)], x[min(i + 1, n - 1)]
        out.append(alpha * (0.25 * left + 0.5 * x[i] + 0.25 * right) + y[i])
    return out, math.fsum(out)


def compare(np, got, expected, rtol=1e-5, atol=1e-6):
    """(number of wrong elements, largest absolute difference)."""
    if np is not None:
        got = np.asarray(got, dtype=np.float64)
        expected = np.asarray(expected, dtype=np.float64)
        diff = np.abs(got - expected)
        wrong = int(np.count_nonzero(diff > atol + rtol * np.abs(expected)))
        return wrong, float(diff.max()) if diff.size else 0.0
    wrong, largest = 0, 0.0
    for g, e in zip(got, expected):
        d = abs(g - e)
        largest = max(largest, d)
        wrong += d > atol + rtol * abs(e)
    return wrong + abs(len(got) - len(expected)), largest


def close(a, b, rtol):
    return abs(a - b) <= rtol * max(abs(a), abs(b), 1e-30)


def try_import_numpy():
    try:
        import numpy
        return numpy
    except ImportError:
        return None


#===----------------------------------------------------------------------===#

SPIN_SOURCE = r"""
extern "C" __global__ void spin(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}
"""


class PoolStats:
    """The attributes of a cudaMemPool_t, read through CuPy's runtime."""

    NAMES = [("used", "cudaMemPoolAttrUsedMemCurrent", 7),
             ("used_high", "cudaMemPoolAttrUsedMemHigh", 8),
             ("reserved", "cudaMemPoolAttrReservedMemCurrent", 5),
             ("reserved_high", "cudaMemPoolAttrReservedMemHigh", 6)]

    def __init__(self, runtime, pool):
        for field, name, value in self.NAMES:
            setattr(self, field, int(runtime.memPoolGetAttribute(pool, getattr(runtime, name, value))))

    @classmethod
    def reset_high(cls, runtime, pool):
        """Sets both high-water marks to the current values."""
        for field, name, value in cls.NAMES:
            if field.endswith("_high"):
                runtime.memPoolSetAttribute(pool, getattr(runtime, name, value), 0)

    def row(self, label):
        return "  %-30s %10.2f %10.2f %10.2f %10.2f" % (
            label, self.used / MiB, self.used_high / MiB, self.reserved / MiB,
            self.reserved_high / MiB)

    @staticmethod
    def header(pool):
        return "  pool 0x%x (MiB)               %10s %10s %10s %10s" % (
            pool, "used", "used-high", "reserved", "res.-high")


def run_cupy(args, report, library, gpu):
    import numpy as np
    import cupy as cp

    runtime = cp.cuda.runtime
    device = cp.cuda.Device()
    properties = runtime.getDeviceProperties(device.id)
    name = properties.get("name", b"?")
    report.info("CuPy %s, NumPy %s, %s, CUDA driver %d, runtime %d"
                % (cp.__version__, np.__version__,
                   name.decode() if isinstance(name, bytes) else name,
                   runtime.driverGetVersion(), runtime.runtimeGetVersion()))

    # CuPy allocates from the device's current pool with cudaMallocAsync on
    # the current stream; the program's transients come from the same pool
    # (cuMemAllocAsync on the caller's stream).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MemoryAsyncPool is "experimental"
        async_pool = cp.cuda.MemoryAsyncPool()
    cp.cuda.set_allocator(async_pool.malloc)
    pool = runtime.deviceGetMemPool(device.id)
    cupy_pool = getattr(async_pool, "_pools", [None] * (device.id + 1))[device.id]
    if cupy_pool is not None:
        report.check(cupy_pool == pool, "CuPy's MemoryAsyncPool is the device's current pool",
                     "0x%x" % pool)

    stream = cp.cuda.Stream(non_blocking=True)
    n = args.n
    rng = np.random.default_rng(args.seed)
    xh = rng.random(n, dtype=np.float32)
    yh = rng.random(n, dtype=np.float32)
    with stream:
        x = cp.empty(n, dtype=cp.float32)
        y = cp.empty(n, dtype=cp.float32)
        out = cp.empty(n, dtype=cp.float32)
        total = cp.zeros((), dtype=cp.float32)
        x.set(xh, stream=stream)
        y.set(yh, stream=stream)
    stream.synchronize()
    transients = 2 * n * 4
    report.info("n = %d: CuPy arrays x, y, out %.1f MiB, the program's transients %.1f MiB"
                % (n, 3 * n * 4 / MiB, transients / MiB))

    # A kernel that keeps the stream busy, so that the statistics read right
    # after the call are those of work still waiting on the stream.
    spin = None
    try:
        spin = cp.RawKernel(SPIN_SOURCE, "spin")
        with stream:
            spin((1,), (1,), (np.uint64(0),))
        stream.synchronize()
    except Exception as error:  # no NVRTC: run without it
        report.info("no spin kernel (%s): the statistics after the call may "
                    "already include finished work" % error)
        spin = None

    # A first call loads the kernels (loading may wait for the context's
    # running work, which would hide the asynchrony checked below).
    status = call(gpu, x, y, out, total, ALPHA, stream=stream)
    stream.synchronize()
    if status != 0:
        report.check(False, "smooth_axpy on a CuPy stream",
                     "status %d: %s" % (status, library.last_error()))
        return
    report.info("first call done; kernel modules loaded: %d" % library.loaded_module_count())

    PoolStats.reset_high(runtime, pool)
    before = PoolStats(runtime, pool)
    if spin is not None:
        with stream:
            spin((1,), (1,), (np.uint64(int(args.spin_ms * 1e6)),))
    start = time.perf_counter()
    status = call(gpu, x, y, out, total, ALPHA, stream=stream)
    call_ms = (time.perf_counter() - start) * 1e3
    enqueued = PoolStats(runtime, pool)
    still_busy = not stream.done
    if status != 0:
        report.check(False, "smooth_axpy on a CuPy stream",
                     "status %d: %s" % (status, library.last_error()))
        stream.synchronize()
        return
    stream.synchronize()
    after = PoolStats(runtime, pool)

    print(PoolStats.header(pool))
    print(before.row("before the call"))
    print(enqueued.row("call returned (work enqueued)"))
    print(after.row("after stream.synchronize()"))
    rise = after.used_high - before.used
    print("RESULT pool: transients %d B; used high-water rose by %d B (%.1f MiB) over %d B in use; "
          "in use after %d B; call returned in %.3f ms%s"
          % (transients, rise, rise / MiB, before.used, after.used, call_ms,
             ", stream still busy" if still_busy else ""))
    report.check(rise >= transients,
                 "the program's transients came from CuPy's pool: used high-water rose by "
                 "%.1f MiB >= %.1f MiB of transients" % (rise / MiB, transients / MiB))
    report.info("when the call returned, the used high-water had risen by %.1f MiB%s"
                % ((enqueued.used_high - before.used) / MiB,
                   " with the stream still busy: stream-ordered allocations are "
                   "accounted when they are enqueued" if still_busy else ""))
    report.check(after.used == before.used,
                 "the transients went back to the pool (stream-ordered frees)",
                 "in use before %d B, after %d B" % (before.used, after.used))
    if spin is not None:
        report.check(still_busy, "the call returned (%.3f ms) while the stream was still "
                     "running CuPy's %g ms kernel: asynchronous, queued behind it"
                     % (call_ms, args.spin_ms))

    expected, expected_sum = reference_numpy(np, xh, yh)
    got = out.get(stream=stream)
    got_sum = float(total.get(stream=stream))
    wrong, largest = compare(np, got, expected)
    report.check(wrong == 0, "out matches NumPy", "%d of %d wrong, max |diff| %.3g"
                 % (wrong, n, largest))
    report.check(close(got_sum, expected_sum, 1e-3), "sum matches NumPy",
                 "%.7g vs %.7g" % (got_sum, expected_sum))

    # Ordering without host syncs: CuPy writes the program's input, the
    # program runs, CuPy reads its output, all queued on the one stream.
    with stream:
        x2 = x * 2 + 1
        out.fill(-1)
        status = call(gpu, x2, y, out, total, ALPHA, stream=stream)
        checksum = cp.sum(out, dtype=cp.float64)
    got = out.get(stream=stream)
    got_sum = float(total.get(stream=stream))
    got_checksum = float(checksum.get(stream=stream))
    expected, expected_sum = reference_numpy(np, xh * np.float32(2) + np.float32(1), yh)
    wrong, largest = compare(np, got, expected)
    report.check(status == 0 and wrong == 0 and close(got_sum, expected_sum, 1e-3)
                 and close(got_checksum, expected_sum, 1e-6),
                 "CuPy kernel -> program -> CuPy reduction on one stream, no host sync between",
                 "status %d, %d wrong, sum %.7g, CuPy's sum of out %.7g, NumPy %.7g"
                 % (status, wrong, got_sum, got_checksum, expected_sum))
    del x2, checksum

    run_private_pool(args, report, library, gpu, cp, np, stream, async_pool, x, y, xh, yh)


def run_private_pool(args, report, library, gpu, cp, np, stream, async_pool, x, y, xh, yh):
    """CuPy's MemoryAsyncPool on a pool created here: it becomes the
    device's current pool, and the program's transients follow it."""
    runtime = cp.cuda.runtime
    device = cp.cuda.Device().id
    default_pool = runtime.deviceGetDefaultMemPool(device)
    try:
        # cudaMemAllocationTypePinned, no export handle, on this device.
        private = runtime.memPoolCreate(runtime.MemPoolProps(1, 0, 1, device))
    except (AttributeError, NotImplementedError) as error:
        report.skip("a private pool made current by MemoryAsyncPool", str(error))
        return
    arrays = []  # the arrays made in the pool, released before it is destroyed
    try:
        handles = [private if d == device else "current" for d in range(runtime.getDeviceCount())]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            private_async = cp.cuda.MemoryAsyncPool(handles)
        cp.cuda.set_allocator(private_async.malloc)
        n = args.n
        PoolStats.reset_high(runtime, private)
        PoolStats.reset_high(runtime, default_pool)
        before_private = PoolStats(runtime, private)
        before_default = PoolStats(runtime, default_pool)
        with stream:
            arrays += [x.copy(), y.copy(), cp.empty(n, dtype=cp.float32),
                       cp.zeros((), dtype=cp.float32)]
            status = call(gpu, *arrays, ALPHA, stream=stream)
        stream.synchronize()
        after_private = PoolStats(runtime, private)
        after_default = PoolStats(runtime, default_pool)
        print(PoolStats.header(private) + "  (private pool, current)")
        print(before_private.row("before"))
        print(after_private.row("after the call"))
        print(PoolStats.header(default_pool) + "  (the default pool)")
        print(before_default.row("before"))
        print(after_default.row("after the call"))
        transients = 2 * n * 4
        arrays_bytes = 3 * n * 4
        private_rise = after_private.used_high - before_private.used
        default_rise = after_default.used_high - before_default.used
        print("RESULT private pool: used high-water rose by %d B (CuPy's copies %d B + transients %d B); "
              "default pool's by %d B" % (private_rise, arrays_bytes, transients, default_rise))
        expected, expected_sum = reference_numpy(np, xh, yh)
        wrong, _ = compare(np, arrays[2].get(stream=stream), expected)
        report.check(status == 0 and private_rise >= arrays_bytes + transients and default_rise == 0
                     and wrong == 0,
                     "with a private pool made current by MemoryAsyncPool, CuPy's arrays and the "
                     "program's transients both come from it, none from the default pool",
                     "status %d, private +%.1f MiB, default +%d B, %d wrong"
                     % (status, private_rise / MiB, default_rise, wrong))
    except Exception as error:
        report.check(False, "private pool made current by MemoryAsyncPool",
                     "%s: %s" % (type(error).__name__, error))
    finally:
        del arrays[:]  # stream-ordered frees into the private pool
        stream.synchronize()
        runtime.deviceSetMemPool(device, default_pool)
        cp.cuda.set_allocator(async_pool.malloc)
        runtime.memPoolDestroy(private)


#===----------------------------------------------------------------------===#
# (b) PyTorch: a torch.cuda.Stream, captured into a CUDA graph
#===----------------------------------------------------------------------===#

def run_torch(args, report, library, gpu):
    import numpy as np
    import torch

    if not torch.cuda.is_available():
        report.check(False, "PyTorch sees a CUDA device")
        return
    device = torch.device("cuda", torch.cuda.current_device())
    report.info("PyTorch %s (CUDA %s), NumPy %s, %s"
                % (torch.__version__, torch.version.cuda, np.__version__,
                   torch.cuda.get_device_name(device)))
    stream = torch.cuda.Stream(device=device)
    n = args.n
    rng = np.random.default_rng(args.seed + 1)

    # Static tensors: the graph records their addresses.
    x = torch.empty(n, dtype=torch.float32, device=device)
    y = torch.empty(n, dtype=torch.float32, device=device)
    out = torch.empty(n, dtype=torch.float32, device=device)
    total = torch.zeros((), dtype=torch.float32, device=device)
    descriptors = [x, y, out, total]  # the tensors themselves

    def new_inputs():
        xh = rng.random(n, dtype=np.float32)
        yh = rng.random(n, dtype=np.float32)
        return xh, yh

    def check_result(xh, yh):
        expected, expected_sum = reference_numpy(np, xh, yh)
        got = out.cpu().numpy()  # on the current stream, which it waits for
        got_sum = float(total.item())
        wrong, largest = compare(np, got, expected)
        return wrong == 0 and close(got_sum, expected_sum, 1e-3), \
            "%d of %d wrong, max |diff| %.3g, sum %.7g vs %.7g" % (
                wrong, n, largest, got_sum, expected_sum)

    # A library built with --graph-mode (--graph-mode here) runs the first
    # call as a graph of its own, and a call inside the caller's capture
    # eagerly, into the caller's graph.
    def graph_stats():
        return library.graph_stats() if args.graph_mode else None

    def grew(before, after, key):
        return getattr(after, key) - getattr(before, key)

    # An eager call on the PyTorch stream first (it also loads the kernels).
    xh, yh = new_inputs()
    stats_before = graph_stats()
    with torch.cuda.stream(stream):
        x.copy_(torch.from_numpy(xh))
        y.copy_(torch.from_numpy(yh))
        status = call(gpu, *descriptors, ALPHA, stream=stream)
        if status != 0:
            report.check(False, "smooth_axpy on a torch.cuda.Stream",
                         "status %d: %s" % (status, library.last_error()))
            return
        ok, detail = check_result(xh, yh)
    report.check(ok, "an eager call on torch.cuda.Stream 0x%x matches NumPy"
                 % stream.cuda_stream, detail)
    if args.graph_mode:
        stats = graph_stats()
        report.check(grew(stats_before, stats, "builds") >= 1,
                     "graph mode: the call ran as a graph built for it",
                     "builds %+d, eager calls %+d" % (
                         grew(stats_before, stats, "builds"),
                         grew(stats_before, stats, "eager_calls")))
        stats_before = stats

    # Capture one call into a graph.
    graph = torch.cuda.CUDAGraph()
    captured = {}
    stream.synchronize()
    try:
        with torch.cuda.graph(graph, stream=stream):
            captured["stream"] = torch.cuda.current_stream().cuda_stream
            captured["status"] = call(gpu, *descriptors, ALPHA, stream=stream)
            captured["error"] = library.last_error() if captured["status"] else ""
    except Exception as error:
        report.check(False, "the call is captured by torch.cuda.graph",
                     "%s: %s; program status %s %s" % (type(error).__name__, error,
                                                      captured.get("status"),
                                                      captured.get("error", "")))
        return
    report.check(captured["status"] == 0 and captured["stream"] == stream.cuda_stream,
                 "the call is captured by torch.cuda.graph on its stream",
                 "status %d%s" % (captured["status"],
                                  ": " + captured["error"] if captured["error"] else ""))
    if captured["status"] != 0:
        return
    if args.graph_mode:
        stats = graph_stats()
        launched = sum(grew(stats_before, stats, key)
                       for key in ("builds", "updates", "replays"))
        report.check(launched == 0 and grew(stats_before, stats, "eager_calls") == 1,
                     "graph mode: the captured call went eagerly into torch's graph",
                     "graphs built/updated/replayed %d, eager calls %+d" % (
                         launched, grew(stats_before, stats, "eager_calls")))

    # Replays with new inputs copied into the static tensors.
    wrong_replays = 0
    details = []
    for replay in range(args.replays):
        xh, yh = new_inputs()
        with torch.cuda.stream(stream):
            out.fill_(-1.0)
            x.copy_(torch.from_numpy(xh))
            y.copy_(torch.from_numpy(yh))
            graph.replay()
            ok, detail = check_result(xh, yh)
        wrong_replays += not ok
        details.append(detail)
        print("  replay %d: %s" % (replay, detail))
    print("RESULT graph: %d replays, %d wrong" % (args.replays, wrong_replays))
    report.check(wrong_replays == 0,
                 "%d graph replays with new inputs copied into the static tensors match NumPy"
                 % args.replays)

    # Time per call: eager (enqueue + sync) against graph replay (+ sync).
    def median_us(function, repetitions=50):
        times = []
        with torch.cuda.stream(stream):
            function()
            stream.synchronize()
            for _ in range(repetitions):
                start = time.perf_counter()
                function()
                stream.synchronize()
                times.append((time.perf_counter() - start) * 1e6)
        times.sort()
        return times[len(times) // 2]

    eager_us = median_us(lambda: gpu(*descriptors, ALPHA, stream=stream))
    replay_us = median_us(graph.replay)
    print("RESULT timing: n = %d, median of 50: eager call + sync %.1f us, graph replay + sync %.1f us"
          % (n, eager_us, replay_us))
    del graph


#===----------------------------------------------------------------------===#

def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modes", nargs="+", choices=["cupy", "torch"],
                        help="what to run")
    parser.add_argument("--lib", default=os.environ.get(
        "SMOOTH_AXPY_LIB", os.path.join(HERE, "smooth_axpy.so")),
        help="the library built by sdfg-compile (default: smooth_axpy.so next to this script)")
    parser.add_argument("-n", type=int, default=1 << 22, help="elements (default 2^22)")
    parser.add_argument("--replays", type=int, default=5, help="graph replays (default 5)")
    parser.add_argument("--spin-ms", type=float, default=200.0,
                        help="CuPy kernel queued before the call (default 200 ms)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--graph-mode", action="store_true",
                        help="torch: the library was built with sdfg-compile --graph-mode; "
                        "check that its calls ran as graphs, and eagerly inside "
                        "torch's capture")
    args = parser.parse_args(argv)
    if args.n < 2:
        parser.error("-n must be at least 2")

    report = Report(" ".join(args.modes))
    print("library: %s" % os.path.abspath(args.lib), flush=True)
    library = sdfgstream.load(args.lib)
    gpu = library.smooth_axpy
    for mode, run in (("cupy", run_cupy), ("torch", run_torch)):
        if mode not in args.modes:
            continue
        print("== %s" % mode, flush=True)
        try:
            run(args, report, library, gpu)
        except ImportError as error:
            report.check(False, "%s is importable" % mode, str(error))
        except sdfgstream.CallError as error:
            report.check(False, "%s: the program ran" % mode, str(error))
        except Exception as error:
            import traceback
            traceback.print_exc()
            report.check(False, "%s ran to the end" % mode, "%s: %s" % (type(error).__name__, error))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
