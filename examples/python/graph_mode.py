#!/usr/bin/env python3
"""Graph mode on a CuPy stream, through the sdfgstream package.

The library is smooth_axpy.mlir compiled in graph mode
(`sdfg-compile smooth_axpy.mlir --graph-mode -o smooth_axpy_graph.so`): each
call's GPU work (two transients, two kernels, a copy, the reduction's memset
and kernel) is launched as one cached CUDA graph instead of op by op. The
same library runs eagerly when graph mode is turned off at run time
(Library.set_graph_mode), so the script compares both on one non-blocking CuPy
stream with CuPy's MemoryAsyncPool:

  * results against NumPy in graph mode, with inputs CuPy changes between
    calls on the stream and with the arrays alternating between two sets
    (the graph's nodes are then updated in place), no host sync between;
  * median host time of a call (enqueue only) and of a call + stream sync,
    eager and in graph mode, on a small (launch-bound) problem, and the
    speed-up.

  graph_mode.py [--lib smooth_axpy_graph.so] [-n 4096] [--calls 1000]

Every check prints a PASS or FAIL line; the exit status is 1 if any failed.
"""

import argparse
import importlib.util
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


def _load_example():
    """smooth_axpy.py, loaded from its file: the README builds the program
    as smooth_axpy.so next to it, and `import smooth_axpy` would find that
    library first (Python prefers an extension module's suffix) and fail."""
    spec = importlib.util.spec_from_file_location(
        "smooth_axpy_example", os.path.join(HERE, "smooth_axpy.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_example = _load_example()
ALPHA, Report, compare, reference_numpy = (
    _example.ALPHA, _example.Report, _example.compare, _example.reference_numpy)


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def run(args, report):
    import numpy as np
    import cupy as cp

    library = sdfgstream.load(args.lib)
    gpu = library.smooth_axpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MemoryAsyncPool is "experimental"
        cp.cuda.set_allocator(cp.cuda.MemoryAsyncPool().malloc)
    stream = cp.cuda.Stream(non_blocking=True)
    n = args.n
    rng = np.random.default_rng(args.seed)
    with stream:
        sets = []
        for _ in range(2):
            x = cp.asarray(rng.random(n, dtype=np.float32))
            y = cp.asarray(rng.random(n, dtype=np.float32))
            sets.append((x, y, cp.empty(n, dtype=cp.float32),
                         cp.zeros((), dtype=cp.float32)))
    stream.synchronize()

    def call(arrays):
        x, y, out, total = arrays
        return _example.call(gpu, x, y, out, total, ALPHA, stream=stream)

    # Graph mode: CuPy changes the input on the stream before each call, the
    # arrays alternate between the two sets; no host sync until the check.
    library.set_graph_mode("update")
    before = library.graph_stats()
    wrong_calls = 0
    for i in range(args.checked_calls):
        arrays = sets[i % 2]
        x, y, out, total = arrays
        with stream:
            x *= np.float32(0.5)
            x += np.float32(i % 7)
            out.fill(-1)
        status = call(arrays)
        if status != 0:
            report.check(False, "graph-mode call", "status %d: %s"
                         % (status, library.last_error()))
            return
        if i % 50 == 0 or i == args.checked_calls - 1:
            expected, _ = reference_numpy(np, x.get(stream=stream), y.get(stream=stream))
            wrong, _ = compare(np, out.get(stream=stream), expected)
            wrong_calls += wrong != 0
    stats = library.graph_stats()._asdict()
    before = before._asdict()
    delta = {k: stats[k] - before[k] for k in stats if k not in ("programs", "buffer_bytes")}
    report.check(wrong_calls == 0,
                 "graph mode on a CuPy stream: results match NumPy with inputs "
                 "changed by CuPy on the stream and the arrays alternating",
                 "%d checked calls wrong" % wrong_calls)
    report.check(delta["builds"] >= 1 and delta["eager_calls"] == 0 and
                 delta["updates"] + delta["replays"] >= args.checked_calls - 1,
                 "the calls ran as cached graphs (built once, then updated in "
                 "place or replayed)", str(delta))

    # Timing: one array set, each call from an idle stream.
    arrays = sets[0]

    def time_calls(mode, sync):
        library.set_graph_mode(mode)
        for _ in range(20):
            call(arrays)
        stream.synchronize()
        samples = []
        for _ in range(args.calls):
            start = time.perf_counter()
            call(arrays)
            if sync:
                stream.synchronize()
            samples.append((time.perf_counter() - start) * 1e6)
            if not sync:
                stream.synchronize()
        return median(samples)

    eager_host = time_calls("eager", False)
    graph_host = time_calls("update", False)
    eager_sync = time_calls("eager", True)
    graph_sync = time_calls("update", True)
    library.set_graph_mode("update")
    print("RESULT graph mode on a CuPy stream, n = %d, median of %d calls: "
          "host time per call eager %.1f us, graph mode %.1f us (%.2fx faster); "
          "call + stream sync eager %.1f us, graph mode %.1f us (%.2fx faster)"
          % (n, args.calls, eager_host, graph_host, eager_host / graph_host,
             eager_sync, graph_sync, eager_sync / graph_sync), flush=True)
    report.check(graph_host < eager_host,
                 "graph mode enqueues a call in less host time than eager",
                 "%.1f vs %.1f us" % (graph_host, eager_host))


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lib", default=os.environ.get(
        "SMOOTH_AXPY_GRAPH_LIB", os.path.join(HERE, "smooth_axpy_graph.so")),
        help="smooth_axpy.mlir built with sdfg-compile --graph-mode")
    parser.add_argument("-n", type=int, default=4096, help="elements (default 4096)")
    parser.add_argument("--calls", type=int, default=1000,
                        help="timed calls per row (default 1000)")
    parser.add_argument("--checked-calls", type=int, default=500,
                        help="graph-mode calls whose inputs change (default 500)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    report = Report("graph-mode")
    print("library: %s" % os.path.abspath(args.lib), flush=True)
    try:
        run(args, report)
    except ImportError as error:
        report.check(False, "CuPy is importable", str(error))
    except Exception as error:
        import traceback
        traceback.print_exc()
        report.check(False, "graph mode ran to the end",
                     "%s: %s" % (type(error).__name__, error))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
