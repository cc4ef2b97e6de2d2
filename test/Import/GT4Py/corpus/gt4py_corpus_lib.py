"""The GT4Py corpus generator's steps (generate.py runs them; README.md).

Needs GT4Py and DaCe (scripts/gt4py-env.sh). Reuses the DaCe corpus's
helpers (test/Import/DaCe/corpus): corpus_lib.arglist_manifest (DaCe's ABI
order) and cpu_variants.make_cpu (the CPU-only variant of a GPU SDFG).
"""

import dataclasses
import glob
import importlib
import json
import os
import sys
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
SEED = 20250101  # make_inputs(T, numpy.random.default_rng(SEED))
TYPES = {"f32": np.float32, "f64": np.float64}
# numpy.allclose against the embedded oracle (the DaCe builds may contract
# multiply-adds and reorder sums).
TOLERANCE = {"f32": {"rtol": 1e-5, "atol": 1e-5}, "f64": {"rtol": 1e-12, "atol": 1e-12}}


def program_names():
    return sorted(os.path.splitext(os.path.basename(p))[0]
                  for p in glob.glob(os.path.join(PROGRAMS, "*.py"))
                  if not os.path.basename(p).startswith("_"))


def corpus_names():
    return ["%s_%s" % (p, t) for p in program_names() for t in TYPES]


def select(args):
    """Corpus names for command-line arguments (program or corpus names)."""
    if not args:
        return corpus_names()
    names = []
    for arg in args:
        if arg in program_names():
            names += ["%s_%s" % (arg, t) for t in TYPES]
        elif arg in corpus_names():
            names.append(arg)
        else:
            raise SystemExit("unknown program %r (have: %s)" % (arg, " ".join(corpus_names())))
    return names


def split(name):
    program, suffix = name.rsplit("_", 1)
    return program, suffix


def load_program(program):
    """programs/<program>.py, imported as a module of that name (GT4Py reads
    the source of its functions)."""
    if PROGRAMS not in sys.path:
        sys.path.insert(0, PROGRAMS)
    module = importlib.import_module(program)
    missing = [a for a in ("make", "make_inputs", "OUTPUTS", "OFFSET_PROVIDER")
               if not hasattr(module, a)]
    if missing:
        raise RuntimeError("%s lacks %s" % (module.__file__, ", ".join(missing)))
    return module


def _dace_corpus_helpers():
    """corpus_lib and cpu_variants of the DaCe corpus (cpu_variants changes
    the working directory when imported: restore it)."""
    cwd = os.getcwd()
    try:
        import corpus_lib
        import cpu_variants
    finally:
        os.chdir(cwd)
    return corpus_lib, cpu_variants


# --- running GT4Py ----------------------------------------------------------

def _copy_args(values):
    """Fresh copies of the program's arguments (fields keep their domain)."""
    import gt4py.next as gtx
    out = {}
    for key, value in values.items():
        if hasattr(value, "domain") and hasattr(value, "ndarray"):
            out[key] = gtx.as_field(value.domain, np.array(value.ndarray, copy=True))
        else:
            out[key] = value
    return out


def _ndarray(value):
    return np.asarray(value.ndarray if hasattr(value, "ndarray") else value)


class _Captured(Exception):
    pass


class _Recorder:
    """Executor that keeps what GT4Py's workflow hands to its backend (the
    compilable program: GTIR and compile-time arguments), then runs it
    (`inner`) or stops the call (inner None)."""

    def __init__(self, inner):
        self.inner = inner
        self.programs = []

    def __call__(self, inp):
        self.programs.append(inp)
        if self.inner is None:
            raise _Captured()
        return self.inner(inp)


def run_embedded(program, values, offset_provider):
    args = _copy_args(values)
    program.with_backend(None)(*args.values(), offset_provider=offset_provider)
    return args


def run_dace_cpu(program, values, offset_provider, run=True):
    """GT4Py's DaCe CPU backend (no auto-optimize, no metrics); returns the
    arguments after the call (None unless `run`) and the compilable program
    its workflow hands to the translation step."""
    from gt4py.next.program_processors.runners.dace import make_dace_backend
    backend = make_dace_backend(gpu=False, auto_optimize=False, use_metrics=False,
                                async_sdfg_call=False)
    recorder = _Recorder(backend.executor if run else None)
    args = _copy_args(values)
    try:
        program.with_backend(dataclasses.replace(backend, executor=recorder))(
            *args.values(), offset_provider=offset_provider)
    except _Captured:
        args = None
    if len(recorder.programs) != 1:
        raise RuntimeError("expected one compilation, got %d" % len(recorder.programs))
    return args, recorder.programs[0]


