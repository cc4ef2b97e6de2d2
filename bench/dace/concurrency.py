#!/usr/bin/env python3
"""DaCe's concurrency on the caller's stream (issue 24), on the GPU machine.

From what bench/dace/build.sh staged in .device/dace/bench:

1. independent_maps (two GPU maps of one state, DaCe streams 0 and 1): N
   threads (66 blocks of 32: the two kernels together fill half an H100's
   SMs each) and K, the length of each thread's FMA chain, calibrated so that
   the build without --concurrent-streams takes about 2 ms per call (two
   maps of ~1 ms one after the other). The build with --concurrent-streams
   must take <= 1.2 ms: its slots run side by side, forked from the caller's
   stream and joined back. Times are CUDA events recorded on the caller's
   stream around the call (median of --reps calls, interleaved), with a
   host-wall figure (call + synchronize) for comparison with DaCe's own build
   (bench/dace/dace_build.py), which runs on DaCe's own streams and
   synchronizes the host itself. Outputs are checked against a CuPy kernel
   doing the same chain.
2. dependent_maps (map 1 writes T on slot 0; Y = T + ... on slot 0 and
   Z = 2 T on slot 1): with --concurrent-streams, the slot-1 consumer must
   wait for map 1. Each of --runs calls gets new integer inputs X behind a
   spin kernel; the ordered build must be right in every run, and the build
   with the wait withheld (--test-omit-stream-waits) must be wrong in at
   least one: the negative control, in the same process.

Prints one line per measurement and PASS/FAIL lines; exits 1 on a FAIL.
--json FILE writes the numbers.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import numpy as np
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "python"))
import sdfgstream  # noqa: E402
from timing import event_ms, wall_ms  # noqa: E402

SPIN = cp.RawKernel(r"""
extern "C" __global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) { }
}""", "spin")

CHAIN = cp.ElementwiseKernel(
    "float32 x, int32 K, float32 a, float32 b", "float32 y",
    "float v = x; for (int k = 0; k < K; ++k) v = v * a + b; y = v;", "chain")


def load(bench, name, program):
    return sdfgstream.load(os.path.join(bench, name + ".so"))[program]


def spin_cycles(ms):
    rate_khz = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["clockRate"]
    return np.int64(rate_khz * ms)


class DaCeProgram:
    """DaCe's own build: __dace_init_<name>(symbols) -> state,
    __program_<name>(state, arrays..., symbols...), __dace_exit_<name>."""

    def __init__(self, path, name, init_types, call_types, init_args):
        self.dll = ctypes.CDLL(path)
        init = getattr(self.dll, "__dace_init_" + name)
        init.argtypes, init.restype = init_types, ctypes.c_void_p
        self.program = getattr(self.dll, "__program_" + name)
        self.program.argtypes = [ctypes.c_void_p] + call_types
        self.program.restype = None
        self.exit = getattr(self.dll, "__dace_exit_" + name)
        self.exit.argtypes, self.exit.restype = [ctypes.c_void_p], ctypes.c_int
        self.state = init(*init_args)
        if not self.state:
            raise RuntimeError("__dace_init_%s failed" % name)

    def __call__(self, *args):
        self.program(self.state, *args)

    def close(self):
        self.exit(self.state)


def independent(args, bench, stream, results):
    serial = load(bench, "independent_maps_serial", "independent_maps")
    concurrent = load(bench, "independent_maps_concurrent", "independent_maps")
    n = args.threads
    rng = np.random.default_rng(7)
    x0 = cp.asarray(rng.standard_normal(n).astype(np.float32))
    y0 = cp.asarray(rng.standard_normal(n).astype(np.float32))
    x, y = x0.copy(), y0.copy()

    def run(program, k):
        return lambda: program(X=x, Y=y, K=k, N=n, stream=stream.ptr)

    # Calibrate K for ~2 ms serial (two ~1 ms maps).
    k = 20000
    for _ in range(3):
        run(serial, k)()
        t = statistics.median(event_ms(stream, run(serial, k)) for _ in range(5))
        k = max(1, int(k * args.target_ms / t))
    results["independent"] = {"N": n, "K": k}

    # Correctness of both builds at this K.
    with stream:
        want_x = CHAIN(x0, np.int32(k), np.float32(0.999), np.float32(0.001))
        want_y = CHAIN(y0, np.int32(k), np.float32(0.998), np.float32(0.002))
    ok = True
    for label, program in (("serial", serial), ("concurrent", concurrent)):
        x[...] = x0
        y[...] = y0
        run(program, k)()
        stream.synchronize()
        good = (bool(cp.allclose(x, want_x, rtol=1e-4, atol=1e-5))
                and bool(cp.allclose(y, want_y, rtol=1e-4, atol=1e-5)))
        print("%s independent_maps %s build: results match the CuPy chain"
              % ("PASS" if good else "FAIL", label))
        ok &= good

    times = {"serial": [], "concurrent": [], "serial-wall": [], "concurrent-wall": []}
    for _ in range(args.reps):
        times["serial"].append(event_ms(stream, run(serial, k)))
        times["concurrent"].append(event_ms(stream, run(concurrent, k)))
        times["serial-wall"].append(wall_ms(stream, run(serial, k)))
        times["concurrent-wall"].append(wall_ms(stream, run(concurrent, k)))
    dace_path = os.path.join(bench, "dace-independent_maps", "libindependent_maps.so")
    if os.path.exists(dace_path):
        i32, ptr = ctypes.c_int32, ctypes.c_void_p
        dace = DaCeProgram(dace_path, "independent_maps", [i32, i32], [ptr, ptr, i32, i32],
                           [k, n])
        times["dace-wall"] = []
        for _ in range(args.reps):
            stream.synchronize()
            t = time.perf_counter()
            dace(ptr(x.data.ptr), ptr(y.data.ptr), k, n)
            cp.cuda.runtime.deviceSynchronize()
            times["dace-wall"].append((time.perf_counter() - t) * 1e3)
        dace.close()
    else:
        print("note: no DaCe build of independent_maps staged (%s)" % dace_path)
    medians = {key: statistics.median(v) for key, v in times.items()}
    results["independent"].update({"median_ms": medians})
    for key, value in medians.items():
        print("independent_maps N=%d K=%d %-16s median %.3f ms" % (n, k, key, value))
    good = medians["concurrent"] <= args.concurrent_max_ms and \
        medians["serial"] >= args.serial_min_ms
    print("%s independent_maps: %.3f ms with --concurrent-streams (<= %.2f), %.3f ms "
          "without (>= %.2f)" % ("PASS" if good else "FAIL", medians["concurrent"],
                                 args.concurrent_max_ms, medians["serial"],
                                 args.serial_min_ms))
    return ok and good


def dependent(args, bench, stream, results):
    ordered = load(bench, "dependent_maps_ordered", "dependent_maps")
    omitted = load(bench, "dependent_maps_omit_waits", "dependent_maps")
    n, k = args.threads, args.dependent_k
    rng = np.random.default_rng(11)
    cycles = spin_cycles(args.spin_ms)
    y = cp.zeros(n, np.float32)
    z = cp.zeros(n, np.float32)
    ok = True
    counts = {}
    for label, program, must_fail in (("ordered", ordered, False),
                                      ("wait withheld", omitted, True)):
        wrong = 0
        for _ in range(args.runs):
            x_host = rng.integers(0, 1000, n).astype(np.float32)
            x = cp.asarray(x_host)
            stream.synchronize()
            with stream:
                SPIN((1,), (1,), (cycles,))
            program(X=x, Y=y, Z=z, K=k, N=n, stream=stream.ptr)
            stream.synchronize()
            t = x_host + np.float32(k)
            if not (np.array_equal(cp.asnumpy(z), t * np.float32(2))
                    and np.array_equal(cp.asnumpy(y), t + np.float32(2 * k))):
                wrong += 1
        counts[label] = wrong
        good = wrong > 0 if must_fail else wrong == 0
        print("%s dependent_maps %s: %d of %d runs wrong%s"
              % ("PASS" if good else "FAIL", label, wrong, args.runs,
                 " (negative control: must be wrong)" if must_fail else ""))
        ok &= good
    results["dependent"] = {"N": n, "K": k, "runs": args.runs, "wrong": counts}
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(REPO, ".device", "dace", "bench"))
    ap.add_argument("--threads", type=int, default=66 * 32)
    ap.add_argument("--target-ms", type=float, default=2.0,
                    help="serial time of independent_maps that K is calibrated to")
    ap.add_argument("--concurrent-max-ms", type=float, default=1.2)
    ap.add_argument("--serial-min-ms", type=float, default=1.6)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--dependent-k", type=int, default=200000,
                    help="chain length of dependent_maps (map 1 runs ~1 ms)")
    ap.add_argument("--spin-ms", type=float, default=1.0)
    ap.add_argument("--json")
    args = ap.parse_args()
    stream = cp.cuda.Stream(non_blocking=True)
    results = {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}
    print("device: %s" % results["device"])
    ok = independent(args, args.bench, stream, results)
    ok &= dependent(args, args.bench, stream, results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("concurrency: %s" % ("all passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
