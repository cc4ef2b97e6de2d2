"""sdfgstream.compile: builds kept in the cache and reused, in this process
and another; options and the tool are part of the key; errors carry the
tool's messages."""

import os
import subprocess
import sys
import tempfile
import time
import unittest

import sdfgstream
from support import HERE

PROGRAM = """
func.func @twice(%x: memref<?xf32> {sdfg.arg_name = "x"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  return
}
"""


class CompileCacheTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp(prefix="sdfgstream-cache-test-")

    def test_second_compile_reuses_the_build(self):
        start = time.monotonic()
        first = sdfgstream.compile(PROGRAM, cache=self.cache, name="twice")
        first_seconds = time.monotonic() - start
        start = time.monotonic()
        second = sdfgstream.compile(PROGRAM, cache=self.cache, name="twice")
        second_seconds = time.monotonic() - start
        print("\n  compile: %.3f s built, %.4f s from the cache (tool %.3f s)"
              % (first_seconds, second_seconds, first.build["seconds"]))
        self.assertTrue(first.build["built_now"])
        self.assertFalse(second.build["built_now"])
        self.assertEqual(first.path, second.path)
        self.assertLess(second_seconds, first_seconds / 5)
        import numpy as np
        x = np.arange(4, dtype=np.float32)
        second.twice(x=x)
        self.assertEqual(list(x), [0.0, 2.0, 4.0, 6.0])
        # Another process finds the build too.
        script = ("import sdfgstream, sys; lib = sdfgstream.compile(sys.argv[1], "
                  "cache=sys.argv[2], name='twice'); print(lib.build['built_now'], lib.path)")
        done = subprocess.run([sys.executable, "-c", script, PROGRAM, self.cache],
                              capture_output=True, text=True, check=True)
        self.assertEqual(done.stdout.split(), ["False", first.path])

    def test_options_and_input_make_new_keys(self):
        plain = sdfgstream.compile(PROGRAM, cache=self.cache)
        synced = sdfgstream.compile(PROGRAM, cache=self.cache, sync_call=True)
        other = sdfgstream.compile(PROGRAM.replace("2.0", "3.0"), cache=self.cache)
        self.assertEqual(len({plain.build["key"], synced.build["key"], other.build["key"]}), 3)
        self.assertIn("--sync-call", synced.build["command"])
        self.assertTrue(all(lib.build["built_now"] for lib in (plain, synced, other)))

    def test_file_input_keeps_its_name(self):
        path = os.path.join(self.cache, "doubler.mlir")
        with open(path, "w") as handle:
            handle.write(PROGRAM)
        lib = sdfgstream.compile(path, cache=self.cache)
        self.assertEqual(os.path.basename(lib.path), "doubler.so")
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(lib.path), "doubler.h")))

    def test_tool_errors_are_compile_errors(self):
        with self.assertRaises(sdfgstream.CompileError) as caught:
            sdfgstream.compile("func.func @f( {", cache=self.cache)
        self.assertIn("sdfg-compile failed", str(caught.exception))
        self.assertIn("error:", caught.exception.output)
        with self.assertRaisesRegex(ValueError, "takes .mlir, .sdfg or .sdfgz"):
            sdfgstream.compile(os.path.join(HERE, "support.py"), cache=self.cache)

    def test_tool_version_names_the_tool(self):
        self.assertRegex(sdfgstream.tool_version(),
                         r"^sdfg-compile \(SDFGStream [0-9.]+, MLIR [0-9.]+\) \[.*sdfg-opt:")


class StreamHandleTest(unittest.TestCase):
    def test_stream_handles(self):
        import ctypes
        self.assertEqual(sdfgstream.stream_handle(7), 7)
        self.assertEqual(sdfgstream.stream_handle(ctypes.c_void_p(None)), 0)
        with self.assertRaisesRegex(TypeError, "is not a stream"):
            sdfgstream.stream_handle("s")
        with self.assertRaisesRegex(TypeError, "is not a stream"):
            sdfgstream.stream_handle(True)
        with self.assertRaisesRegex(ValueError, "negative"):
            sdfgstream.stream_handle(-1)

        class Bad:
            def __cuda_stream__(self):
                return 5
        with self.assertRaisesRegex(TypeError, r"gave 5, not \(version, handle\)"):
            sdfgstream.stream_handle(Bad())


if __name__ == "__main__":
    unittest.main()
