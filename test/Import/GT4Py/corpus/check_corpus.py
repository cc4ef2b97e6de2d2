#!/usr/bin/env python3
"""Checks that the GT4Py corpus is complete and self-consistent (README.md),
without GT4Py or DaCe (NumPy only):

  - every program in programs/ has, for f32 and f64, <name>.sdfg,
    <name>.cpu.sdfg, <name>.gt4py-cpu.sdfg, <name>.json, <name>.ref.npz;
  - the manifest's `arglist` is the SDFG's calling convention as DaCe derives
    it (SDFG.arglist()): the non-transient arrays of the top-level SDFG,
    sorted by name, then its non-transient scalars and the symbols it takes,
    sorted by name; with the SDFG's dtypes, shapes, strides and storages;
    `program` and `sdfg_arg_names` as in the SDFG; the CPU variant takes the
    same arguments (arrays in CPU_Heap);
  - every symbol in an argument's strides is an argument; every symbol in a
    shape is an argument or in `shape_symbols`;
  - the .ref.npz has in/<arg> for every argument (its dtype; arrays of the
    shape their shape expressions give with the manifest's symbol values;
    symbols equal to the manifest's values; arrays laid out as their stride
    symbols say) and out/<output> like in/<output>;
  - the GPU SDFG holds the init_code line the manifest's `elements` records.

usage: check_corpus.py CORPUS-DIR      prints `ok <name>: ...` or `BROKEN <name>: ...`
"""

import ast
import glob
import json
import operator
import os
import re
import sys

import numpy as np

TYPES = ("f32", "f64")
FILES = (".sdfg", ".cpu.sdfg", ".gt4py-cpu.sdfg", ".json", ".ref.npz")


class Broken(Exception):
    pass


def expect(condition, message, *args):
    if not condition:
        raise Broken(message % args)


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.USub: operator.neg}


