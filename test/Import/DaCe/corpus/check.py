#!/usr/bin/env python3
"""Checks the DaCe SDFG importer against DaCe's oracle (<name>.ref.npz).

For each program of the corpus (or those named), compiles an SDFG of it with
sdfg-compile, calls the library through the sdfgstream package on copies of the oracle's
inputs `in/*` (arrays in DaCe's ABI order from <name>.json, then scalars and
symbols by value, then the stream if the entry takes one) and compares every
output with `out/*` under the manifest's tolerance (numpy.allclose; exact for
integers). Prints one line per program

  PASS name
  FAIL name: <what differs>
  SKIP name: <the importer's error>      (sdfg-translate refuses the SDFG)

then a summary; exits 1 if any program FAILs (SKIPs do not fail the run).

Modes:
  (default)  CPU: <name>.cpu.sdfg (cpu_variants.py; <name>.sdfg for a program
             without the GPU transformation), a target(cpu) library; plain
             NumPy arrays; a trailing stream argument, if any, gets NULL.
  --gpu      <name>.sdfg (optionally --concurrent-streams); needs CuPy. An
             argument whose memref type in the imported IR is in
             #gpu.address_space<global> gets a CuPy device array, any other
             memref a NumPy host array (DaCe programs take host arrays and
             copy them to GPU transients themselves). The call goes on a
             non-blocking CuPy stream right after a spin kernel on it (50 ms,
             --spin-ms)
             (so the program's work is still queued when the call returns),
             then the stream is synchronized and the outputs compared.
             --repeat N runs each program N times (fresh copies of the inputs)
             and counts the wrong runs. --pinned-host gives the host arrays
             in pinned (page-locked) memory, as a caller that wants its
             copies asynchronous does: a device-to-host copy into pageable
             memory returns only when it is done, so only with pinned
             memory can a host read that does not wait go wrong.

Each program runs in a child process, so that a crash is one FAIL, not the
end of the check. Needs /usr/bin/python3 with NumPy (not DaCe).

--corpus DIR checks another corpus of the same layout (the GT4Py corpus,
test/Import/GT4Py/corpus: its manifests give the symbols' values and its
`in/*` the scalars and symbols as 0-d arrays).

Usage: check.py [--corpus DIR] [--gpu [--concurrent-streams] [--repeat N] [--pinned-host]]
                [--build-dir DIR]
                [--sdfg-compile PATH] [--work-dir DIR] [-j N]
                [--compile-only | --no-compile] [--preload LIB] [name ...]
--compile-only builds into --work-dir and runs nothing; --no-compile runs what
such a run left there (build the GPU libraries where ptxas is, copy the work
dir to the GPU machine, run them there: only NumPy and CuPy are needed).
The build directory defaults to $SDFGSTREAM_BUILD_DIR, else <repo>/build.
"""

import argparse
import concurrent.futures
import ctypes
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
# The corpus checked: this directory, or another one laid out the same way
# (--corpus; test/Import/GT4Py/corpus).
CORPUS = HERE
sys.path.insert(0, os.path.join(REPO, "python"))

import numpy as np  # noqa: E402

import sdfgstream  # noqa: E402

# Importer refusals known today (the summary lists every SKIP anyway).
INT_TYPES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
             "f32": "float32", "f64": "float64", "i1": "bool"}
SCALARS = {"float32", "float64", "int8", "int16", "int32", "int64", "bool"}


def program_names():
    return sorted(os.path.basename(p)[:-len(".json")]
                  for p in glob.glob(os.path.join(CORPUS, "*.json")))


def sdfg_path(name, gpu):
    if not gpu:
        cpu = os.path.join(CORPUS, name + ".cpu.sdfg")
        if os.path.exists(cpu):
            return cpu
    return os.path.join(CORPUS, name + ".sdfg")


def first_error(text):
    """The first diagnostic of a tool's stderr, without the echoed source
    line (a compact .sdfg is one line of many kilobytes)."""
    for line in text.splitlines():
        if "error:" in line:
            line = line.strip()
            # "<file>:1:4056: error: ..." -> "error: ..." with the position.
            m = re.match(r"^(\S+?):(\d+):(\d+): (error: .*)$", line)
            if m:
                line = "%s (%s:%s:%s)" % (m.group(4), os.path.basename(m.group(1)),
                                          m.group(2), m.group(3))
            return line[:400]
    lines = [l for l in text.splitlines() if l.strip()]
    return (lines[-1] if lines else "(no output)")[:400]


