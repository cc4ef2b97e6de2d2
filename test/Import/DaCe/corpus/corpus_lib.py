"""Shared helpers of generate.py and oracle.py (the DaCe SDFG importer's corpus).

Run with Debian's /usr/bin/python3 and PYTHONPATH from scripts/dace-env.sh
(scripts/dace-corpus.sh does both).
"""

import copy
import glob
import importlib.util
import json
import os
import random
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
SEED = 20250101  # make_inputs(np.random.default_rng(SEED))


def program_names():
    return sorted(os.path.splitext(os.path.basename(p))[0]
                  for p in glob.glob(os.path.join(PROGRAMS, "*.py"))
                  if not os.path.basename(p).startswith("_"))


def deterministic_guids(name):
    """DaCe gives every element a uuid4 guid: draw them from a generator seeded
    by the program name so that regenerating gives the same files."""
    rng = random.Random("sdfgstream-corpus:" + name)
    uuid.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)


def relative_source_files():
    """DaCe writes the absolute paths of the files in debuginfo into the root's
    `source_files`: make them relative (programs/<name>.py, dace/...)."""
    import dace
    dace_root = os.path.dirname(os.path.dirname(os.path.abspath(dace.__file__)))
    orig = dace.SDFG.compute_debuginfo_files
    if getattr(orig, "_sdfgstream", False):
        return

    def rel(path):
        for root in (HERE, dace_root):
            if path.startswith(root + os.sep):
                return os.path.relpath(path, root)
        return path

    def patched(self):
        return [rel(f) for f in orig(self)]
    patched._sdfgstream = True
    dace.SDFG.compute_debuginfo_files = patched


def load_program(name):
    """Imports programs/<name>.py under a path relative to this directory
    (DaCe writes the source path into `source_files`; a relative one keeps the
    files independent of the checkout's location). Needs cwd == HERE."""
    assert os.getcwd() == HERE, "run from %s" % HERE
    rel = os.path.join("programs", name + ".py")
    spec = importlib.util.spec_from_file_location("corpus_" + name, rel)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for attr in ("program", "make_inputs", "OUTPUTS", "TOLERANCE"):
        if not hasattr(module, attr):
            raise RuntimeError("%s lacks %s" % (rel, attr))
    return module


def build_sdfg(module):
    """The SDFG as saved in <name>.sdfg: to_sdfg(), then
    apply_gpu_transformations() unless GPU_TRANSFORM is False, then the
    program's optional `postprocess(sdfg)` (e.g. setting gpu_block_size)."""
    # DaCe names the SDFG <module>_<function> unless the module is None.
    module.program.f.__module__ = None
    sdfg = module.program.to_sdfg()
    if getattr(module, "GPU_TRANSFORM", True):
        sdfg.apply_gpu_transformations()
    post = getattr(module, "postprocess", None)
    if post is not None:
        post(sdfg)
    sdfg.validate()
    return sdfg


def _gpu_storages():
    import dace
    S = dace.dtypes.StorageType
    return {S.GPU_Global, S.GPU_Shared, S.CPU_Pinned}


def _cpu_round(sdfg):
    """One round of DACE-IMPORT.md section 5's CPU oracle changes over every
    (nested) SDFG. Returns the number of library nodes left."""
    import dace
    from dace import data as dt
    from dace.sdfg import nodes as nd
    S = dace.dtypes.StorageType
    L = dace.dtypes.AllocationLifetime
    gpu_storages = _gpu_storages()
    libs = 0
    for sd in sdfg.all_sdfgs_recursive():
        for desc in sd.arrays.values():
            if desc.storage in gpu_storages:
                desc.storage = S.Register if isinstance(desc, dt.Scalar) else S.CPU_Heap
            if desc.lifetime == L.Persistent:
                desc.lifetime = L.Scope
        for node, _ in sd.all_nodes_recursive():
            if isinstance(node, nd.MapEntry):
                if node.map.schedule in dace.dtypes.GPU_SCHEDULES:
                    node.map.schedule = dace.dtypes.ScheduleType.Sequential
                node.map.gpu_block_size = None
            elif isinstance(node, (nd.NestedSDFG, nd.LibraryNode)):
                # (NestedSDFG has no schedule in 2.0.0a5.)
                if getattr(node, "schedule", None) in dace.dtypes.GPU_SCHEDULES:
                    node.schedule = dace.dtypes.ScheduleType.Sequential
                if isinstance(node, nd.LibraryNode):
                    libs += 1
                    if "pure" in node.implementations:
                        node.implementation = "pure"
    return libs


def cpu_oracle_sdfg(sdfg, name):
    """DACE-IMPORT.md section 5: the GPU SDFG turned into a CPU one."""
    rounds = 0
    while _cpu_round(sdfg):
        rounds += 1
        if rounds > 5:
            raise RuntimeError("library nodes left after 5 expansions")
        sdfg.expand_library_nodes(recursive=False)
    sdfg.name = name
    sdfg.validate()
    return sdfg


