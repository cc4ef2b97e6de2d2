#!/usr/bin/env python3
"""The graph-replay rows of sdfg-bench-calls in both capture orders.

Usage: graph_orders.py HAND_FIRST/summary.csv SDFG_FIRST/summary.csv

Whichever of the two graphs (hand-written, SDFGStream) is captured and
instantiated second replays slower on an idle GPU (docs/benchmarks.md), so
bench/run.sh runs the launch-bound program twice, in two processes: the
default order (hand-written graph captured first) and with
SDFG_BENCH_CAPTURE_SDFG_FIRST=1. This prints the hand-graph and sdfg-graph
rows of both runs side by side (host and device medians, us), the ratio
sdfg-graph / hand-graph within each run, and the ratio across the runs with
each graph captured first (SDFGStream's from the second run over the
hand-written one from the first). Standard library only.
"""

import csv
import math
import sys


def medians(path):
    """{(program, load, row): (host median, device median)} of the ok rows."""
    with open(path, newline="") as f:
        return {
            (r["program"], r["load"], r["row"]): (
                float(r["host_median_us"]),
                float(r["device_median_us"]),
            )
            for r in csv.DictReader(f)
            if r["status"] == "ok" and r["row"] in ("hand-graph", "sdfg-graph")
        }


def text(value, digits):
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    hand_first, sdfg_first = medians(sys.argv[1]), medians(sys.argv[2])
    keys = sorted({k[:2] for k in sdfg_first}, key=lambda k: (k[0], k[1] != "idle"))
    print("graph replay by capture order: medians in us; each order its own process")
    header = (
        f"{'program':<16} {'load':<4} {'captured first':<32} | "
        f"{'hand-graph host / device':>24} | {'sdfg-graph host / device':>24} | "
        f"{'sdfg / hand host / device':>25}"
    )
    print(header)
    if not keys:
        print("(no graph rows in", sys.argv[2] + ")")
    for program, load in keys:
        def get(run, row):
            return run.get((program, load, row), (None, None))

        lines = [
            ("hand-written (run 1, default)", get(hand_first, "hand-graph"),
             get(hand_first, "sdfg-graph")),
            ("SDFGStream (run 2)", get(sdfg_first, "hand-graph"),
             get(sdfg_first, "sdfg-graph")),
            ("each first: hand 1, sdfg 2", get(hand_first, "hand-graph"),
             get(sdfg_first, "sdfg-graph")),
        ]
        for order, hand, sdfg in lines:
            print(
                f"{program:<16} {load:<4} {order:<32} | "
                f"{text(hand[0], 1):>11} / {text(hand[1], 1):>10} | "
                f"{text(sdfg[0], 1):>11} / {text(sdfg[1], 1):>10} | "
                f"{text(ratio(sdfg[0], hand[0]), 3):>12} / "
                f"{text(ratio(sdfg[1], hand[1]), 3):>10}"
            )


if __name__ == "__main__":
    main()
