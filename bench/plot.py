#!/usr/bin/env python3
"""Plots the call-overhead benchmark: OUT/summary.csv -> OUT/calls.png.

usage: plot.py OUT

One panel per program; per row, the median host time per call (bar) with
its 10th-90th percentile range (whisker), idle and next to the unrelated
20 ms kernel ("busy"), on a log scale. Without matplotlib it says so and
exits 0: the table and the CSV files are the results, the plot is a view.
"""
import csv
import os
import sys


def plot_panel(ax, rows, labels, metric):
    """Median bars with p10-p90 whiskers, idle and busy, one pair a row."""
    height = 0.4
    for offset, load, color in ((-height / 2, "idle", "tab:blue"),
                                (height / 2, "busy", "tab:orange")):
        ys, medians, low, high = [], [], [], []
        for i, label in enumerate(labels):
            match = [r for r in rows if r["row"] == label and r["load"] == load]
            if not match:
                continue
            median = float(match[0][f"{metric}_median_us"])
            ys.append(i + offset)
            medians.append(median)
            low.append(median - float(match[0][f"{metric}_p10_us"]))
            high.append(float(match[0][f"{metric}_p90_us"]) - median)
        ax.barh(ys, medians, height=height, color=color, xerr=[low, high],
                capsize=2, label=load + (" (a 20 ms kernel runs on another "
                                         "stream)" if load == "busy" else ""))
        for y, median, above in zip(ys, medians, high):
            ax.text((median + above) * 1.1, y, f"{median:.1f}", va="center",
                    fontsize=7)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xscale("log")
    left, right = ax.get_xlim()
    ax.set_xlim(left, right * 3)  # room for the labels
    ax.grid(axis="x", which="both", alpha=0.3)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        print(f"plot skipped: matplotlib is not available ({error})")
        return

    with open(os.path.join(out, "summary.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    programs = list(dict.fromkeys(r["program"] for r in rows))
    if not programs:
        print("plot skipped: no successful rows in summary.csv")
        return

    metrics = (("host", "host time per call, µs"),
               ("device", "device time per call (events), µs"))
    fig, axes = plt.subplots(len(metrics), len(programs),
                             figsize=(7.5 * len(programs), 10), squeeze=False)
    for column, program in enumerate(programs):
        mine = [r for r in rows if r["program"] == program]
        labels = list(dict.fromkeys(r["row"] for r in mine))
        for line, (metric, xlabel) in enumerate(metrics):
            ax = axes[line][column]
            plot_panel(ax, mine, labels, metric)
            ax.set_xlabel(xlabel + " (median, p10-p90)")
            ax.set_title(program)
    handles, legend = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, legend, loc="lower center", ncol=2, fontsize=9)
    fig.suptitle("bench/chain.mlir: 1 H2D copy + 8 kernels + 1 D2H copy per call")
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    path = os.path.join(out, "calls.png")
    fig.savefig(path, dpi=120)
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
