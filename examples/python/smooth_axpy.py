#!/usr/bin/env python3
"""Runs an SDFGStream program compiled ahead of time on CuPy and PyTorch
streams, through ctypes.

The program (smooth_axpy.mlir, built by
`sdfg-compile smooth_axpy.mlir -o smooth_axpy.so --header smooth_axpy.h`)
smooths x with a 3-point stencil into a transient device buffer, computes
u = alpha * smoothed + y into a second transient, copies u to `out` and
reduces it into `sum`. Every copy, kernel, stream-ordered allocation and
free is enqueued on the stream passed as its last argument.

  smooth_axpy.py self-check   no GPU needed: descriptor layouts and packing,
                              the header's declarations, the CPU twin of the
                              program on host arrays, the error path
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
import ctypes
import math
import os
import struct
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from sdfgstream_ctypes import (  # noqa: E402
    Library,
    MemRefArg,
    ProgramError,
    check_header,
    memref,
    memref_from_array,
    memref_layout,
    memref_type,
)

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


def bind(library):
    """The two programs of smooth_axpy.so, as the header declares them."""
    vector, scalar = MemRefArg(1, "float32"), MemRefArg(0, "float32")
    arguments = [vector, vector, vector, scalar, ctypes.c_float]
    gpu = library.program("smooth_axpy", arguments, stream=True)
    host = library.program("smooth_axpy_host", arguments, stream=False)
    return gpu, host


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
# self-check: no GPU, CuPy or PyTorch needed
#===----------------------------------------------------------------------===#

def self_check(args, report):
    np = try_import_numpy()
    report.info("self-check with %s host arrays"
                % ("NumPy %s" % np.__version__ if np is not None else "ctypes (NumPy not installed)"))

    # 1. Descriptor layouts: {T *allocated, T *aligned, int64 offset,
    #    int64 sizes[rank], int64 strides[rank]}, no padding.
    ok = True
    for rank in range(4):
        line = memref_layout(rank)
        print("layout " + line)
        layout = memref_type(rank)
        want = {"allocated": 0, "aligned": 8, "offset": 16}
        if rank:
            want.update(sizes=24, strides=24 + 8 * rank)
        ok &= ctypes.sizeof(layout) == 24 + 16 * rank
        ok &= all(getattr(layout, name).offset == at for name, at in want.items())
    report.check(ok, "descriptor layouts of ranks 0-3 are MLIR's {ptr, ptr, i64, i64[r], i64[r]}")

    # 2. Packing from an address, shape and element strides.
    descriptor = memref(0x10000, [5, 7])
    packed = struct.unpack("<QQqqqqq", ctypes.string_at(ctypes.addressof(descriptor),
                                                         ctypes.sizeof(descriptor)))
    report.check(packed == (0x10000, 0x10000, 0, 5, 7, 7, 1),
                 "a 5x7 descriptor packs as allocated, aligned, offset 0, sizes, row-major strides",
                 "bytes as int64: %s" % (packed,))
    scalar = memref(0x20000, [])
    packed = struct.unpack("<QQq", ctypes.string_at(ctypes.addressof(scalar), ctypes.sizeof(scalar)))
    report.check(packed == (0x20000, 0x20000, 0), "a rank-0 descriptor packs as allocated, aligned, offset 0")
    try:
        memref(0x10000, [8], strides=[2])
        report.check(False, "a strided view is refused for an identity-layout memref")
    except ValueError as error:
        report.check(True, "a strided view is refused for an identity-layout memref", str(error))
    # An empty array has nothing to read: zero strides (NumPy's for it) pass.
    try:
        empty = memref(0x10000, [0, 4], strides=[0, 0])
        report.check(list(empty.sizes) == [0, 4] and list(empty.strides) == [4, 1],
                     "an empty 0x4 array packs whatever its strides")
    except ValueError as error:
        report.check(False, "an empty 0x4 array packs whatever its strides", str(error))
    try:
        memref_from_array([1.0, 2.0])
        report.check(False, "a Python list is refused as not an array")
    except TypeError as error:
        report.check("not an array" in str(error), "a Python list is refused as not an array",
                     str(error))

    buffers = []

    def host_vector(values):
        """A float32 host array: NumPy if installed, else a ctypes array."""
        if np is not None:
            array = np.asarray(values, dtype=np.float32)
        else:
            array = (ctypes.c_float * len(values))(*values)
        buffers.append(array)
        return array

    def host_values(array):
        return [float(v) for v in array]

    if np is not None:
        matrix = np.zeros((3, 4), dtype=np.float32)
        d = memref_from_array(matrix)
        tail = memref_from_array(matrix.reshape(-1)[5:])
        report.check(list(d.sizes) == [3, 4] and list(d.strides) == [4, 1]
                     and d.aligned == matrix.ctypes.data
                     and tail.aligned == matrix.ctypes.data + 5 * 4 and list(tail.sizes) == [7],
                     "NumPy arrays and views: address, sizes and strides taken from the array")
        try:
            memref_from_array(matrix[:, ::2])
            report.check(False, "a non-contiguous NumPy view is refused")
        except ValueError:
            report.check(True, "a non-contiguous NumPy view is refused")
        try:
            memref_from_array(np.zeros(4, dtype=">f4" if np.little_endian else "<f4"))
            report.check(False, "an array not in the machine's byte order is refused")
        except ValueError:
            report.check(True, "an array not in the machine's byte order is refused")
    else:
        report.skip("NumPy arrays and views", "NumPy not installed")

    # 3. The header's declarations against the ones made here.
    library = Library(args.lib)
    gpu, host = bind(library)
    if args.header:
        with open(args.header) as file:
            problems = check_header([gpu, host], file.read())
        report.check(not problems, "%s declares the programs and descriptors as bound here"
                     % os.path.basename(args.header), "; ".join(problems))
    else:
        report.skip("header check", "no --header given and none next to the library")

    # 4. The runtime's C API, and the CPU twin of the program on host arrays:
    #    the same descriptors through the real ABI.
    report.check(library.last_error() == "" and library.last_error_code() == 0,
                 "sdfgrtGetLastError() is empty before any call")
    n = 1000
    xs = [((i * 37) % 101) / 101.0 for i in range(n)]
    ys = [((i * 53) % 89) / 89.0 - 0.5 for i in range(n)]
    x, y, out, total = host_vector(xs), host_vector(ys), host_vector([0.0] * n), host_vector([0.0])
    if np is not None:
        total = np.zeros((), dtype=np.float32)
        buffers.append(total)
        total_descriptor = memref_from_array(total)
    else:
        total_descriptor = memref(ctypes.addressof(total), [])
    status = host.call(memref_from_array(x), memref_from_array(y), memref_from_array(out),
                       total_descriptor, ALPHA)
    expected, expected_sum = reference_python(host_values(x), host_values(y))
    wrong, largest = compare(np, host_values(out), expected)
    got_sum = float(total) if np is not None else total[0]
    report.check(status == 0 and wrong == 0 and close(got_sum, expected_sum, 1e-3),
                 "smooth_axpy_host on %d host elements matches the reference" % n,
                 "status %d, %d wrong, max |diff| %.3g, sum %.6g vs %.6g"
                 % (status, wrong, largest, got_sum, expected_sum))
    # A view that starts inside the arrays: the descriptor's addresses move.
    if np is not None:
        xv, yv, outv = x[3:], y[3:], out[3:]
    else:
        view = ctypes.c_float * (n - 3)
        xv, yv, outv = (view.from_address(ctypes.addressof(a) + 12) for a in (x, y, out))
    status = host.call(memref_from_array(xv), memref_from_array(yv), memref_from_array(outv),
                       total_descriptor, ALPHA)
    expected, expected_sum = reference_python(host_values(xv), host_values(yv))
    wrong, largest = compare(np, host_values(outv), expected)
    got_sum = float(total) if np is not None else total[0]
    report.check(status == 0 and wrong == 0 and close(got_sum, expected_sum, 1e-3),
                 "smooth_axpy_host on views starting at element 3 matches the reference",
                 "status %d, %d wrong, sum %.6g vs %.6g" % (status, wrong, got_sum, expected_sum))
    # Declared from the header instead: types and argument names as the
    # header spells them (DaCe's names for an imported SDFG), called with
    # keywords.
    if args.header:
        with open(args.header) as file:
            named = library.program_from_header("smooth_axpy_host", file.read())
        status = named.call(alpha=ALPHA, sum=total_descriptor, out=memref_from_array(out),
                            y=memref_from_array(y), x=memref_from_array(x))
        expected, expected_sum = reference_python(host_values(x), host_values(y))
        wrong, largest = compare(np, host_values(out), expected)
        report.check(named.names == ["x", "y", "out", "sum", "alpha"]
                     and status == 0 and wrong == 0,
                     "smooth_axpy_host declared from the header, called by argument names",
                     "names %s, status %d, %d wrong" % (named.names, status, wrong))
        try:
            named(x=x, y=y, out=out, sum=total_descriptor, beta=ALPHA)
            report.check(False, "an unknown argument name is refused before the call")
        except TypeError as error:
            report.check("no argument 'beta'" in str(error),
                         "an unknown argument name is refused before the call", str(error))
    try:
        host(memref(0, [n, 1]), y, out, total_descriptor, ALPHA)
        report.check(False, "a descriptor of the wrong rank is refused before the call")
    except TypeError as error:
        report.check(True, "a descriptor of the wrong rank is refused before the call", str(error))

    # 5. The error path: the GPU program with a vendor library that cannot
    #    be loaded fails with a status and the runtime's text, and does not
    #    touch the (host) buffers.
    os.environ["SDFGRT_CUDA_LIBRARY"] = "/nonexistent/libcuda-for-self-check.so.1"
    status = gpu.call(x, y, out, total_descriptor, ALPHA, stream=0)
    text = library.last_error()
    print("status %d: %s" % (status, text))
    report.check(status != 0 and "could not be loaded" in text and "smooth_axpy.mlir" in text,
                 "a failing GPU call returns a non-zero status; sdfgrtGetLastError() names "
                 "the failure and the .mlir location")
    try:
        gpu(x, y, out, total_descriptor, ALPHA, stream=0)
        report.check(False, "Program.__call__ raises ProgramError on a non-zero status")
    except ProgramError as error:
        report.check(error.status == status and error.text == text,
                     "Program.__call__ raises ProgramError on a non-zero status", str(error))


#===----------------------------------------------------------------------===#
# (a) CuPy: a non-blocking stream and MemoryAsyncPool
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
    status = gpu.call(x, y, out, total, ALPHA, stream=stream.ptr)
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
    status = gpu.call(x, y, out, total, ALPHA, stream=stream.ptr)
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
        status = gpu.call(x2, y, out, total, ALPHA, stream=stream.ptr)
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
            status = gpu.call(*arrays, ALPHA, stream=stream.ptr)
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
    descriptors = [memref_from_array(t) for t in (x, y, out, total)]

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
        return after[key] - before[key]

    # An eager call on the PyTorch stream first (it also loads the kernels).
    xh, yh = new_inputs()
    stats_before = graph_stats()
    with torch.cuda.stream(stream):
        x.copy_(torch.from_numpy(xh))
        y.copy_(torch.from_numpy(yh))
        status = gpu.call(*descriptors, ALPHA, stream=stream.cuda_stream)
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
                         grew(stats_before, stats, "eagerCalls")))
        stats_before = stats

    # Capture one call into a graph.
    graph = torch.cuda.CUDAGraph()
    captured = {}
    stream.synchronize()
    try:
        with torch.cuda.graph(graph, stream=stream):
            captured["stream"] = torch.cuda.current_stream().cuda_stream
            captured["status"] = gpu.call(*descriptors, ALPHA, stream=stream.cuda_stream)
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
        report.check(launched == 0 and grew(stats_before, stats, "eagerCalls") == 1,
                     "graph mode: the captured call went eagerly into torch's graph",
                     "graphs built/updated/replayed %d, eager calls %+d" % (
                         launched, grew(stats_before, stats, "eagerCalls")))

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

    eager_us = median_us(lambda: gpu(*descriptors, ALPHA, stream=stream.cuda_stream))
    replay_us = median_us(graph.replay)
    print("RESULT timing: n = %d, median of 50: eager call + sync %.1f us, graph replay + sync %.1f us"
          % (n, eager_us, replay_us))
    del graph


#===----------------------------------------------------------------------===#

def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modes", nargs="+", choices=["self-check", "cupy", "torch"],
                        help="what to run")
    parser.add_argument("--lib", default=os.environ.get(
        "SMOOTH_AXPY_LIB", os.path.join(HERE, "smooth_axpy.so")),
        help="the library built by sdfg-compile (default: smooth_axpy.so next to this script)")
    parser.add_argument("--header", default=None,
                        help="its header (sdfg-compile --header), checked by self-check "
                        "(default: the .h next to the library, if any)")
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
    if "self-check" in args.modes and len(args.modes) > 1:
        parser.error("self-check runs alone (it makes the GPU runtime fail on purpose)")
    if args.header is None:
        candidate = os.path.splitext(args.lib)[0] + ".h"
        args.header = candidate if os.path.exists(candidate) else None
    if args.n < 2:
        parser.error("-n must be at least 2")

    report = Report(" ".join(args.modes))
    print("library: %s" % os.path.abspath(args.lib), flush=True)
    if "self-check" in args.modes:
        try:
            self_check(args, report)
        except Exception as error:  # report, don't trace back
            report.check(False, "self-check ran to the end", "%s: %s" % (type(error).__name__, error))
        return report.finish()

    library = Library(args.lib)
    gpu, _ = bind(library)
    for mode, run in (("cupy", run_cupy), ("torch", run_torch)):
        if mode not in args.modes:
            continue
        print("== %s" % mode, flush=True)
        try:
            run(args, report, library, gpu)
        except ImportError as error:
            report.check(False, "%s is importable" % mode, str(error))
        except ProgramError as error:
            report.check(False, "%s: the program ran" % mode, str(error))
        except Exception as error:
            import traceback
            traceback.print_exc()
            report.check(False, "%s ran to the end" % mode, "%s: %s" % (type(error).__name__, error))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
