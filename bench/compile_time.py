#!/usr/bin/env python3
"""Compile-time benchmark (issue 6, part 2): SDFGStream's sdfg-opt against
upstream MLIR 22's mlir-opt on the same synthetic programs.

usage: compile_time.py [--sizes 1000,10000,100000] [--runs 5] [--timeout 60]
                       [--out bench/results] [--build build] [--timing]
                       [--alt-build DIR] [--tools a,b,...]

For each size, bench/gen_programs.py writes one program (func.func form:
both tools read it), then each command below runs --runs times (fewer when a
run is slow: at most ~--timeout seconds per size and tool; a run over
--timeout is stopped and reported as such, and the larger sizes of that
command are skipped):

  sdfgstream          sdfg-opt --sdfg-lower-to-cuda="format=isa": the
                      stream passes (sdfg-add-external-gpu-stream,
                      sdfg-insert-host-syncs), outlining and the whole lowering,
                      kernels to PTX (no ptxas)
  sdfgstream-streams  sdfg-opt --sdfg-add-external-gpu-stream --sdfg-insert-host-syncs
  upstream            mlir-opt --gpu-async-region + the same upstream
                      passes (gpu-to-llvm, kernels to PTX)
  upstream+globals    upstream on the input plus one private llvm.mlir.global
                      per GPU op, as convert-sdfg-to-llvm adds them (an
                      experiment that isolates their cost)

Each tool prints its output to /dev/null (printing is part of the time, as
it is of any compiler driver). Writes OUT/compile-time.csv, prints a table
and the targets, and, with --timing, saves an -mlir-timing pass breakdown
of each tool at the largest size it finished (OUT/compile-time-passes.txt);
plots OUT/compile-time.png when matplotlib is available.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MLIR_BIN = "/usr/lib/llvm-22/bin"
UPSTREAM_PIPELINE = [
    "--gpu-async-region", "--lower-affine", "--convert-scf-to-cf",
    "--arith-expand", "--expand-strided-metadata",
    "--nvvm-attach-target=chip=sm_90 O=3", "--convert-gpu-to-nvvm",
    "--gpu-to-llvm", "--gpu-module-to-binary=format=isa",
    "--reconcile-unrealized-casts",
]


def commands(build, alt_build=None):
    sdfg_opt = os.path.join(build, "bin", "sdfg-opt")
    mlir_opt = os.path.join(MLIR_BIN, "mlir-opt")
    alt = {}
    if alt_build:
        alt["sdfgstream-alt"] = ([os.path.join(alt_build, "bin", "sdfg-opt"),
                                  "--sdfg-lower-to-cuda=format=isa"], "func")
    return {
        "sdfgstream": ([sdfg_opt, "--sdfg-lower-to-cuda=format=isa"], "func"),
        **alt,
        "sdfgstream-streams": (
            [sdfg_opt, "--sdfg-add-external-gpu-stream", "--sdfg-insert-host-syncs"],
            "func"),
        "upstream": ([mlir_opt] + UPSTREAM_PIPELINE, "func"),
        "upstream+globals": ([mlir_opt] + UPSTREAM_PIPELINE, "globals"),
    }


def add_location_globals(text):
    """The input plus one private global per host GPU op, at module level."""
    count = sum(text.count(op) for op in
                ("gpu.launch_func", "gpu.memcpy", "gpu.memset"))
    globals_ = "\n".join(
        f'  llvm.mlir.global private constant @__loc_{i}("in.mlir:1:1\\00") '
        "{addr_space = 0 : i32}" for i in range(count))
    anchor = "attributes {gpu.container_module} {"
    at = text.index(anchor) + len(anchor)
    return text[:at] + "\n" + globals_ + text[at:]


def run_once(argv, timeout):
    """Wall seconds and peak RSS (MiB) of one run; None on timeout."""
    env = dict(os.environ, PATH="/usr/local/cuda/bin:" + os.environ["PATH"])
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env)
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    elapsed = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode == -9 and elapsed >= timeout:
        return None, usage.ru_maxrss / 1024
    if process.returncode != 0:
        sys.exit(f"failed ({process.returncode}): {' '.join(argv)}\n{stderr}")
    return elapsed, usage.ru_maxrss / 1024


def pass_breakdown(argv):
    env = dict(os.environ, PATH="/usr/local/cuda/bin:" + os.environ["PATH"])
    result = subprocess.run(argv + ["--mlir-timing"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env, check=True)
    return result.stderr.decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--alt-build", help="another build tree whose "
                        "sdfg-opt runs as tool sdfgstream-alt (A/B tests)")
    parser.add_argument("--tools", help="comma-separated subset of the tools")
    parser.add_argument("--replot", action="store_true",
                        help="only redo the targets and the plot from "
                        "OUT/compile-time.csv")
    parser.add_argument("--timing", action="store_true",
                        help="also save an -mlir-timing pass breakdown")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    tools = {name: spec
             for name, spec in commands(args.build, args.alt_build).items()
             if not args.tools or name in args.tools.split(",")}
    os.makedirs(args.out, exist_ok=True)
    if args.replot:
        results = read_csv(os.path.join(args.out, "compile-time.csv"))
        report_targets(results, args.timeout)
        plot(results, args.out, args.timeout)
        return

    results = []  # (tool, size, ops, median or None, runs, rss)
    stopped = set()
    largest = {}
    with tempfile.TemporaryDirectory() as work:
        for size in sizes:
            path = os.path.join(work, f"p{size}.mlir")
            generated = subprocess.run(
                [sys.executable, os.path.join(HERE, "gen_programs.py"),
                 str(size), "-o", path],
                check=True, stderr=subprocess.PIPE).stderr.decode()
            ops = int(generated.split("ops:")[1])
            inputs = {"func": path}
            with open(path) as f:
                with_globals = add_location_globals(f.read())
            inputs["globals"] = os.path.join(work, f"p{size}.globals.mlir")
            with open(inputs["globals"], "w") as f:
                f.write(with_globals)
            for tool, (argv, form) in tools.items():
                if tool in stopped:
                    results.append((tool, size, ops, None, 0, None))
                    print(f"{tool:20} {ops:7} ops  skipped (smaller size "
                          "timed out)", flush=True)
                    continue
                command = argv + [inputs[form], "-o", "/dev/null"]
                times, rss = [], 0
                deadline = time.perf_counter() + args.timeout
                for _ in range(args.runs):
                    elapsed, peak = run_once(command, args.timeout)
                    if elapsed is None:
                        break
                    times.append(elapsed)
                    rss = max(rss, peak)
                    # Several runs, unless one alone takes a third of the
                    # time allowed; never much past the time allowed.
                    if elapsed > args.timeout / 3 or (
                            len(times) >= 3 and
                            time.perf_counter() + elapsed > deadline):
                        break
                if not times:
                    stopped.add(tool)
                    results.append((tool, size, ops, None, 0, None))
                    print(f"{tool:20} {ops:7} ops  > {args.timeout:g} s "
                          "(stopped)", flush=True)
                    continue
                median = statistics.median(times)
                results.append((tool, size, ops, median, len(times), rss))
                largest[tool] = (command, ops)
                print(f"{tool:20} {ops:7} ops  {median:8.3f} s  "
                      f"(median of {len(times)}, min {min(times):.3f}, "
                      f"max {max(times):.3f}, peak {rss:.0f} MiB)", flush=True)

        if args.timing:
            with open(os.path.join(args.out, "compile-time-passes.txt"), "w") as f:
                for tool, (command, ops) in largest.items():
                    f.write(f"== {tool}, {ops} ops: {' '.join(command)}\n")
                    f.write(pass_breakdown(command))
                    f.write("\n")

    csv_path = os.path.join(args.out, "compile-time.csv")
    with open(csv_path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["tool", "size", "ops", "median_s", "runs", "peak_mib"])
        for tool, size, ops, median, runs, rss in results:
            writer.writerow([tool, size, ops,
                             "" if median is None else f"{median:.4f}", runs,
                             "" if rss is None else f"{rss:.0f}"])
    print(f"wrote {csv_path}")
    report_targets(results, args.timeout)
    plot(results, args.out, args.timeout)


def read_csv(path):
    with open(path) as f:
        return [(r["tool"], int(r["size"]), int(r["ops"]),
                 float(r["median_s"]) if r["median_s"] else None,
                 int(r["runs"]), float(r["peak_mib"]) if r["peak_mib"] else None)
                for r in csv.DictReader(f)]


def report_targets(results, timeout):
    """Prints the targets; a timed-out run counts as taking `timeout`
    seconds, a lower bound, so a target it already misses is a MISS."""
    table = {(t, s): (ops, m) for t, s, ops, m, _, _ in results}
    sizes = sorted({s for _, s, _, _, _, _ in results})

    def seconds(value):
        return (timeout, ">") if value is None else (value, "")

    def verdict(value, bound, limit):
        """value <= limit? A lower bound can only prove a miss."""
        if value > limit:
            return "MISS"
        return "n/a " if bound else "PASS"

    print("\ntargets (issue 6)")
    for tool in ("sdfgstream", "sdfgstream-alt"):
        if not any(t == tool for t, *_ in results):
            continue
        ours = [table[(tool, s)] for s in sizes if (tool, s) in table]
        big = table.get((tool, 100000))
        if big:
            value, bound = seconds(big[1])
            print(f"  {verdict(value, bound, 2.0)} {tool} at "
                  f"{big[0]} ops: {bound}{value:.2f} s (<= 2 s)")
        for (ops0, t0), (ops1, t1) in zip(ours, ours[1:]):
            if t0 is None:
                print(f"  n/a  {tool} {ops0} -> {ops1} ops: timed out")
                continue
            value, bound = seconds(t1)
            growth = value / t0
            print(f"  {verdict(growth, bound, 1.1 * ops1 / ops0)} "
                  f"{tool} {ops0} -> {ops1} ops: time x{bound}{growth:.1f} "
                  f"for ops x{ops1 / ops0:.1f} (at most 1.1 x the op ratio)")
        for s in sizes:
            mine, theirs = table.get((tool, s)), table.get(("upstream", s))
            if not mine or not theirs or theirs[1] is None:
                continue
            value, bound = seconds(mine[1])
            ratio = value / theirs[1]
            print(f"  {verdict(ratio, bound, 1.5)} {tool} / upstream "
                  f"at {mine[0]} ops: {bound}{ratio:.2f} (<= 1.5)")


def plot(results, out, timeout):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        print(f"plot skipped: matplotlib is not available ({error})")
        return
    fig, ax = plt.subplots(figsize=(7, 5))
    for tool in dict.fromkeys(r[0] for r in results):
        points = [(ops, m) for t, _, ops, m, _, _ in results
                  if t == tool and m is not None]
        if not points:
            continue
        line, = ax.plot(*zip(*points), marker="o", label=tool)
        over = [ops for t, _, ops, m, _, _ in results
                if t == tool and m is None and ops]
        if over:
            # Stopped at the timeout: the time is a lower bound.
            ax.scatter(over, [timeout] * len(over), marker="^", s=70,
                       color=line.get_color(), zorder=3)
            ax.plot([points[-1][0], over[0]], [points[-1][1], timeout], ":",
                    color=line.get_color())
    ax.scatter([], [], marker="^", color="gray",
               label=f"stopped at the {timeout:g} s timeout (lower bound)")
    ops_range = [r[2] for r in results]
    lo, hi = min(ops_range), max(ops_range)
    ax.plot([lo, hi], [2.0 * lo / hi, 2.0], "k:", label="linear through 2 s at 100k")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("input operations")
    ax.set_ylabel("wall time, s (median)")
    ax.set_title("compile time, synthetic GPU programs (2-core machine)")
    ax.grid(which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out, "compile-time.png")
    fig.savefig(path, dpi=110)
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
