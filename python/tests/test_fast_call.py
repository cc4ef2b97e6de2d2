"""The generated fast path of a plain call (_fastcall.py): repeated calls
with arrays it knows take it and pack the frame byte for byte as the
general path does; anything else takes the general path, which accepts or
rejects it as before; stream order is the general path's."""

import contextlib
import sys
import types
import unittest

import numpy as np

import sdfgstream
from sdfgstream import _streams
from support import PROGRAMS, example, fake_driver, library


def count_general_calls(program):
    """Counts the program's calls that take the general path."""
    calls = []
    general = type(program)._general_call

    def counted(values, stream):
        calls.append(len(values))
        return general(program, values, stream)
    program._general_call = counted
    return calls


def same_frame(test, program, values, stream=None):
    """Calls `program` through the fast path, then the general one, and
    checks that both packed the same frame."""
    program(*values, stream=stream)
    fast = program._frame().storage.raw
    type(program)._general_call(program, list(values), stream)
    test.assertEqual(fast, program._frame().storage.raw)


class HostFastCallTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = library(PROGRAMS)

    def test_programs_with_a_fast_form_get_their_own_call(self):
        for name in ("axpy", "count_above"):
            program = self.lib[name]
            self.assertIsNot(type(program), sdfgstream.Program)
            self.assertIsInstance(program, sdfgstream.Program)
        # Strided, pointer and unranked parameters keep the general path.
        for name in ("strided_sum", "first", "unranked_sum"):
            self.assertIs(type(self.lib[name]), sdfgstream.Program)

    def test_repeated_calls_take_the_fast_path(self):
        program = self.lib.axpy
        x, y = np.arange(6.0), np.ones(6)
        program(x, y, 1.0)  # learns numpy.ndarray for x and y
        calls = count_general_calls(program)
        try:
            for step in range(3):
                program(x=x, y=y, a=2.0)
            self.assertEqual(calls, [])
            np.testing.assert_array_equal(y, 1 + 7 * np.arange(6.0))
            same_frame(self, program, (x, y, 0.5))
            # A one-element array with a stride the fast path does not
            # take: the general path accepts it (an extent of 1).
            one = np.arange(8.0)[::8]
            program(x=one, y=np.zeros(1), a=1.0)
            self.assertEqual(len(calls), 1)
            # A wrong array of a known type: the general path's error.
            with self.assertRaisesRegex(TypeError, "element type float32"):
                program(x.astype(np.float32), y, 1.0)
            self.assertEqual(len(calls), 2)
        finally:
            del program._general_call

    def test_parameter_names_shadow_nothing(self):
        program = self.lib.shadowing
        self.assertIsNot(type(program), sdfgstream.Program)
        source, out = np.arange(5.0), np.zeros(5)
        for _ in range(2):  # the general path, then the fast one
            program(type=source, frame=out, pack=3.0)
            np.testing.assert_array_equal(out, 3 * source)
        calls = count_general_calls(program)
        try:
            program(source, out, pack=-1.0)
            np.testing.assert_array_equal(out, -source)
            self.assertEqual(calls, [])
        finally:
            del program._general_call

    def test_scalars_packed_as_the_general_path_packs_them(self):
        program = self.lib.count_above
        matrix, out = np.arange(20, dtype=np.int32).reshape(4, 5), np.zeros((), np.int64)
        program(matrix, 3, True, out)
        # A signless i32 given an unsigned value, a bool, a NumPy scalar.
        for threshold in (0xFFFFFFFF, 7, np.int32(-2)):
            with self.subTest(threshold=threshold):
                same_frame(self, program, (matrix.view(np.uint32), threshold, False, out))
        with self.assertRaisesRegex(TypeError, "takes i32, got 4294967296"):
            program(matrix, 1 << 32, False, out)
        # A static extent that does not fit: the fast call's check leaves
        # for the general path, which gives its error.
        with self.assertRaisesRegex(ValueError, r"has shape \(3, 5\), the program takes 4x\?"):
            program(np.zeros((3, 5), np.int32), 0, False, out)


class StandInCupy(types.ModuleType):
    """Enough of CuPy for its arrays and current stream to reach the fast
    path (the GPU tests run the real one): arrays of NumPy memory, which
    the fake driver works on. With `flag`, the arrays carry CuPy's
    `_c_contiguous`, which the fast path then reads instead of the
    strides."""

    def __init__(self, flag=False):
        super().__init__("cupy")
        module = self

        class Memory:
            def __init__(self, pointer):
                self.ptr, self.device_id = pointer, 0

        class ndarray:
            def __init__(self, array):
                self.array, self.data = array, Memory(array.ctypes.data)
                self.dtype, self.shape, self.strides = array.dtype, array.shape, array.strides
                self.itemsize, self.flags = array.itemsize, array.flags
                if flag:
                    self._c_contiguous = array.flags.c_contiguous

        if flag:
            ndarray._c_contiguous = True  # a class attribute, as CuPy's

        class Stream:
            def __init__(self, handle):
                self.ptr = handle

        ndarray.__module__ = "cupy"
        self.ndarray, self.Stream, self.current = ndarray, Stream, Stream(0)
        self.cuda = types.SimpleNamespace(
            get_current_stream=lambda device=None: module.current)


