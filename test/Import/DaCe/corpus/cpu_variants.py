#!/usr/bin/env python3
"""CPU variants of the DaCe SDFG corpus, for the importer's CPU oracle check
(check.py): for every GPU program <name>.sdfg (GPU_TRANSFORM not False),
writes <name>.cpu.sdfg, the same SDFG made CPU-only:

  - in every (nested) SDFG, storage GPU_Global / GPU_Shared / CPU_Pinned ->
    CPU_Heap (Scalars -> Register), lifetime Persistent -> Scope;
  - GPU schedules (GPU_Device, GPU_ThreadBlock, ...) of maps and library
    nodes -> Sequential; gpu_block_size cleared;
  - library nodes are NOT expanded (unlike oracle.py's CPU build): the
    importer lowers the Reduce node itself (an expansion would replace it
    with a NestedSDFG).

The SDFG keeps its name (the library exports _mlir_ciface_<name>), so the
manifest <name>.json (arglist, symbols, tolerance) and <name>.ref.npz apply
unchanged. Programs without the GPU transformation (cpu_sequential) get no
variant: check.py uses <name>.sdfg for them.

Usage (scripts/dace-corpus.sh runs it after generate.py):
  PYTHONPATH=<dace tree> /usr/bin/python3 cpu_variants.py [name ...]

Deterministic like generate.py: the input is the saved <name>.sdfg, the
output is saved in the same compact serialization, PYTHONHASHSEED is 0.
"""

import os
import sys
import tempfile

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)
sys.path.insert(0, HERE)
os.environ.setdefault("DACE_default_build_folder",
                      os.path.join(tempfile.gettempdir(), "sdfgstream-dace-corpus", ".dacecache"))

import corpus_lib  # noqa: E402


def make_cpu(sdfg):
    """The CPU-only variant of `sdfg` (in place); returns what it changed."""
    import dace
    from dace import data as dt
    from dace.sdfg import nodes as nd
    S = dace.dtypes.StorageType
    L = dace.dtypes.AllocationLifetime
    gpu_storages = {S.GPU_Global, S.GPU_Shared, S.CPU_Pinned}
    changed = {"storage": 0, "lifetime": 0, "schedule": 0, "gpu_block_size": 0}
    for sd in sdfg.all_sdfgs_recursive():
        for desc in sd.arrays.values():
            if desc.storage in gpu_storages:
                desc.storage = S.Register if isinstance(desc, dt.Scalar) else S.CPU_Heap
                changed["storage"] += 1
            if desc.lifetime == L.Persistent:
                desc.lifetime = L.Scope
                changed["lifetime"] += 1
        for node, _ in sd.all_nodes_recursive():
            if isinstance(node, nd.MapEntry):
                if node.map.schedule in dace.dtypes.GPU_SCHEDULES:
                    node.map.schedule = dace.dtypes.ScheduleType.Sequential
                    changed["schedule"] += 1
                if node.map.gpu_block_size:
                    node.map.gpu_block_size = None
                    changed["gpu_block_size"] += 1
            elif isinstance(node, (nd.NestedSDFG, nd.LibraryNode)):
                # (NestedSDFG has no schedule in 2.0.0a5.)
                if getattr(node, "schedule", None) in dace.dtypes.GPU_SCHEDULES:
                    node.schedule = dace.dtypes.ScheduleType.Sequential
                    changed["schedule"] += 1
    return changed


def variant(name):
    import dace
    module = corpus_lib.load_program(name)
    if not getattr(module, "GPU_TRANSFORM", True):
        return None
    sdfg = dace.SDFG.from_file(name + ".sdfg")
    changed = make_cpu(sdfg)
    sdfg.validate()
    path = name + ".cpu.sdfg"
    sdfg.save(path)
    dace.SDFG.from_file(path).validate()
    return changed


def main(argv):
    def step(name):
        changed = variant(name)
        if changed is None:
            return "no GPU transformation: no variant"
        return " ".join("%s=%d" % kv for kv in sorted(changed.items()))
    return corpus_lib.run_each(argv, step, "cpu variants")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
