"""What the package's tests share: the tools of the build under test and
libraries built once per run (through sdfgstream.compile, into the run's
own cache directory).

Environment (scripts/python-package-tests.sh sets it):
  SDFG_COMPILE                  the sdfg-compile to build with
  SDFGSTREAM_CACHE_DIR          the build cache of this run
  SDFGSTREAM_FAKE_CUDA_DRIVER   the fake CUDA driver (unittests/Runtime)
"""

import ctypes
import os
import unittest

import sdfgstream

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(ROOT, "examples", "python", "smooth_axpy.mlir")
PROGRAMS = os.path.join(HERE, "programs.mlir")
FAKE_DRIVER = os.environ.get("SDFGSTREAM_FAKE_CUDA_DRIVER", "")

# The runtime opens the driver at its first GPU operation, from this
# variable: set before any library is loaded.
if FAKE_DRIVER:
    os.environ["SDFGRT_CUDA_LIBRARY"] = FAKE_DRIVER

_libraries = {}


def library(source, **options):
    """The library of `source` built with `options` (once per run)."""
    key = (source, tuple(sorted(options.items())))
    if key not in _libraries:
        _libraries[key] = sdfgstream.compile(source, **options)
    return _libraries[key]


def example(**options):
    """examples/python/smooth_axpy.mlir, its kernels as PTX (no ptxas)."""
    return library(EXAMPLE, format="isa", **options)


class FakeDriver:
    """The fake driver's C view (unittests/Runtime/FakeCudaDriverC.cpp)."""

    def __init__(self, path):
        self.dll = ctypes.CDLL(path)
        for name, restype, argtypes in (
                ("fakecudaCreateStream", ctypes.c_void_p, [ctypes.c_int]),
                ("fakecudaLaunchCount", ctypes.c_int, []),
                ("fakecudaLaunchStream", ctypes.c_void_p, [ctypes.c_int]),
                ("fakecudaLaunchKernel", ctypes.c_char_p, [ctypes.c_int]),
                ("fakecudaWaitCount", ctypes.c_int, []),
                ("fakecudaWaitStream", ctypes.c_void_p, [ctypes.c_int]),
                ("fakecudaWaitEventStream", ctypes.c_void_p, [ctypes.c_int]),
                ("fakecudaCallCount", ctypes.c_int, [ctypes.c_char_p]),
                ("fakecudaFailCall", None, [ctypes.c_char_p, ctypes.c_int])):
            function = getattr(self.dll, name)
            function.restype = restype
            function.argtypes = argtypes

    def stream(self, context=0):
        return self.dll.fakecudaCreateStream(context)

    def launches(self):
        return [(self.dll.fakecudaLaunchStream(i) or 0,
                 self.dll.fakecudaLaunchKernel(i).decode())
                for i in range(self.dll.fakecudaLaunchCount())]

    def waits(self):
        return [(self.dll.fakecudaWaitStream(i) or 0,
                 self.dll.fakecudaWaitEventStream(i) or 0)
                for i in range(self.dll.fakecudaWaitCount())]

    def calls(self, name):
        return self.dll.fakecudaCallCount(name.encode())

    def fail(self, name, code):
        self.dll.fakecudaFailCall(name.encode() if name else None, code)


def fake_driver():
    if not FAKE_DRIVER:
        raise unittest.SkipTest("no fake CUDA driver (SDFGSTREAM_FAKE_CUDA_DRIVER)")
    return FakeDriver(FAKE_DRIVER)


class DeviceArray:
    """A "GPU array" of the fake driver (which works on host memory): a
    NumPy array seen through __cuda_array_interface__ (version 3), with
    the stream its producer last used, if any."""

    def __init__(self, array, stream=None):
        self.array = array
        self.stream = stream

    @property
    def __cuda_array_interface__(self):
        interface = {"shape": self.array.shape, "typestr": self.array.dtype.str,
                     "data": (self.array.ctypes.data, False), "version": 3,
                     "strides": None if self.array.flags.c_contiguous else self.array.strides}
        if self.stream is not None:
            interface["stream"] = self.stream
        return interface