# --- the imported program's signature ---------------------------------------

def _split_top(text):
    """Splits at commas outside <>, (), {}, []."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def parse_signature(mlir, program):
    """[(arg name, MLIR type)] of `sdfg.sdfg @program(...)` in the imported IR."""
    m = re.search(r"sdfg\.sdfg @%s\(" % re.escape(program), mlir)
    if not m:
        raise RuntimeError("no sdfg.sdfg @%s in the imported IR" % program)
    i, depth = m.end(), 1
    start = i
    while depth:
        if mlir[i] == "(":
            depth += 1
        elif mlir[i] == ")":
            depth -= 1
        i += 1
    args = []
    for part in _split_top(mlir[start:i - 1]):
        pm = re.match(r"\s*%([\w$.-]+)\s*:\s*(.*?)\s*(\{.*\})?\s*$", part, re.S)
        if not pm:
            raise RuntimeError("cannot parse argument %r" % part)
        attrs = pm.group(3) or ""
        am = re.search(r'sdfg\.arg_name\s*=\s*"([^"]*)"', attrs)
        args.append((am.group(1) if am else pm.group(1), pm.group(2)))
    return args


def memref_info(mlir_type):
    """(rank, element, device) of a memref type, or None for a scalar."""
    m = re.match(r"memref<(.*)>$", mlir_type.strip())
    if not m:
        return None
    parts = _split_top(m.group(1))
    shape_elem = parts[0].strip()
    dims = shape_elem.split("x")
    element = INT_TYPES.get(dims[-1], dims[-1])
    device = "gpu.address_space<global>" in mlir_type
    return len(dims) - 1, element, device


# --- compile (parent) -------------------------------------------------------

def compile_program(name, opts):
    """Imports, then compiles; returns a dict: status SKIP/FAIL/ok, ..."""
    try:
        return _compile_program(name, opts)
    except Exception as e:
        return {"name": name, "status": "FAIL", "detail": "%s: %s" % (type(e).__name__, e)}


def _compile_program(name, opts):
    manifest = json.load(open(os.path.join(CORPUS, name + ".json")))
    program = manifest["program"]
    src = sdfg_path(name, opts.gpu)
    work = os.path.join(opts.work_dir, name)
    os.makedirs(work, exist_ok=True)
    res = {"name": name, "sdfg": src, "program": program}
    if opts.no_compile:  # what an earlier --compile-only run left in the work dir
        lib, header = os.path.join(work, name + ".so"), os.path.join(work, name + ".h")
        mlir, skip = os.path.join(work, name + ".mlir"), os.path.join(work, "SKIP")
        if os.path.exists(skip):
            res.update(status="SKIP", detail=open(skip).read().strip())
        elif not all(os.path.exists(p) for p in (lib, header, mlir)):
            res.update(status="FAIL", detail="not compiled in %s" % work)
        else:
            res.update(status="ok", lib=lib, header=header, mlir=mlir)
        return res
    t = time.time()
    imp = subprocess.run([opts.sdfg_translate, "--import-dace-sdfg", src],
                         capture_output=True, text=True, env=tool_env())
    if imp.returncode != 0:
        res.update(status="SKIP", detail=first_error(imp.stderr))
        with open(os.path.join(work, "SKIP"), "w") as f:
            f.write(res["detail"] + "\n")
        return res
    mlir_path = os.path.join(work, name + ".mlir")
    with open(mlir_path, "w") as f:
        f.write(imp.stdout)
    lib, header = os.path.join(work, name + ".so"), os.path.join(work, name + ".h")
    cmd = [opts.sdfg_compile, src, "-o", lib, "--header", header]
    if opts.gpu and opts.concurrent_streams:
        cmd.append("--concurrent-streams")
    if opts.gpu and opts.compile_args:
        cmd += opts.compile_args.split()
    comp = subprocess.run(cmd, capture_output=True, text=True, env=tool_env())
    if comp.returncode != 0:
        res.update(status="FAIL", detail="sdfg-compile failed: " + first_error(comp.stderr))
        return res
    res.update(status="ok", lib=lib, header=header, mlir=mlir_path,
               compile_s=time.time() - t)
    return res


# --- run (child) ------------------------------------------------------------

SPIN_SOURCE = r"""
extern "C" __global__ void sdfgstream_spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) { }
}
"""


def spin_cycles(cp, ms):
    rate_khz = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["clockRate"]
    return int(rate_khz * ms)


def run_child(name, lib_path, header_path, mlir_path, gpu, repeat, preload, spin_ms,
              pinned_host=False):
    """Runs one program; returns (status, detail)."""
    if preload:
        ctypes.CDLL(preload, mode=ctypes.RTLD_GLOBAL)
    manifest = json.load(open(os.path.join(CORPUS, name + ".json")))
    program = manifest["program"]
    ref = np.load(os.path.join(CORPUS, name + ".ref.npz"))
    rows = manifest["arglist"]
    tol = manifest.get("tolerance", {})
    outputs = manifest["outputs"]
    with open(mlir_path) as f:
        signature = parse_signature(f.read(), program)
    # The program as its library's manifest declares it (the names and
    # types the header has too): DaCe's argument names, in DaCe's order.
    lib = sdfgstream.load(lib_path)
    if program not in lib.programs:
        return "FAIL", "%s is not in the library's manifest" % program
    prog = lib[program]
    has_stream = prog.takes_stream
    if len(prog.parameters) != len(rows):
        return "FAIL", "the manifest declares %d parameters, DaCe has %d arguments" % (
            len(prog.parameters), len(rows))
    if [n for n, _ in signature] != [r["name"] for r in rows]:
        return "FAIL", "argument order: imported %s, DaCe %s" % (
            [n for n, _ in signature], [r["name"] for r in rows])
    if prog.names != [r["name"] for r in rows]:
        return "FAIL", "manifest names %s, DaCe %s" % (prog.names, [r["name"] for r in rows])

    kinds = []
    for row, (_, mtype), param in zip(rows, signature, prog.parameters):
        info = memref_info(mtype)
        if row["kind"] == "array":
            if info is None:
                return "FAIL", "%s: array in DaCe, %s imported" % (row["name"], mtype)
            rank, element, device = info
            if element != row["dtype"]:
                return "FAIL", "%s: element %s imported, DaCe %s" % (row["name"], element,
                                                                      row["dtype"])
            if getattr(param, "rank", None) != rank or \
                    INT_TYPES.get(param.element) != element:
                return "FAIL", "%s: manifest %s, imported %s" % (row["name"], param.describe(),
                                                                 mtype)
            kinds.append(("array", device))
        else:
            if info is not None:
                return "FAIL", "%s: %s in DaCe, memref imported" % (row["name"], row["kind"])
            element = INT_TYPES.get(mtype.strip(), mtype.strip())
            if element not in SCALARS:
                return "FAIL", "%s: scalar type %s unsupported" % (row["name"], mtype)
            if INT_TYPES.get(getattr(param, "type", None)) != element:
                return "FAIL", "%s: manifest %s, imported %s" % (row["name"], param.describe(),
                                                                 mtype)
            kinds.append(("scalar", False))

    cp = None
    if gpu:
        import cupy as cp
        spin = cp.RawKernel(SPIN_SOURCE, "sdfgstream_spin")
        cycles = spin_cycles(cp, spin_ms)
        stream = cp.cuda.Stream(non_blocking=True)

    wrong, details = 0, []
    for run in range(repeat):
        keep, values, outs = [], [], {}
        for row, (kind, device) in zip(rows, kinds):
            key = "in/" + row["name"]
            if kind == "array":
                host = ref[key].copy(order="K")
                if gpu and device:
                    # In the oracle's layout (GT4Py's fields are
                    # Fortran-ordered, their strides are arguments too).
                    if host.flags.c_contiguous or host.ndim < 2:
                        value = cp.asarray(host)
                    elif host.flags.f_contiguous:
                        value = cp.asfortranarray(host)
                    else:
                        return "FAIL", "%s: device argument not contiguous" % row["name"]
                elif gpu and pinned_host:
                    import cupyx
                    order = "F" if host.flags.f_contiguous and not host.flags.c_contiguous else "C"
                    value = cupyx.empty_pinned(host.shape, host.dtype, order=order)
                    value[...] = host
                else:
                    value = host
                keep.append(value)
                outs[row["name"]] = value
                # The array itself, with its own strides: a strided<[1, ?]>
                # memref (F of `copies`) reads them from the descriptor.
                values.append(value)
            else:
                if key in ref.files:
                    v = ref[key][()]
                else:
                    v = manifest["symbols"][row["name"]]
                values.append(v)
        if gpu:
            with stream:
                spin((1,), (1,), (np.int64(cycles),))
            # A program without GPU work (cpu_sequential) takes no stream.
            try:
                prog(stream=stream.ptr if has_stream else None,
                     **dict(zip(prog.names, values)))
            except sdfgstream.CallError as error:
                return "FAIL", "run %d: %s" % (run, error)
            finally:
                stream.synchronize()
        else:
            try:
                prog(**dict(zip(prog.names, values)))
            except sdfgstream.CallError as error:
                return "FAIL", "run %d: %s" % (run, error)
        bad = []
        for out in outputs:
            have = outs[out]
            if cp is not None and isinstance(have, cp.ndarray):
                have = cp.asnumpy(have)
            want = ref["out/" + out]
            if have.shape != want.shape:
                bad.append("%s: shape %s vs %s" % (out, have.shape, want.shape))
                continue
            if np.issubdtype(want.dtype, np.integer) or want.dtype == np.bool_:
                ok = np.equal(have, want)
                err = np.abs(have.astype(np.int64) - want.astype(np.int64))
            else:
                ok = np.isclose(have, want, rtol=tol.get("rtol", 1e-5),
                                atol=tol.get("atol", 1e-8), equal_nan=True)
                with np.errstate(invalid="ignore"):
                    err = np.abs(have.astype(np.float64) - want.astype(np.float64))
            if not ok.all():
                idx = np.argwhere(~ok)
                first = tuple(int(x) for x in idx[0])
                bad.append("%s differs at %d of %d elements, max abs error %.6g, first %s: "
                           "got %r, expected %r"
                           % (out, len(idx), want.size, np.nanmax(np.where(ok, 0, err)),
                              list(first), have[first].item(), want[first].item()))
        if bad:
            wrong += 1
            if not details:
                details = bad
    if wrong:
        prefix = "%d of %d runs wrong; " % (wrong, repeat) if repeat > 1 else ""
        return "FAIL", prefix + "; ".join(details)
    return "PASS", ("%d runs" % repeat) if repeat > 1 else ""


def tool_env():
    """The environment for sdfg-translate and sdfg-compile: without
    LD_PRELOAD, which lit sets to the ASan runtime in the instrumented build
    (scripts/sanitize.sh) for python's sake; the tools link their own and
    abort when a second one is preloaded. The ctypes child keeps it."""
    return {key: value for key, value in os.environ.items() if key != "LD_PRELOAD"}


def run_program(res, opts):
    cmd = [sys.executable, os.path.abspath(__file__), "--_child", res["name"], res["lib"],
           res["header"], res["mlir"], "--repeat", str(opts.repeat),
           "--spin-ms", str(opts.spin_ms), "--corpus", CORPUS]
    if opts.pinned_host:
        cmd.append("--pinned-host")
    if opts.preload:
        cmd += ["--preload", opts.preload]
    if opts.gpu:
        cmd.append("--gpu")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        return "FAIL", "timed out after %ds" % opts.timeout
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("{"):
            r = json.loads(line)
            return r["status"], r["detail"]
    return "FAIL", "child exited with %d: %s" % (p.returncode, first_error(p.stderr))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--corpus", default=HERE,
                    help="the corpus directory (default: this script's; "
                    "<name>.json, <name>.ref.npz, <name>.sdfg, <name>.cpu.sdfg)")
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--concurrent-streams", action="store_true")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--pinned-host", action="store_true",
                    help="in --gpu mode, host arrays in pinned memory")
    ap.add_argument("--spin-ms", type=float, default=50.0,
                    help="how long the spin kernel ahead of each GPU call runs")
    ap.add_argument("--build-dir", default=os.environ.get("SDFGSTREAM_BUILD_DIR",
                                                          os.path.join(REPO, "build")))
    ap.add_argument("--sdfg-compile")
    ap.add_argument("--sdfg-translate")
    ap.add_argument("--compile-args", default="",
                    help="extra sdfg-compile options in --gpu mode (e.g. --chip=sm_90)")
    ap.add_argument("--work-dir", help="where the libraries go (default: a temporary "
                    "directory, removed at the end)")
    ap.add_argument("--compile-only", action="store_true",
                    help="import and compile into --work-dir, run nothing (e.g. build the "
                    "GPU libraries where ptxas is, run them elsewhere with --no-compile)")
    ap.add_argument("--no-compile", action="store_true",
                    help="run the libraries a --compile-only run left in --work-dir")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per program run")
    ap.add_argument("--preload", help="a shared library to load with RTLD_GLOBAL before "
                    "each program's (e.g. LLVM's libmlir_c_runner_utils.so, for a library "
                    "that calls memrefCopy but does not link it)")
    ap.add_argument("--_child", nargs=4, help=argparse.SUPPRESS)
    opts = ap.parse_args(argv[1:])
    global CORPUS
    CORPUS = os.path.abspath(opts.corpus)

    if opts._child:
        name, lib, header, mlir = opts._child
        try:
            status, detail = run_child(name, lib, header, mlir, opts.gpu, opts.repeat,
                                       opts.preload, opts.spin_ms, opts.pinned_host)
        except Exception as e:  # reported as a FAIL by the parent
            import traceback
            traceback.print_exc()
            status, detail = "FAIL", "%s: %s" % (type(e).__name__, e)
        sys.stdout.flush()
        print(json.dumps({"status": status, "detail": detail}), flush=True)
        return 0

    if opts.repeat != 1 and not opts.gpu:
        ap.error("--repeat needs --gpu")
    if (opts.compile_only or opts.no_compile) and not opts.work_dir:
        ap.error("--compile-only and --no-compile need --work-dir")
    bindir = os.path.join(opts.build_dir, "bin")
    opts.sdfg_compile = opts.sdfg_compile or os.path.join(bindir, "sdfg-compile")
    opts.sdfg_translate = opts.sdfg_translate or os.path.join(
        os.path.dirname(opts.sdfg_compile), "sdfg-translate")
    for tool in (opts.sdfg_compile, opts.sdfg_translate):
        if not opts.no_compile and not os.access(tool, os.X_OK):
            print("check.py: %s not found (set --build-dir or SDFGSTREAM_BUILD_DIR)" % tool)
            return 2
    names = opts.names or program_names()
    unknown = [n for n in names if not os.path.exists(os.path.join(CORPUS, n + ".json"))]
    if unknown:
        print("check.py: unknown programs: %s" % " ".join(unknown))
        return 2
    cleanup = opts.work_dir is None
    opts.work_dir = opts.work_dir or tempfile.mkdtemp(prefix="sdfgstream-dace-check-")
    os.makedirs(opts.work_dir, exist_ok=True)

    mode = ("gpu" if opts.gpu else "cpu") + (" compile-only" if opts.compile_only else "")
    t0 = time.time()
    results = {}
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
            futures = {n: pool.submit(compile_program, n, opts) for n in names}
            for name in names:  # run in order, as the compiles finish
                res = futures[name].result()
                if res["status"] == "ok" and opts.compile_only:
                    status, detail = "BUILT", ""
                elif res["status"] == "ok":
                    status, detail = run_program(res, opts)
                else:
                    status, detail = res["status"], res["detail"]
                results[name] = (status, detail)
                line = "%s %s" % (status, name)
                if detail:
                    line += ": " + detail
                elif detail:
                    line += " (%s)" % detail
                print(line, flush=True)
    finally:
        if cleanup:
            shutil.rmtree(opts.work_dir, ignore_errors=True)

    by = {s: [n for n, (st, _) in results.items() if st == s]
          for s in ("PASS", "BUILT", "FAIL", "SKIP")}
    print("%s check: %d programs, %d passed, %s%d failed, %d skipped (%.0fs)"
          % (mode, len(names), len(by["PASS"]),
             "%d built, " % len(by["BUILT"]) if opts.compile_only else "",
             len(by["FAIL"]), len(by["SKIP"]), time.time() - t0))
    if by["SKIP"]:
        print("skipped (importer refuses): " + " ".join(by["SKIP"]))
    if by["FAIL"]:
        print("failed: " + " ".join(by["FAIL"]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