def evaluate(expr, values):
    """An SDFG shape expression (`-$__a_I_range_0 + $__a_I_range_1`) with
    the symbols' values."""
    def visit(node):
        if isinstance(node, ast.Expression):
            return visit(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            expect(node.id in values, "no value for symbol %s in %r", node.id, expr)
            return values[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](visit(node.left), visit(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](visit(node.operand))
        raise Broken("cannot evaluate %r" % expr)
    return visit(ast.parse(expr.replace("$", ""), mode="eval"))


def symbols_of(expr):
    return set(re.findall(r"\$([A-Za-z_][A-Za-z_0-9]*)", expr))


def expected_arglist(sdfg, free_symbols):
    """DaCe's argument order for the top-level SDFG: arrays, then scalars and
    symbols, each sorted by name (dace/sdfg/sdfg.py, SDFG.arglist())."""
    attrs = sdfg["attributes"]
    arrays, scalars = [], []
    for name, desc in attrs["_arrays"].items():
        a = desc["attributes"]
        if a.get("transient", False):
            continue
        row = {"name": name, "kind": "array" if desc["type"] != "Scalar" else "scalar",
               "dtype": a.get("dtype", "int32"), "storage": a.get("storage", "Default")}
        if row["kind"] == "array":
            row["shape"] = [str(x) for x in a["shape"]]
            row["strides"] = [str(x) for x in a["strides"]]
            arrays.append(row)
        else:
            row["shape"] = row["strides"] = []
            scalars.append(row)
    for name in free_symbols:
        scalars.append({"name": name, "kind": "symbol", "dtype": attrs["symbols"][name],
                        "shape": [], "strides": [], "storage": "Default"})
    return sorted(arrays, key=lambda r: r["name"]) + sorted(scalars, key=lambda r: r["name"])


def strip_dollar(exprs):
    return [e.replace("$", "") for e in exprs]


def check_arglist(what, sdfg, manifest, array_storage):
    rows = manifest["arglist"]
    attrs = sdfg["attributes"]
    expect(attrs["name"] == manifest["program"], "%s: SDFG name %s, manifest %s", what,
           attrs["name"], manifest["program"])
    expect(attrs.get("arg_names", []) == manifest["sdfg_arg_names"],
           "%s: arg_names %s, manifest %s", what, attrs.get("arg_names"),
           manifest["sdfg_arg_names"])
    free = [r["name"] for r in rows if r["kind"] == "symbol"]
    for name in free:
        expect(name in attrs["symbols"], "%s: symbol argument %s not declared", what, name)
    want = expected_arglist(sdfg, free)
    got = [(r["name"], r["kind"], r["dtype"]) for r in rows]
    exp = [(r["name"], r["kind"], r["dtype"]) for r in want]
    if got != exp:
        at = next((i for i, (g, e) in enumerate(zip(got, exp)) if g != e), min(len(got),
                                                                              len(exp)))
        raise Broken("%s: manifest arglist differs from the SDFG's at position %d: %s, SDFG %s"
                     % (what, at, got[at] if at < len(got) else "(end)",
                        exp[at] if at < len(exp) else "(end)"))
    for r, w in zip(rows, want):
        if r["kind"] != "array":
            continue
        expect(strip_dollar(w["shape"]) == strip_dollar(r["shape"]) and
               strip_dollar(w["strides"]) == strip_dollar(r["strides"]),
               "%s: %s shape/strides %s %s, SDFG %s %s", what, r["name"], r["shape"],
               r["strides"], w["shape"], w["strides"])
        expect(w["storage"] == array_storage, "%s: %s in %s, expected %s", what, r["name"],
               w["storage"], array_storage)
        for expr in w["strides"]:
            for sym in symbols_of(expr):
                expect(sym in free, "%s: stride symbol %s of %s is no argument", what, sym,
                       r["name"])
        for expr in w["shape"]:
            for sym in symbols_of(expr):
                expect(sym in free or sym in manifest["shape_symbols"],
                       "%s: shape symbol %s of %s has no value", what, sym, r["name"])


def check_npz(name, path, manifest):
    with np.load(path, allow_pickle=False) as npz:
        data = {k: npz[k] for k in npz.files}
    values = dict(manifest["shape_symbols"], **manifest["symbols"])
    for row in manifest["arglist"]:
        key = "in/" + row["name"]
        expect(key in data, "%s: no %s", name, key)
        value = data[key]
        expect(value.dtype == np.dtype(row["dtype"]), "%s: %s is %s, arglist %s", name, key,
               value.dtype, row["dtype"])
        if row["kind"] == "array":
            shape = tuple(evaluate(e, values) for e in row["shape"])
            expect(value.shape == shape, "%s: %s has shape %s, the SDFG %s", name, key,
                   value.shape, shape)
            strides = tuple(evaluate(e, values) for e in row["strides"])
            have = tuple(st // value.itemsize for st in value.strides)
            expect(all(h == s or n == 1 for h, s, n in zip(have, strides, value.shape)),
                   "%s: %s has strides %s, its stride symbols %s", name, key, have, strides)
        else:
            expect(value.shape == (), "%s: %s is not a scalar", name, key)
        if row["kind"] == "symbol":
            expect(value.item() == manifest["symbols"][row["name"]],
                   "%s: %s = %r, manifest %r", name, key, value.item(),
                   manifest["symbols"][row["name"]])
    expect(manifest["outputs"], "%s: no outputs", name)
    for out in manifest["outputs"]:
        key = "out/" + out
        expect(key in data and "in/" + out in data, "%s: no %s", name, key)
        expect(data[key].shape == data["in/" + out].shape and
               data[key].dtype == data["in/" + out].dtype,
               "%s: %s differs in shape or dtype from its input", name, key)
        expect(np.all(np.isfinite(data[key])), "%s: %s is not finite", name, key)
    extra = set(data) - {"in/" + r["name"] for r in manifest["arglist"]} - {
        "out/" + o for o in manifest["outputs"]}
    expect(not extra, "%s: unexpected entries %s", name, sorted(extra))


def check(corpus, name):
    for suffix in FILES:
        expect(os.path.isfile(os.path.join(corpus, name + suffix)), "missing %s%s", name,
               suffix)
    with open(os.path.join(corpus, name + ".json")) as f:
        manifest = json.load(f)
    sdfgs = {}
    for suffix in (".sdfg", ".cpu.sdfg"):
        with open(os.path.join(corpus, name + suffix)) as f:
            sdfgs[suffix] = json.load(f)
    check_arglist(name + ".sdfg", sdfgs[".sdfg"], manifest, "GPU_Global")
    check_arglist(name + ".cpu.sdfg", sdfgs[".cpu.sdfg"], manifest, "CPU_Heap")
    check_npz(name, os.path.join(corpus, name + ".ref.npz"), manifest)
    init = manifest["elements"]["code"].get("init_code.cuda", [])
    expect(init, "%s: the manifest records no init_code", name)
    held = sdfgs[".sdfg"]["attributes"].get("init_code", {}).get("cuda", {}).get(
        "string_data", "")
    for line in init:
        expect(line in held, "%s: init_code line %r not in the SDFG", name, line)
    kinds = {}
    for row in manifest["arglist"]:
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
    return ", ".join("%d %ss" % (n, k) for k, n in sorted(kinds.items()))


def main(argv):
    corpus = argv[1]
    programs = sorted(os.path.splitext(os.path.basename(p))[0]
                      for p in glob.glob(os.path.join(corpus, "programs", "*.py"))
                      if not os.path.basename(p).startswith("_"))
    if not programs:
        print("BROKEN: no programs in %s/programs" % corpus)
        return 1
    broken = stray = 0
    for program in programs:
        for t in TYPES:
            name = "%s_%s" % (program, t)
            try:
                print("ok %s: %s" % (name, check(corpus, name)))
            except (Broken, OSError, KeyError, ValueError) as e:
                broken += 1
                print("BROKEN %s: %s: %s" % (name, type(e).__name__, e))
    known = {"%s_%s%s" % (p, t, s) for p in programs for t in TYPES for s in FILES}
    for path in sorted(glob.glob(os.path.join(corpus, "*.*"))):
        base = os.path.basename(path)
        if base.endswith((".sdfg", ".npz", ".json")) and base not in known:
            stray += 1
            print("BROKEN: %s belongs to no program" % base)
    print("%d of %d corpus entries consistent" % (2 * len(programs) - broken, 2 * len(programs)))
    return 1 if broken or stray else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
