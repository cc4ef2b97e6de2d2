#!/usr/bin/env python3
"""DaCe's CPU build as the oracle of the DaCe SDFG corpus.

For every programs/<name>.py (or the names given), loads <name>.sdfg (written
by generate.py), turns it into a CPU SDFG as /work/shared/DACE-IMPORT.md
section 5 describes (corpus_lib.cpu_oracle_sdfg: GPU storages -> CPU_Heap /
Register, Persistent -> Scope, GPU schedules -> Sequential, gpu_block_size
cleared, library nodes expanded with implementation 'pure'), compiles it
(build folders under $DACE_default_build_folder, by default
<tmp>/sdfgstream-dace-corpus/.dacecache, never in the repository), calls it
with copies of make_inputs(np.random.default_rng(corpus_lib.SEED)) and writes

  <name>.ref.npz  in/<arg> for every input, out/<arg> for every OUTPUTS value
                  after the call (scalars as 0-d arrays, dtypes kept);
  <name>.json     {"program", "arglist" (sdfg.arglist(): DaCe's ABI order),
                   "outputs", "tolerance", "symbols", "seed", "gpu_transform",
                   "dace_cuda_streams" (GPU programs: the stream, event and
                   sync lines of DaCe's generated CUDA code, see
                   dace_cuda_streams()), or "dace_cuda_codegen_error"
                   when DaCe's CUDA code generator refuses the SDFG}.

If the program defines reference(inputs) (plain NumPy), its outputs are
compared with DaCe's under TOLERANCE; a mismatch fails the program.

Usage: PYTHONPATH=<dace tree> /usr/bin/python3 oracle.py [name ...]
"""

import json
import os
import re
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)
sys.path.insert(0, HERE)
os.environ.setdefault("DACE_default_build_folder",
                      os.path.join(tempfile.gettempdir(), "sdfgstream-dace-corpus", ".dacecache"))
os.environ.setdefault("DACE_compiler_cpu_args",
                      "-std=c++17 -fPIC -Wall -Wextra -O2 -march=native -Wno-unused-parameter "
                      "-Wno-unused-label")

import numpy as np  # noqa: E402

import corpus_lib  # noqa: E402


def as_array(value):
    a = np.asarray(value)
    return a


STREAM_LINE = re.compile(r"cudaStreamWaitEvent|cudaEventRecord|cudaStreamSynchronize|"
                         r"cudaMemcpy|cudaMemset|cudaLaunchKernel|cudaMalloc|cudaFree|"
                         r"__dace_runkernel_\w+\(__state")


def dace_cuda_streams(name):
    """What DaCe's legacy CUDA code generator does with streams for <name>.sdfg
    (DACE-IMPORT.md section 4.1): the lines of the generated host and .cu code
    that launch kernels, copy, record/wait events and synchronize, in order.
    Code generation only: no CUDA toolkit or GPU is needed."""
    import warnings
    import dace
    sdfg = dace.SDFG.from_file(name + ".sdfg")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        objects = sdfg.generate_code()
    lines = []
    for obj in objects:
        if obj.language not in ("cpp", "cu"):
            continue
        for line in obj.clean_code.splitlines():
            line = line.strip()
            if STREAM_LINE.search(line) and not line.startswith(("DACE_EXPORTED", "void ")):
                if "internal_streams[i]" in line or "events[i]" in line:
                    continue  # stream/event creation loops
                lines.append("%s.%s: %s" % (obj.name, obj.language, line))
    return lines


def run(name):
    import dace
    from dace import data as dt
    module = corpus_lib.load_program(name)
    sdfg = dace.SDFG.from_file(name + ".sdfg")
    program_name = sdfg.name
    arglist = corpus_lib.arglist_manifest(sdfg)
    free_symbols = sorted(map(str, sdfg.free_symbols))

    cpu = corpus_lib.cpu_oracle_sdfg(sdfg, "oracle_" + program_name)
    t = time.time()
    compiled = cpu.compile()
    t_compile = time.time() - t

    inputs = module.make_inputs(np.random.default_rng(corpus_lib.SEED))
    names = {row["name"] for row in arglist}
    missing = names - set(inputs)
    if missing:
        raise RuntimeError("make_inputs lacks %s" % sorted(missing))
    for out in module.OUTPUTS:
        if out not in inputs:
            raise RuntimeError("OUTPUTS names %s, not an argument" % out)

    # Typed inputs: arrays as given, scalars as the descriptor's numpy type.
    typed = {}
    for row in arglist:
        v = inputs[row["name"]]
        desc = cpu.arglist()[row["name"]]
        if row["kind"] == "array":
            v = np.asarray(v)
            if v.dtype != desc.dtype.type:
                raise RuntimeError("%s: dtype %s, descriptor %s" % (row["name"], v.dtype,
                                                                    desc.dtype))
        else:
            v = desc.dtype.type(v)
        typed[row["name"]] = v
    # copy(order='K') keeps a Fortran-ordered input's strides.
    args = {k: (v.copy(order='K') if isinstance(v, np.ndarray) else v) for k, v in typed.items()}
    t = time.time()
    compiled(**args)
    t_run = time.time() - t

    npz = {}
    for k, v in typed.items():
        npz["in/" + k] = as_array(v)
    outputs = {}
    for k in module.OUTPUTS:
        if not isinstance(args[k], np.ndarray):
            raise RuntimeError("output %s is not an array (scalars are passed by value)" % k)
        outputs[k] = args[k]
        npz["out/" + k] = args[k]
    np.savez(name + ".ref.npz", **npz)

    checked = "no reference()"
    ref = getattr(module, "reference", None)
    if ref is not None:
        expected = ref({k: (v.copy(order='K') if isinstance(v, np.ndarray) else v)
                        for k, v in inputs.items()})
        for k, want in expected.items():
            have = outputs[k]
            want = np.asarray(want)
            if have.shape != want.shape:
                raise RuntimeError("%s: shape %s, NumPy %s" % (k, have.shape, want.shape))
            if not np.allclose(have, want, **module.TOLERANCE):
                bad = np.argwhere(~np.isclose(have, want, **module.TOLERANCE))
                i = tuple(bad[0])
                raise RuntimeError("%s differs from NumPy at %d places, first %s: %r vs %r"
                                   % (k, len(bad), i, have[i], want[i]))
        checked = "matches reference() on %s" % ", ".join(sorted(expected))

    manifest = {
        "program": program_name,
        "arglist": arglist,
        "outputs": list(module.OUTPUTS),
        "tolerance": dict(module.TOLERANCE),
        "symbols": {s: int(inputs[s]) for s in free_symbols if s in inputs},
        "seed": corpus_lib.SEED,
        "gpu_transform": bool(getattr(module, "GPU_TRANSFORM", True)),
    }
    if manifest["gpu_transform"]:
        try:
            manifest["dace_cuda_streams"] = dace_cuda_streams(name)
        except Exception as e:  # DaCe's CUDA code generator refuses some SDFGs
            manifest["dace_cuda_codegen_error"] = "%s: %s" % (type(e).__name__,
                                                              str(e).splitlines()[0])
    with open(name + ".json", "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=False)
        f.write("\n")
    return "compile %.1fs, run %.3fs, %s" % (t_compile, t_run, checked)


def main(argv):
    return corpus_lib.run_each(argv, run, "oracle")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