class GpuFastCallTest(unittest.TestCase):
    FLAG = False

    @classmethod
    def setUpClass(cls):
        cls.driver = fake_driver()
        cls.lib = example()

    def setUp(self):
        self.saved = sys.modules.get("cupy")
        self.cupy = sys.modules["cupy"] = StandInCupy(self.FLAG)
        _streams._current_getters.pop("cupy", None)
        self.lib.set_stream(None)

    def tearDown(self):
        _streams._current_getters.pop("cupy", None)
        if self.saved is None:
            del sys.modules["cupy"]
        else:
            sys.modules["cupy"] = self.saved

    def arrays(self, n=64):
        return [self.cupy.ndarray(np.zeros(n, np.float32)) for _ in range(3)] + \
            [self.cupy.ndarray(np.zeros((), np.float32))]

    def launches_of(self, **kwargs):
        before = len(self.driver.launches())
        self.lib.smooth_axpy(*self.args, 0.5, **kwargs)
        return {stream for stream, _ in self.driver.launches()[before:]}

    def test_stream_order_as_the_general_path(self):
        program = self.lib.smooth_axpy
        self.args = self.arrays()
        current, other = self.driver.stream(), self.driver.stream()
        self.cupy.current = self.cupy.Stream(current)
        self.launches_of()  # learns the stand-in's ndarray
        calls = count_general_calls(program)
        try:
            # Default: the arrays' framework current stream; no wait.
            waits = len(self.driver.waits())
            self.assertEqual(self.launches_of(), {current})
            self.assertEqual(len(self.driver.waits()), waits)
            # Another stream (as a stream object): it waits for the current one.
            self.assertEqual(self.launches_of(stream=self.cupy.Stream(other)), {other})
            self.assertEqual(self.driver.waits()[waits:], [(other, current)])
            # A bound stream is the default over the framework's.
            self.lib.set_stream(other)
            waits = len(self.driver.waits())
            self.assertEqual(self.launches_of(), {other})
            self.assertEqual(self.driver.waits()[waits:], [(other, current)])
            self.assertEqual(calls, [])
            same_frame(self, program, tuple(self.args) + (0.5,), stream=other)
            # Host memory for a GPU parameter: the general path's error.
            with self.assertRaisesRegex(ValueError, "argument x is in host memory"):
                program(np.zeros(64, np.float32), *self.args[1:], 0.5, stream=other)
        finally:
            del program._general_call

    @contextlib.contextmanager
    def learnt(self, **kwargs):
        """Calls smooth_axpy once on this test's arrays (its call for their
        type is made), then counts the calls that take the general path."""
        program = self.lib.smooth_axpy
        self.args = self.arrays()
        self.launches_of(**kwargs)
        try:
            yield program, count_general_calls(program)
        finally:
            self.driver.fail(None, 0)
            del program._general_call

    def test_non_contiguous_arrays_take_the_general_path(self):
        stream = self.driver.stream()
        with self.learnt(stream=stream) as (program, calls):
            # Every other element: the general path refuses it for the
            # program's identity-layout memref.
            strided = self.cupy.ndarray(np.zeros(128, np.float32)[::2])
            with self.assertRaisesRegex(ValueError, "x is not row-major contiguous"):
                program(strided, *self.args[1:], 0.5, stream=stream)
            self.assertEqual(len(calls), 1)
            program(*self.args, 0.5, stream=stream)
            self.assertEqual(len(calls), 1)

    def test_failed_call_on_the_fast_path(self):
        stream = self.driver.stream()
        with self.learnt(stream=stream) as (program, calls):
            self.driver.fail("cuLaunchKernel", 1)  # CUDA_ERROR_INVALID_VALUE
            before = len(self.driver.launches())
            with self.assertRaises(sdfgstream.CallError) as caught:
                program(*self.args, 0.5, stream=stream)
            self.assertEqual(caught.exception.error_name, "CUDA_ERROR_INVALID_VALUE")
            self.assertEqual(len(self.driver.launches()), before)
            self.driver.fail(None, 0)
            self.assertEqual(self.launches_of(stream=stream), {stream})
            self.assertEqual(calls, [])

    def test_combinations_of_array_types(self):
        program = self.lib.smooth_axpy
        other = StandInCupy(self.FLAG)  # another array type with fast reads
        stream = self.driver.stream()
        first = self.arrays()
        second = [other.ndarray(a.array) for a in first]
        mixed = first[:1] + second[1:]
        for args in (first, second, mixed):  # each learnt once
            self.args = args
            self.launches_of(stream=stream)
        calls = count_general_calls(program)
        try:
            for _ in range(2):
                for args in (second, first, mixed):
                    self.args = args
                    self.assertEqual(self.launches_of(stream=stream), {stream})
            self.assertEqual(calls, [])
            same_frame(self, program, tuple(mixed) + (0.5,), stream=stream)
        finally:
            del program._general_call

    def test_arrays_on_several_devices(self):
        current = self.driver.stream()
        self.cupy.current = self.cupy.Stream(current)
        with self.learnt() as (program, calls):
            # The stand-in's current stream is the same on every device:
            # the call orders on it once, as the general path would.
            self.args[1].data.device_id = 1
            waits = len(self.driver.waits())
            self.assertEqual(self.launches_of(), {current})
            self.assertEqual(len(self.driver.waits()), waits)
            self.assertEqual(calls, [])


class GpuFastCallContiguityFlagTest(GpuFastCallTest):
    """The same with CuPy's `_c_contiguous` flag on the arrays."""
    FLAG = True


if __name__ == "__main__":
    unittest.main()
