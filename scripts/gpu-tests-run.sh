#!/usr/bin/env bash
# Runs the GPU tests (test/GPU, REQUIRES: cuda; test/examples/python-gpu, the
# Python client example on CuPy and PyTorch streams, REQUIRES: cuda and cupy /
# torch, its output in the log) on the GPU machine, from the files
# scripts/gpu-tests-build.sh staged in .device/. Writes the full log to
# $OUT/gpu-tests.log (or ./gpu-tests.log) and ends with
# "N passed, N failed" (after a line counting the skipped ones).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log="${OUT:-$root}/gpu-tests.log"
export LD_LIBRARY_PATH="$root/.device/bin:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
obj="$root/.device/obj"

# A lit site configuration for this machine's paths.
mkdir -p "$obj/test/GPU" "$obj/test/examples/python-gpu"
cat > "$obj/test/lit.site.cfg.py" <<CFG
config.llvm_tools_dir = "/nonexistent"
config.mlir_obj_dir = "$obj"
config.sdfgstream_obj_root = "$obj"
config.sdfgstream_tools_dir = "$root/.device/bin"
config.sdfgstream_src_root = "$root"
import lit.llvm
lit.llvm.initialize(lit_config, config)
lit_config.load_config(config, "$root/test/lit.cfg.py")
CFG

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version 2>/dev/null | tail -1
  # One test at a time: several tests time calls against a spinning kernel
  # and share the one GPU; in parallel they disturb each other's timings.
  PYTHONPATH="$root/.device" python3 -c "import lit.main; lit.main.main()" -a -j 1 \
    --xunit-xml-output="$obj/gpu-results.xml" "$obj/test/GPU" \
    "$obj/test/examples/python-gpu"
  echo "lit exit status: $?" > "$obj/lit-status"
} 2>&1 | tee "$log"

status=$(grep -o '[0-9]*' "$obj/lit-status" 2>/dev/null || echo 1)
python3 "$root/scripts/lit-summary.py" "$obj/gpu-results.xml" "$status" | tee -a "$log"
exit "${PIPESTATUS[0]}"
