"""DaCe's own CUDA build of an SDFG file, for the comparison in
bench/dace/bandwidth.py and concurrency.py: DaCe (2.0.0a5, from
scripts/dace-env.sh) generates and compiles the program with its CMake
setup for sm_90, and the library it made is copied to OUT-DIR/lib<name>.so.

usage: dace_build.py FILE.sdfg OUT-DIR [BLOCK]  (BLOCK: DaCe's
compiler.cuda.default_block_size, e.g. 256,1,1; DACE_default_build_folder:
where DaCe builds)
"""
import os
import shutil
import sys

import dace

path, out_dir = sys.argv[1], sys.argv[2]
dace.Config.set("compiler", "cuda", "cuda_arch", value="90")
if len(sys.argv) > 3:
    dace.Config.set("compiler", "cuda", "default_block_size", value=sys.argv[3])
sdfg = dace.SDFG.from_file(path)
compiled = sdfg.compile()
os.makedirs(out_dir, exist_ok=True)
shutil.copy(compiled.filename, os.path.join(out_dir, os.path.basename(compiled.filename)))
print("%s -> %s" % (path, out_dir))
