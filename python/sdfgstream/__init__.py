"""sdfgstream: call SDFGStream programs on the stream your application owns.

    import sdfgstream
    lib = sdfgstream.compile("prog.mlir")        # or sdfgstream.load("prog.so")
    lib.axpy(x=x, y=y, alpha=2.0, stream=s)       # CuPy / PyTorch / NumPy / JAX arrays

See docs/python.md.
"""

from ._errors import CallError, CompileError, Error, LibraryError
from ._library import GraphStats, Library, TimerTotals, load
from ._program import Program
from ._streams import stream_handle
from ._compile import cache_dir, compile, tool_version

__version__ = "0.1.0"

__all__ = ["CallError", "CompileError", "Error", "GraphStats", "Library",
           "LibraryError", "Program", "TimerTotals", "cache_dir", "compile",
           "load", "stream_handle", "tool_version"]