def translate(compilable, device):
    """GT4Py's DaCe translation step as its DaCe backend configures it for
    `device` ("cuda" or "cpu"), auto-optimize and metrics off: the SDFG JSON
    its workflow passes on to the build."""
    from gt4py._core import definitions as core_defs
    from gt4py.next import config
    from gt4py.next.program_processors.runners.dace.workflow.translation import DaCeTranslator
    gpu = device == "cuda"
    translator = DaCeTranslator(
        device_type=core_defs.DeviceType.CUDA if gpu else core_defs.DeviceType.CPU,
        auto_optimize=False,
        auto_optimize_args=None,
        async_sdfg_call=gpu,  # make_dace_backend's default: asynchronous on GPU only
        unstructured_horizontal_has_unit_stride=config.UNSTRUCTURED_HORIZONTAL_HAS_UNIT_STRIDE,
        use_metrics=False,
    )
    return translator(compilable).source_code


def _relative_paths(obj):
    """The absolute paths of GT4Py's, DaCe's and the corpus's sources (in
    `source_files` and debug info) made relative to their roots."""
    import dace
    import gt4py
    roots = [os.path.dirname(os.path.dirname(os.path.abspath(gt4py.__file__))),
             os.path.dirname(os.path.dirname(os.path.abspath(dace.__file__))), HERE]

    def rel(value):
        if isinstance(value, dict):
            return {k: rel(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rel(v) for v in value]
        if isinstance(value, str):
            for root in roots:
                if value.startswith(root + os.sep):
                    return os.path.relpath(value, root)
        return value
    return rel(obj)


def save_json(obj, path, compact=False):
    """Manifests indented; SDFGs compact (one line, about half the size)."""
    with open(path, "w") as f:
        if compact:
            json.dump(obj, f, separators=(",", ":"))
        else:
            json.dump(obj, f, indent=1)
        f.write("\n")


def save_npz(arrays, path):
    """numpy.savez with a fixed time on every zip entry (savez stamps the
    time of writing), so that regenerating gives the same bytes."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for key in sorted(arrays):
            info = zipfile.ZipInfo(key + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w") as f:
                np.lib.format.write_array(f, np.asanyarray(arrays[key]), allow_pickle=False)


# --- what an SDFG holds -----------------------------------------------------

def elements(sdfg):
    """The DaCe elements of `sdfg` (all nested SDFGs): node classes, library
    nodes, control-flow blocks, init/global/exit code, storages."""
    from dace import data as dt
    from dace.sdfg import nodes as nd
    nodes, libraries, blocks, storages, code, schedules = {}, {}, {}, {}, {}, {}
    memlets = {"wcr": 0, "dynamic": 0, "other_subset": 0}
    interstate = {"conditions": 0, "assignments": 0}
    nested = 0
    for sd in sdfg.all_sdfgs_recursive():
        for attr in ("init_code", "global_code", "exit_code"):
            for location, block in getattr(sd, attr).items():
                lines = [line for line in block.as_string.splitlines() if line.strip()]
                if lines:
                    code.setdefault("%s.%s" % (attr, location), []).extend(lines)
        for name, desc in sd.arrays.items():
            key = "%s %s%s" % (type(desc).__name__, desc.storage.name,
                               " transient" if desc.transient else "")
            storages[key] = storages.get(key, 0) + 1
        for edge in sd.all_interstate_edges():
            interstate["conditions"] += not edge.data.is_unconditional()
            interstate["assignments"] += len(edge.data.assignments)
        for block in sd.all_control_flow_blocks():
            key = type(block).__name__
            blocks[key] = blocks.get(key, 0) + 1
        for state in sd.states():
            for edge in state.edges():
                memlets["wcr"] += edge.data.wcr is not None
                memlets["dynamic"] += bool(edge.data.dynamic)
                memlets["other_subset"] += edge.data.other_subset is not None
            for node in state.nodes():
                key = type(node).__name__
                nodes[key] = nodes.get(key, 0) + 1
                if isinstance(node, nd.NestedSDFG):
                    nested += 1
                if isinstance(node, nd.LibraryNode):
                    libraries[key] = libraries.get(key, 0) + 1
                schedule = getattr(node.map if isinstance(node, nd.MapEntry) else node,
                                   "schedule", None)
                if schedule is not None and isinstance(node, (nd.MapEntry, nd.LibraryNode)):
                    skey = "%s %s" % (key, schedule.name)
                    schedules[skey] = schedules.get(skey, 0) + 1
    del dt
    return {"nodes": dict(sorted(nodes.items())), "library_nodes": dict(sorted(libraries.items())),
            "schedules": dict(sorted(schedules.items())),
            "control_flow": dict(sorted(blocks.items())), "nested_sdfgs": nested,
            "memlets": memlets, "interstate_edges": interstate,
            "code": code, "storages": dict(sorted(storages.items()))}


# --- one corpus entry -------------------------------------------------------

def _max_diff(got, want):
    return max(float(np.max(np.abs(_ndarray(got[k]).astype(np.float64)
                                   - np.asarray(want[k]).astype(np.float64)), initial=0.0))
               for k in want)


def _check(what, got, want, tolerance):
    for key, ref in want.items():
        value = _ndarray(got[key])
        if value.shape != ref.shape or not np.allclose(value, ref, **tolerance):
            raise RuntimeError("%s: %s differs from the embedded oracle (max |diff| %g)" % (
                what, key, float(np.max(np.abs(value.astype(np.float64) - ref)))))


def run_cpu_variant(sdfg, values, offset_provider):
    """Builds the CPU-only SDFG with DaCe (-O2, no fast-math) and calls it
    with the arguments GT4Py's own argument code (get_sdfg_args) computes for
    `values`, except that every array is a compact copy in the order of its
    dimensions in memory (numpy order "K": GT4Py's allocator pads, and puts
    the horizontal dimension first), with its stride symbols computed
    again by GT4Py's code; the .ref.npz holds these arrays. Returns the
    arguments after the call and every value taken before it (the call's
    arguments and the symbols of the arguments' shapes that are not
    arguments)."""
    import dace
    from gt4py.next.program_processors.runners.dace import get_sdfg_args
    from gt4py.next.program_processors.runners.dace.sdfg_callable import (
        get_array_stride_symbols)
    args = _copy_args(values)
    ordered = [args[name] for name in sdfg.arg_names]
    every = get_sdfg_args(sdfg, offset_provider, *ordered)
    for key, value in list(every.items()):
        if isinstance(value, np.ndarray) and key in sdfg.arrays and value.ndim:
            every[key] = np.copy(value, order="K")
            every.update(get_array_stride_symbols(sdfg.arrays[key], every[key]))
    call = {k: every[k] for k in sdfg.signature_arglist(with_types=False)}
    before = {k: np.array(v, copy=True, order="K") for k, v in every.items()}
    with dace.config.temporary_config():
        dace.Config.set("compiler", "cpu", "args", value="-fPIC -O2 -Wno-unused-parameter")
        dace.Config.set("compiler", "build_type", value="Release")
        compiled = sdfg.compile()
        compiled(**call)
    return call, before


def generate(name):
    import dace
    import gt4py.next as gtx
    corpus_lib, cpu_variants = _dace_corpus_helpers()
    program_name, suffix = split(name)
    module = load_program(program_name)
    T = getattr(gtx, {"f32": "float32", "f64": "float64"}[suffix])
    program = module.make(T)
    values = module.make_inputs(T, np.random.default_rng(SEED))
    offset_provider = module.OFFSET_PROVIDER
    tolerance = TOLERANCE[suffix]

    embedded = run_embedded(program, values, offset_provider)
    oracle = {k: np.copy(_ndarray(embedded[k]), order="K") for k in module.OUTPUTS}
    checks = {}
    if hasattr(module, "reference"):
        ref = module.reference({k: _ndarray(v) for k, v in values.items()})
        tol = {"rtol": 1e-4, "atol": 1e-4} if suffix == "f32" else {"rtol": 1e-9, "atol": 1e-9}
        _check("NumPy reference", ref, oracle, tol)
        checks["numpy_reference_max_abs_diff"] = _max_diff(ref, oracle)

    # GT4Py's own DaCe CPU build only when asked (it doubles the time).
    run = os.environ.get("SDFGSTREAM_GT4PY_CORPUS_DACE_CPU", "0") == "1"
    dace_out, compilable = run_dace_cpu(program, values, offset_provider, run=run)
    if run:
        _check("GT4Py's DaCe CPU backend", dace_out, oracle, tolerance)
        print("%s: GT4Py's DaCe CPU backend max |diff| %g" % (
            name, _max_diff(dace_out, oracle)), flush=True)

    gpu_json = _relative_paths(translate(compilable, "cuda"))
    cpu_json = _relative_paths(translate(compilable, "cpu"))
    save_json(gpu_json, os.path.join(HERE, name + ".sdfg"), compact=True)
    save_json(cpu_json, os.path.join(HERE, name + ".gt4py-cpu.sdfg"), compact=True)

    gpu_sdfg = dace.SDFG.from_json(gpu_json)
    gpu_sdfg.validate()
    variant = dace.SDFG.from_json(gpu_json)
    cpu_variants.make_cpu(variant)
    variant.validate()
    from gt4py.next.program_processors.runners.dace.workflow import common as wfcommon
    save_json(_relative_paths(wfcommon.serialize_sdfg_as_json(variant)),
              os.path.join(HERE, name + ".cpu.sdfg"), compact=True)
    variant = dace.SDFG.from_file(os.path.join(HERE, name + ".cpu.sdfg"))
    variant_out, call = run_cpu_variant(variant, values, offset_provider)
    _check("the CPU variant built by DaCe", variant_out, oracle, tolerance)
    checks["cpu_variant_max_abs_diff"] = _max_diff(variant_out, oracle)

    arglist = corpus_lib.arglist_manifest(gpu_sdfg)
    cpu_names = [row["name"] for row in corpus_lib.arglist_manifest(variant)]
    if cpu_names != [row["name"] for row in arglist]:
        raise RuntimeError("CPU variant arglist %s differs from %s" % (cpu_names, arglist))
    missing = [row["name"] for row in arglist if row["name"] not in call]
    if missing:
        raise RuntimeError("get_sdfg_args gave no value for %s" % missing)

    npz = {}
    symbols = {}
    for row in arglist:
        value = call[row["name"]]
        if row["kind"] != "array":
            # get_sdfg_args gives Python ints and floats: the SDFG's type.
            value = np.asarray(value, dtype=np.dtype(row["dtype"]))
        if row["kind"] == "symbol":
            symbols[row["name"]] = value.item()
        npz["in/" + row["name"]] = value
    arg_names = {row["name"] for row in arglist}
    shape_symbols = {k: v.item() for k, v in sorted(call.items())
                     if k not in arg_names and k in gpu_sdfg.symbols}
    for key, value in oracle.items():
        npz["out/" + key] = value
    save_npz(npz, os.path.join(HERE, name + ".ref.npz"))

    table_names = {}
    for offset, connectivity in offset_provider.items():
        from gt4py.next.program_processors.runners.dace import sdfg_args
        table_names[offset] = {
            "argument": sdfg_args.connectivity_identifier(offset),
            "shape": list(_ndarray(connectivity).shape),
            "dtype": str(_ndarray(connectivity).dtype),
        }
    manifest = {
        "program": gpu_sdfg.name,
        "source": "programs/%s.py" % program_name,
        "dtype": np.dtype(T).name,
        "program_params": list(values),
        "sdfg_arg_names": list(gpu_sdfg.arg_names),
        "arglist": arglist,
        "symbols": symbols,
        "shape_symbols": shape_symbols,
        "outputs": list(module.OUTPUTS),
        "connectivities": table_names,
        "tolerance": tolerance,
        "seed": SEED,
        "oracle": "GT4Py embedded backend",
        "checks": checks,
        "elements": elements(gpu_sdfg),
    }
    save_json(manifest, os.path.join(HERE, name + ".json"))
    return "args=%d symbols=%d %s" % (len(arglist), len(symbols), json.dumps(checks))
