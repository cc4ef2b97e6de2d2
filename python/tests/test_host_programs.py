"""Host programs through the real ABI: arguments by position and name,
every array protocol, results, and every argument error raised before the
call."""

import array
import unittest

import numpy as np

import sdfgstream
from support import PROGRAMS, example, library


class DLPackOnly:
    """An array that offers nothing but DLPack (as JAX's do)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def smooth_axpy_reference(x, y, alpha):
    padded = np.concatenate([x[:1], x, x[-1:]])
    t = 0.25 * padded[:-2] + 0.5 * padded[1:-1] + 0.25 * padded[2:]
    return (alpha * t + y).astype(np.float32)


class HostProgramTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = library(PROGRAMS)
        cls.example = example()

    def test_signature_and_repr(self):
        self.assertEqual(self.lib.axpy.names, ["x", "y", "a"])
        self.assertEqual(repr(self.lib.axpy),
                         "<sdfgstream program axpy(x: memref<?xf64, host>, "
                         "y: memref<?xf64, host>, a: f64)>")
        self.assertEqual(repr(self.lib.strided_sum),
                         "<sdfgstream program strided_sum(arg0: memref<?xf32, "
                         "strided<[?], offset: ?>>) -> f32>")
        self.assertIn("x: memref<?xf32, device>", repr(self.example.smooth_axpy))
        self.assertIn("*, stream", repr(self.example.smooth_axpy))
        self.assertFalse(self.lib.axpy.takes_stream)
        self.assertTrue(self.example.smooth_axpy.takes_stream)
        self.assertIs(self.lib["axpy"], self.lib.axpy)
        with self.assertRaisesRegex(KeyError, "has no program 'nope'"):
            self.lib["nope"]

    def test_by_keyword_and_position(self):
        x = np.arange(6.0)
        y = np.ones(6)
        self.assertIsNone(self.lib.axpy(x=x, y=y, a=2.0))
        np.testing.assert_array_equal(y, 2 * np.arange(6.0) + 1)
        self.lib.axpy(x, y, a=-2.0)
        np.testing.assert_array_equal(y, np.ones(6))

    def test_example_host_twin(self):
        rng = np.random.default_rng(1)
        x = rng.random(1000, dtype=np.float32)
        y = rng.random(1000, dtype=np.float32)
        out = np.zeros(1000, np.float32)
        total = np.zeros((), np.float32)
        self.example.smooth_axpy_host(x=x, y=y, out=out, sum=total, alpha=2.0)
        np.testing.assert_allclose(out, smooth_axpy_reference(x, y, 2.0), rtol=1e-6)
        self.assertAlmostEqual(float(total), float(out.sum(dtype=np.float64)), places=1)

    def test_prepared_call(self):
        x, y = np.arange(4.0), np.zeros(4)
        prepared = self.lib.axpy.prepare(x=x, y=y, a=1.0)
        prepared()
        prepared(a=10.0)
        np.testing.assert_array_equal(y, 11 * x)
        self.assertIn("prepared call of axpy", repr(prepared))
        with self.assertRaisesRegex(TypeError, "x is not a scalar parameter"):
            prepared(x=x)
        with self.assertRaisesRegex(TypeError, "takes no stream"):
            prepared(stream=5)
        column = np.arange(12, dtype=np.float32).reshape(4, 3)[:, 2]
        self.assertEqual(self.lib.strided_sum.prepare(column)(), float(column.sum()))

    def test_dlpack_arrays(self):
        x = np.arange(4.0)
        y = np.zeros(4)
        self.lib.axpy(x=DLPackOnly(x), y=DLPackOnly(y), a=3.0)
        np.testing.assert_array_equal(y, 3 * x)

    def test_buffer_protocol_arrays(self):
        x = array.array("d", [1.0, 2.0, 3.0])
        y = array.array("d", [0.5, 0.5, 0.5])
        self.lib.axpy(x, y, 2.0)
        self.assertEqual(list(y), [2.5, 4.5, 6.5])

    def test_strided_view_and_function_result(self):
        matrix = np.arange(30, dtype=np.float32).reshape(10, 3)
        self.assertEqual(self.lib.strided_sum(matrix[:, 1]), float(matrix[:, 1].sum()))
        self.assertEqual(self.lib.strided_sum(matrix[::-1, 2][::2]), float(matrix[::-1, 2][::2].sum()))

    def test_pointer_and_unranked_parameters(self):
        values = np.array([2.5, 1.0, 4.0], np.float32)
        self.assertEqual(repr(self.lib.first), "<sdfgstream program first(arg0: !llvm.ptr) -> f32>")
        self.assertEqual(self.lib.first(values), 2.5)            # an array: its address
        self.assertEqual(self.lib.first(values.ctypes.data + 4), 1.0)  # an int address
        self.assertEqual(self.lib.unranked_sum(values), 7.5)
        with self.assertRaisesRegex(TypeError, "element type float64, the program takes f32"):
            self.lib.unranked_sum(values.astype(np.float64))

    def test_integer_bool_and_index(self):
        matrix = np.arange(20, dtype=np.int32).reshape(4, 5)
        out = np.zeros((), np.int64)
        self.assertEqual(self.lib.count_above(matrix, 10, True, out), 5)
        self.assertEqual(int(out), 10)
        self.lib.count_above(matrix, 10, False, out)
        self.assertEqual(int(out), 9)
        # A signless i32 takes uint32 arrays and unsigned values too.
        self.lib.count_above(matrix.view(np.uint32), 0xFFFFFFFF, False, out)
        self.assertEqual(int(out), 20)

    def test_argument_errors_before_the_call(self):
        x, y = np.arange(4.0), np.zeros(4)
        cases = [
            (TypeError, "element type float32, the program takes f64",
             dict(x=x.astype(np.float32), y=y, a=1.0)),
            (ValueError, "rank 2, the program takes rank 1",
             dict(x=x.reshape(2, 2), y=y, a=1.0)),
            (ValueError, "not row-major contiguous",
             dict(x=np.arange(8.0)[::2], y=y, a=1.0)),
            (ValueError, "read-only",
             dict(x=np.broadcast_to(x, (4,)), y=y, a=1.0)),
            (TypeError, "list is not an array", dict(x=[1.0, 2.0], y=y, a=1.0)),
            (TypeError, "argument a takes f64, got 'two'", dict(x=x, y=y, a="two")),
            # The interpreter binds the arguments (the program's parameters
            # are its __call__'s) and names the program.
            (TypeError, r"axpy\(\) got an unexpected keyword argument 'b'",
             dict(x=x, y=y, a=1.0, b=2)),
            (TypeError, r"axpy\(\) missing 1 required positional argument: 'a'",
             dict(x=x, y=y)),
        ]
        for error, text, kwargs in cases:
            with self.subTest(text=text):
                before = y.copy()
                with self.assertRaisesRegex(error, text):
                    self.lib.axpy(**kwargs)
                np.testing.assert_array_equal(y, before)
        with self.assertRaisesRegex(TypeError, "multiple values for argument 'a'"):
            self.lib.axpy(x, y, 1.0, a=1.0)
        with self.assertRaisesRegex(TypeError, "takes no stream"):
            self.lib.axpy(x, y, 1.0, stream=0)
        with self.assertRaisesRegex(ValueError, r"has shape \(3, 5\), the program takes 4x\?"):
            self.lib.count_above(np.zeros((3, 5), np.int32), 0, False, np.zeros((), np.int64))
        with self.assertRaisesRegex(TypeError, "takes i32, got 4294967296"):
            self.lib.count_above(np.zeros((4, 5), np.int32), 1 << 32, False, np.zeros((), np.int64))

    def test_host_memory_for_gpu_parameter_is_refused(self):
        x = np.zeros(8, np.float32)
        with self.assertRaisesRegex(ValueError, "argument x is in host memory, the "
                                    "program takes GPU memory"):
            self.example.smooth_axpy(x, x, x, np.zeros((), np.float32), 1.0, stream=0)


class LoadTest(unittest.TestCase):
    def test_not_a_program_library(self):
        import ctypes.util
        libm = ctypes.util.find_library("m")
        with self.assertRaisesRegex(sdfgstream.LibraryError, "has no manifest"):
            sdfgstream.load(libm)
        with self.assertRaisesRegex(sdfgstream.LibraryError, "cannot load"):
            sdfgstream.load("/nonexistent/prog.so")


if __name__ == "__main__":
    unittest.main()
