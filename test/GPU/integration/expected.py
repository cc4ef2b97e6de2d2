#!/usr/bin/env python3
"""Writes the expected outputs (*.expected) of the integration programs.

Each program's results are computed here from what the program says it
computes (a model written independently of the lowering), and formatted as
upstream MLIR's printers format them (printMemref*: RunnerUtils.h;
vector.print: CRunnerUtils.cpp), with the printed base address replaced by
ADDRESS as the tests do. Run it after changing a program:
  python3 test/GPU/integration/expected.py
"""
import os
import struct


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def fmt(v):
    """An element as std::ostream prints it (6 significant digits)."""
    if isinstance(v, int):
        return str(v)
    s = "%g" % v
    return s


def memref(values, shape):
    """printMemref* of a row-major buffer `values` with `shape`."""
    rank = len(shape)
    strides = []
    s = 1
    for n in reversed(shape):
        strides.insert(0, s)
        s *= n
    out = ["Unranked Memref base@ = ADDRESS rank = %d offset = 0 sizes = [%s] "
           "strides = [%s] data = \n" % (rank, ", ".join(map(str, shape)),
                                         ", ".join(map(str, strides)))]

    def pr(dim, offset, sizes, strides_):
        if dim == 0:
            out.append(fmt(values[offset]))
            return
        out.append("[")
        pr(dim - 1, offset, sizes[1:], strides_[1:])
        if sizes[0] <= 1:
            out.append("]")
            return
        out.append(", ")
        if dim > 1:
            out.append("\n")
        for i in range(1, sizes[0] - 1):
            out.append(" " * (rank - dim + 1))
            pr(dim - 1, offset + i * strides_[0], sizes[1:], strides_[1:])
            out.append(", ")
            if dim > 1:
                out.append("\n")
        out.append(" " * (rank - dim + 1))
        pr(dim - 1, offset + (sizes[0] - 1) * strides_[0], sizes[1:], strides_[1:])
        out.append("]")

    if rank == 0:
        out.append("[")
    pr(rank, 0, shape, strides)
    if rank == 0:
        out.append("]")
    out.append("\n")
    return "".join(out)


def vector(values, shape):
    """vector.print of a vector (nested parentheses), then a newline."""
    def pr(vals, shp):
        if not shp:
            return fmt(vals[0])
        n = len(vals) // shp[0]
        return "( " + ", ".join(pr(vals[i * n:(i + 1) * n], shp[1:])
                                for i in range(shp[0])) + " )"
    return pr(values, shape) + "\n"


def host_register():
    data = [float(i * 4 + j) for i in range(3) for j in range(4)]
    first = [f32(v * 0.5) for v in data]
    squares = [i * i - 2 for i in range(6)]
    second = [f32(v * 4.0) for v in first]
    return (memref(first, [3, 4]) + memref(squares, [6]) +
            memref(second, [3, 4]))


def all_reduce_shuffle():
    values = [[float((5 * t + 3 * b) % 17 - 4) for t in range(64)] for b in range(2)]
    bits = [[t * (b + 1) + 256 for t in range(64)] for b in range(2)]
    sums, ints = [], []
    for b in range(2):
        v, w = values[b], bits[b]
        prod = 2.0 ** 16
        sums += [sum(v), max(v), min(v), prod]
        a = o = x = 0
        a = w[0]
        for e in w:
            a &= e
            o |= e
            x ^= e
        ints += [a, o, x, max(w), sum(w[:32])]
    v = values[0]
    shuffled = []
    shuffled += [v[lane ^ 1] for lane in range(32)]
    shuffled += [v[lane + 3] if lane + 3 < 32 else -1.0 for lane in range(32)]
    shuffled += [v[lane - 2] if lane - 2 >= 0 else -1.0 for lane in range(32)]
    shuffled += [v[5] for lane in range(32)]
    return memref(sums, [2, 4]) + memref(ints, [2, 5]) + memref(shuffled, [4, 32])


def mma():
    a = [[float((i + 2 * k) % 5 - 2) for k in range(16)] for i in range(16)]
    b = [[float((3 * k + j) % 4 - 1) for j in range(16)] for k in range(16)]
    c = [[float(i - j) for j in range(16)] for i in range(16)]
    d = [sum(a[i][k] * b[k][j] for k in range(16)) + c[i][j]
         for i in range(16) for j in range(16)]
    dn = [sum(a[i][k] * b[k][j] for k in range(16)) + c[i][j]
          for i in range(16) for j in range(8)]
    return memref(d, [16, 16]) + memref(dn, [16, 8])


def host_vector():
    host = [[f32(float(j + i - 1) ** 2 + 0.5) for j in range(4)] for i in range(4)]
    t = [host[j][i] for i in range(4) for j in range(4)]
    tail = host[2][1:4] + [-7.0] * 3
    total = 0.0
    for x in t:  # vector.reduction <add> of exact values: order does not matter
        total += x
    # vector.print str prints the string alone (no newline).
    return (vector(t, [4, 4]) + vector(tail, [6]) + "sum " + fmt(f32(total)) +
            "\n" + "max " + fmt(max(tail)) + "\n")


def async_region():
    return memref([10.0 * 2 + i - 3.0 for i in range(16)], [16])


def concurrent_kernels():
    # Each kernel saw the other's flag raised.
    return memref([1, 1], [2])


def async_execute():
    d0 = [0, 1]
    d1 = [x + 1 for x in d0]
    return memref([x * 10 + y for x, y in zip(d0, d1)], [2])


def host_shared():
    data = [float(i) for i in range(8)]
    data = [x * x + 1 for x in data]
    first = memref(data, [8])
    data = [x * 0.5 if i < 4 else x for i, x in enumerate(data)]
    data = [x * x + 1 for x in data]
    return first + memref(data, [8])


def clusters():
    where = []
    for block in range(8):
        where += [block // 4, block % 4, 4, 2]
    grid = [10 * (by % 2) + bx % 2 + 100 * ((by // 2) * 2 + bx // 2)
            for by in range(2) for bx in range(4)]
    return memref(where, [8, 4]) + memref(grid, [2, 4])


def printf_assert():
    # The kernel's printf lines, sorted (their order is not defined).
    lines = ["block %d thread %d (%d): %f\n" % (b, t, t, b * 4 + t + 0.25)
             for b in range(2) for t in range(4)]
    return "".join(sorted(lines))


here = os.path.dirname(os.path.abspath(__file__))
for name, model in [("host-register", host_register),
                    ("all-reduce-shuffle", all_reduce_shuffle),
                    ("mma", mma), ("host-vector", host_vector),
                    ("async-region", async_region),
                    ("host-shared", host_shared), ("clusters", clusters),
                    ("printf-assert", printf_assert),
                    ("concurrent-kernels", concurrent_kernels),
                    ("async-execute", async_execute)]:
    with open(os.path.join(here, name + ".expected"), "w") as out:
        out.write(model())
