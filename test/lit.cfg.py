# -*- Python -*-
# lit configuration of the SDFGStream regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SDFGStream"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sdfgstream_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.sdfgstream_tools_dir, config.llvm_tools_dir]
tools = ["sdfg-opt", "mlir-opt", "mlir-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

config.substitutions.append(("%sdfgstream_src_root", config.sdfgstream_src_root))
config.substitutions.append(("%mlir_obj_root", config.mlir_obj_dir))
