# -*- Python -*-
# lit configuration of the SDFGStream regression tests.

import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SDFGStream"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sdfgstream_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]

# Two suites over one tree (lit param sdfgstream_suite):
#   fast         the FileCheck tests: sdfg-opt and sdfg-translate only
#                (check-sdfgstream, the inner loop);
#   integration  what needs sdfg-compile, the runtimes, an install, the
#                generated docs or a GPU (check-sdfgstream-integration);
#   all          both (the default; scripts/test.sh, and scripts/sanitize.sh
#                on the instrumented build: see %host_cc below).
# Integration tests are the entries named here, at the top of test/ or of
# test/tools; every other entry is a fast one.
integration = {"GPU", "embedding", "examples", "docs-up-to-date.test", "sdfg-compile"}
suite = lit_config.params.get("sdfgstream_suite", "all")
if suite not in ("fast", "integration", "all"):
    lit_config.fatal("sdfgstream_suite must be fast, integration or all, "
                     "not %r" % suite)
if suite == "fast":
    config.excludes += sorted(integration)
elif suite == "integration":
    here = os.path.dirname(__file__)
    for top in (here, os.path.join(here, "tools")):
        config.excludes += [entry for entry in os.listdir(top)
                            if entry not in integration and entry != "tools"
                            and not entry.startswith(("lit.", "CMakeLists"))]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# The GPU machine runs only test/GPU, without LLVM's test tools.
if os.path.exists(os.path.join(config.llvm_tools_dir, "FileCheck")):
    llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.sdfgstream_tools_dir, config.llvm_tools_dir]