# --- summary of what an SDFG contains (generate.py prints it) --------------

def summarize(sdfg):
    """Counts of the elements the importer must handle, from the SDFG object."""
    import dace
    from dace import data as dt
    from dace.sdfg import nodes as nd
    from dace.sdfg.state import LoopRegion, ConditionalBlock, SDFGState
    s = {
        "states": 0, "LoopRegion": 0, "ConditionalBlock": 0, "nested_sdfgs": 0,
        "library_nodes": [], "maps": {}, "max_gpu_maps_per_state": 0,
        "wcr_memlets": [], "copies": 0, "storages": set(), "tasklets": 0,
        "gpu_block_size": [], "interstate_assignments": [], "interstate_conditions": [],
        "transients": set(),
    }
    for sd in sdfg.all_sdfgs_recursive():
        for name, desc in sd.arrays.items():
            s["storages"].add("%s:%s" % (type(desc).__name__, desc.storage.name))
            if desc.transient:
                s["transients"].add("%s %s" % (type(desc).__name__, desc.storage.name))
        for e in sd.all_interstate_edges():
            if e.data.assignments:
                s["interstate_assignments"].append(dict(e.data.assignments))
            if not e.data.is_unconditional():
                s["interstate_conditions"].append(e.data.condition.as_string)
        for block in sd.all_control_flow_blocks():
            if isinstance(block, LoopRegion):
                s["LoopRegion"] += 1
            elif isinstance(block, ConditionalBlock):
                s["ConditionalBlock"] += 1
        for state in sd.states():
            s["states"] += 1
            gpu_maps = 0
            for node in state.nodes():
                if isinstance(node, nd.MapEntry):
                    key = node.map.schedule.name
                    s["maps"][key] = s["maps"].get(key, 0) + 1
                    if node.map.schedule == dace.dtypes.ScheduleType.GPU_Device:
                        gpu_maps += 1
                    if node.map.gpu_block_size:
                        s["gpu_block_size"].append(list(node.map.gpu_block_size))
                elif isinstance(node, nd.NestedSDFG):
                    s["nested_sdfgs"] += 1
                elif isinstance(node, nd.LibraryNode):
                    s["library_nodes"].append("%s(identity=%s, wcr=%s, axes=%s)" % (
                        type(node).__name__, getattr(node, "identity", None),
                        getattr(node, "wcr", None), getattr(node, "axes", None)))
                elif isinstance(node, nd.Tasklet):
                    s["tasklets"] += 1
            s["max_gpu_maps_per_state"] = max(s["max_gpu_maps_per_state"], gpu_maps)
            for e in state.edges():
                if e.data.wcr is not None:
                    s["wcr_memlets"].append(e.data.wcr)
                if isinstance(e.src, nd.AccessNode) and isinstance(e.dst, nd.AccessNode):
                    s["copies"] += 1
    s["storages"] = sorted(s["storages"])
    s["transients"] = sorted(s["transients"])
    s["wcr_memlets"] = sorted(set(s["wcr_memlets"]))
    return s


def arglist_manifest(sdfg):
    """sdfg.arglist() (DaCe's ABI order) as JSON-able rows."""
    from dace import data as dt
    rows = []
    free = set(map(str, sdfg.free_symbols))
    for name, desc in sdfg.arglist().items():
        if isinstance(desc, dt.Scalar) and name in free and name not in sdfg.arrays:
            kind = "symbol"
        elif isinstance(desc, dt.Scalar):
            kind = "scalar"
        else:
            kind = "array"
        rows.append({
            "name": name, "kind": kind, "dtype": desc.dtype.to_json(),
            "shape": [str(x) for x in desc.shape] if kind == "array" else [],
            "strides": [str(x) for x in desc.strides] if kind == "array" else [],
            "storage": desc.storage.name,
        })
    return rows


def run_each(argv, step, title):
    """Runs `step(name)` for the programs named in argv[1:] (all by default),
    printing the line each returns (timed) and going on past a failing one;
    ends with a summary line starting with `title`. Returns the exit status."""
    import time
    import traceback
    names = argv[1:] or program_names()
    failed = []
    t0 = time.time()
    for name in names:
        t = time.time()
        try:
            line = step(name)
        except Exception as e:  # report and go on with the others
            traceback.print_exc()
            failed.append(name)
            print("FAIL %s: %s" % (name, e), flush=True)
            continue
        print("%-24s %.1fs %s" % (name, time.time() - t, line), flush=True)
    print("%s: %d of %d programs in %.1fs" % (title, len(names) - len(failed), len(names),
                                            time.time() - t0))
    if failed:
        print("failed: " + " ".join(failed))
        return 1
    return 0
