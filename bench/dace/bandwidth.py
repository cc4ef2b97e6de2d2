#!/usr/bin/env python3
"""Bandwidth of an imported DaCe program (issue 24), on the GPU machine.

triad_device (test/Import/DaCe/corpus/programs/triad_device.py: A = B + s * C
on device arrays of doubles, one GPU_Device map), as imported and built by
SDFGStream (bench/dace/build.sh: .device/dace/bench/triad_device.so), called
on a CuPy stream for arrays of --mib MiB each (default 64 and 256), against
in the same process:
  - the device's copy bandwidth: cudaMemcpyAsync device to device of one
    array (2 x size bytes moved), the ceiling a bandwidth-bound kernel is
    measured against;
  - a hand-written CUDA kernel of the triad (bench/dace/triad_hand.cu);
  - DaCe's own CUDA build of the same .sdfg file (bench/dace/dace_build.py),
    where staged: it runs on DaCe's streams and synchronizes at the end of
    the state, so it is timed by the host (call to return), as are host-wall
    figures of the other two.
The triad moves 3 x size bytes. Each figure is the median of --reps calls
timed with CUDA events on the stream (host wall for DaCe's build), the
variants interleaved. PASS when SDFGStream's triad reaches >= 85% of the copy
bandwidth and is no slower than 1.1 x the hand-written kernel (and DaCe's
build, where measured). Results are checked against NumPy first.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys

import numpy as np
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "examples", "python"))
import sdfgstream_ctypes as sc  # noqa: E402
from timing import event_ms, wall_ms  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(REPO, ".device", "dace", "bench"))
    ap.add_argument("--mib", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--json")
    args = ap.parse_args()

    lib = sc.Library(os.path.join(args.bench, "triad_device.so"))
    with open(os.path.join(args.bench, "triad_device.h")) as f:
        triad = lib.program_from_header("triad_device", f.read())
    hand = ctypes.CDLL(os.path.join(args.bench, "libtriad_hand.so")).triad_hand
    hand.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_double, ctypes.c_longlong,
                                             ctypes.c_void_p]
    hand.restype = ctypes.c_int
    dace_path = os.path.join(args.bench, "dace-triad_device", "libtriad_device.so")
    dace = ctypes.CDLL(dace_path) if os.path.exists(dace_path) else None
    if dace is None:
        print("note: no DaCe build of triad_device staged (%s)" % dace_path)

    stream = cp.cuda.Stream(non_blocking=True)
    device = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print("device: %s" % device)
    results = {"device": device, "sizes": []}
    ok = True
    for mib in args.mib:
        n = mib * 1024 * 1024 // 8
        size = n * 8
        rng = np.random.default_rng(mib)
        b_host, c_host = rng.standard_normal(n), rng.standard_normal(n)
        a, b, c = cp.zeros(n), cp.asarray(b_host), cp.asarray(c_host)
        s = 2.5
        want = b_host + s * c_host

        calls = {
            "copy": lambda: cp.cuda.runtime.memcpyAsync(
                a.data.ptr, b.data.ptr, size, cp.cuda.runtime.memcpyDeviceToDevice,
                stream.ptr),
            "sdfgstream": lambda: triad(A=a, B=b, C=c, N=n, s=s, stream=stream.ptr),
            "hand": lambda: hand(a.data.ptr, b.data.ptr, c.data.ptr, s, n, stream.ptr),
        }
        dace_state = None
        if dace is not None:
            dace.__dace_init_triad_device.argtypes = [ctypes.c_int32]
            dace.__dace_init_triad_device.restype = ctypes.c_void_p
            dace.__program_triad_device.argtypes = [ctypes.c_void_p] * 4 + [
                ctypes.c_int32, ctypes.c_double]
            dace.__dace_exit_triad_device.argtypes = [ctypes.c_void_p]
            dace_state = dace.__dace_init_triad_device(n)

            def dace_call():
                dace.__program_triad_device(dace_state, a.data.ptr, b.data.ptr,
                                            c.data.ptr, n, s)
                cp.cuda.runtime.deviceSynchronize()
            calls["dace"] = dace_call

        for name in ("sdfgstream", "hand") + (("dace",) if dace else ()):
            a.fill(0)
            stream.synchronize()
            calls[name]()
            cp.cuda.runtime.deviceSynchronize()
            good = bool(np.allclose(cp.asnumpy(a), want, rtol=1e-12, atol=1e-12))
            print("%s triad %d MiB: %s matches NumPy" % ("PASS" if good else "FAIL", mib, name))
            ok &= good

        times = {name: [] for name in calls}
        walls = {name: [] for name in calls}
        for _ in range(args.reps):
            for name, call in calls.items():
                if name == "dace":
                    walls[name].append(wall_ms(stream, call))
                else:
                    times[name].append(event_ms(stream, call))
                    walls[name].append(wall_ms(stream, call))
        if dace_state:
            dace.__dace_exit_triad_device(dace_state)
        med = {k: statistics.median(v) for k, v in times.items() if v}
        wall = {k: statistics.median(v) for k, v in walls.items()}
        copy_bw = 2 * size / (med["copy"] * 1e-3) / 1e9
        triad_bw = 3 * size / (med["sdfgstream"] * 1e-3) / 1e9
        hand_bw = 3 * size / (med["hand"] * 1e-3) / 1e9
        row = {"mib": mib, "n": n, "event_ms": med, "wall_ms": wall,
               "copy_GBps": copy_bw, "sdfgstream_GBps": triad_bw, "hand_GBps": hand_bw,
               "fraction_of_copy": triad_bw / copy_bw,
               "vs_hand": med["sdfgstream"] / med["hand"]}
        line = ("triad %d MiB: copy %.0f GB/s (%.3f ms), SDFGStream %.0f GB/s (%.3f ms) = "
                "%.1f%% of copy, hand-written %.0f GB/s (%.3f ms), SDFGStream/hand %.3f"
                % (mib, copy_bw, med["copy"], triad_bw, med["sdfgstream"],
                   100 * triad_bw / copy_bw, hand_bw, med["hand"], row["vs_hand"]))
        if "dace" in wall:
            row["vs_dace_wall"] = wall["sdfgstream"] / wall["dace"]
            line += "; host wall: SDFGStream %.3f ms, DaCe's build %.3f ms, ratio %.3f" % (
                wall["sdfgstream"], wall["dace"], row["vs_dace_wall"])
        print(line)
        good = row["fraction_of_copy"] >= 0.85 and row["vs_hand"] <= 1.1 and \
            row.get("vs_dace_wall", 1.0) <= 1.1
        print("%s triad %d MiB: >= 85%% of copy bandwidth, <= 1.1 x hand-written%s"
              % ("PASS" if good else "FAIL", mib,
                 " and DaCe's build" if "dace" in wall else ""))
        ok &= good
        results["sizes"].append(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("bandwidth: %s" % ("all passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