tools = ["sdfg-opt", "sdfg-translate", "sdfg-compile", "mlir-opt", "mlir-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

config.substitutions.append(("%sdfgstream_src_root", config.sdfgstream_src_root))
config.substitutions.append(("%sdfgstream_obj_root", config.sdfgstream_obj_root))
config.substitutions.append(("%mlir_obj_root", config.mlir_obj_dir))

# The tests that build code of their own against this build (C callers,
# executables, the embedding example) do it with this build's compilers:
#   %host_cc, %host_cxx  the C and C++ compilers;
#   %host_cmake_args     the same for a CMake project (test/embedding).
# In the instrumented build (scripts/sanitize.sh) they add the sanitizer
# flags of cmake/modules/Instrumentation.cmake, so that what they link
# carries the AddressSanitizer and UBSan runtimes the instrumented libraries
# need, and %python (uninstrumented) runs with the ASan runtime preloaded,
# its own allocations not leak-checked. That way the whole suite runs there.
instrumented = getattr(config, "sanitizers_enabled", False)
sanitizer_flags = ("-fsanitize=address,undefined -fno-sanitize=vptr,function "
                   "-fno-sanitize-recover=undefined")
host_cc = getattr(config, "host_cc", "cc")
host_cxx = getattr(config, "host_cxx", "c++")
host_flags = " " + sanitizer_flags if instrumented else ""
config.substitutions.append(("%host_cc", host_cc + host_flags))
config.substitutions.append(("%host_cxx", host_cxx + host_flags))
host_cmake_args = "-DCMAKE_C_COMPILER=%s -DCMAKE_CXX_COMPILER=%s" % (
    host_cc, host_cxx)
if instrumented:
    host_cmake_args += (' "-DCMAKE_C_FLAGS=%s" "-DCMAKE_CXX_FLAGS=%s"'
                        % (sanitizer_flags, sanitizer_flags))
config.substitutions.append(("%host_cmake_args", host_cmake_args))
if instrumented:
    import subprocess as _subprocess
    asan_runtime = _subprocess.run(
        [host_cc, "-print-file-name=libclang_rt.asan-x86_64.so"],
        capture_output=True, text=True).stdout.strip()
    if not os.path.exists(asan_runtime):
        lit_config.fatal("no ASan runtime for %%python: %r" % asan_runtime)
    config.substitutions = [(key, value) for key, value in
                            config.substitutions if key != "%python"]
    config.substitutions.append(
        ("%python", "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0:"
         "abort_on_error=1 %s" % (asan_runtime, sys.executable)))

# test/embedding installs this build into a prefix and builds
# examples/embedding against it: needs cmake and ninja (and a build tree that
# has install rules).
import shutil
cmake, ninja = shutil.which("cmake"), shutil.which("ninja")
if cmake and ninja and os.path.exists(
        os.path.join(config.sdfgstream_obj_root, "cmake_install.cmake")):
    config.available_features.add("cmake-ninja")
    config.substitutions.append(("%cmake", cmake))
    config.substitutions.append(("%ninja", ninja))

# Kernel toolchains. PTX and AMDGCN assembly need nothing beyond LLVM; cubin
# and fatbin need CUDA's ptxas, hsaco needs ROCm device bitcode and ld.lld.
config.substitutions.append(("%rocm_toolkit", "/usr/lib/x86_64-linux-gnu"))
cuda_bin = "/usr/local/cuda/bin"
if os.path.exists(os.path.join(cuda_bin, "ptxas")):
    config.available_features.add("ptxas")
    llvm_config.with_environment("PATH", cuda_bin, append_path=True)
rocm_bitcode = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
ld_lld = os.path.join(config.llvm_tools_dir, "ld.lld")
if os.path.isdir(rocm_bitcode) and os.path.exists(ld_lld):
    config.available_features.add("rocm-toolkit")
config.substitutions.append(("%rocm_bitcode", rocm_bitcode))
config.substitutions.append(("%ld_lld", ld_lld))

# GPU tests: `cuda` only where the probe finds a usable CUDA device.
import subprocess
probe = os.path.join(config.sdfgstream_tools_dir, "sdfg-cuda-probe")
try:
    found = subprocess.run([probe], capture_output=True, text=True, timeout=60)
    if found.returncode == 0:
        config.available_features.add("cuda")
    lit_config.note("CUDA probe: " + found.stdout.strip())
except OSError as error:
    lit_config.note("CUDA probe did not run: %s" % error)
# The Python client example (test/examples/python-gpu): `cupy`, `torch` and `jax`
# where python3, in the tests' environment, imports them and they see a CUDA
# device (probed only with `cuda`: importing torch takes seconds).
if "cuda" in config.available_features:
    for module, check in (("cupy", "cupy.cuda.runtime.getDeviceCount() > 0"),
                          ("torch", "torch.cuda.is_available()"),
                          ("jax", "any(d.platform == 'gpu' for d in jax.devices())")):
        try:
            found = subprocess.run(
                ["python3", "-c", "import sys, %s; sys.exit(0 if %s else 1)" % (module, check)],
                capture_output=True, text=True, timeout=300, env=config.environment)
            if found.returncode == 0:
                config.available_features.add(module)
            else:
                reason = (found.stderr.strip().splitlines() or ["no device"])[-1]
                lit_config.note("%s probe: not usable (%s)" % (module, reason))
        except (OSError, subprocess.TimeoutExpired) as error:
            lit_config.note("%s probe did not run: %s" % (module, error))
config.substitutions.append(
    ("%sdfg_gpu_tests", os.path.join(config.sdfgstream_tools_dir, "sdfg-gpu-tests")))
# The integration programs (test/GPU/integration): their runner, and
# compute-sanitizer for the memcheck runs (a test fails, not skips, where a
# CUDA machine lacks it).
config.substitutions.append(
    ("%sdfg_gpu_run", os.path.join(config.sdfgstream_tools_dir, "sdfg-gpu-run")))
config.substitutions.append(
    ("%compute_sanitizer", shutil.which("compute-sanitizer") or
     "/usr/local/cuda/bin/compute-sanitizer"))
device_tests = os.path.join(config.sdfgstream_tools_dir, "SDFGRuntimeCudaDeviceTests")
if not os.path.exists(device_tests):
    device_tests = os.path.join(config.sdfgstream_obj_root, "unittests", "Runtime",
                                "SDFGRuntimeCudaDeviceTests")
config.substitutions.append(("%sdfgrt_device_tests", device_tests))

# compute-sanitizer (memcheck, racecheck, synccheck) for the GPU tests: from
# PATH or the CUDA toolkit.
sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
if os.path.exists(sanitizer):
    config.available_features.add("compute-sanitizer")
    config.substitutions.append(("%compute_sanitizer", sanitizer))
