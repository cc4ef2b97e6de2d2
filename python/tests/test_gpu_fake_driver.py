"""GPU programs against the fake CUDA driver (no GPU): which stream the
work goes to for every way of naming one, the default stream, rebinding,
the array protocols' stream handshakes, errors, graph mode and timers."""

import ctypes
import unittest

import numpy as np

import sdfgstream
from support import DeviceArray, example, fake_driver

N = 64


class CudaStreamProtocol:
    """A stream of CUDA Python's __cuda_stream__ protocol."""

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


class CupyLikeStream:
    def __init__(self, handle):
        self.ptr = handle


class TorchLikeStream:
    def __init__(self, handle):
        self.cuda_stream = handle


class FakeDriverTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = fake_driver()
        cls.lib = example()

    def setUp(self):
        self.driver.fail(None, 0)
        self.lib.set_stream(None)
        self.arrays = [np.zeros(N, np.float32) for _ in range(3)] + [np.zeros((), np.float32)]

    def arguments(self, stream=None):
        x, y, out, total = self.arrays
        return dict(x=DeviceArray(x, stream), y=DeviceArray(y), out=DeviceArray(out),
                    sum=DeviceArray(total), alpha=2.0)

    def call(self, **kwargs):
        """Calls smooth_axpy; returns the streams of the launches it made."""
        before = len(self.driver.launches())
        self.lib.smooth_axpy(**self.arguments(), **kwargs)
        launches = self.driver.launches()[before:]
        self.assertEqual([kernel for _, kernel in launches], ["smooth", "axpy", "reduce"])
        return {stream for stream, _ in launches}

    def test_every_way_of_naming_a_stream(self):
        handle = self.driver.stream()
        for stream in (handle, CudaStreamProtocol(handle), CupyLikeStream(handle),
                       TorchLikeStream(handle), ctypes.c_void_p(handle)):
            with self.subTest(stream=type(stream).__name__):
                self.assertEqual(self.call(stream=stream), {handle})

    def test_default_stream_is_the_legacy_one(self):
        self.assertEqual(self.call(), {0})

    def test_set_stream_binds_and_orders_after_the_last_call(self):
        a, b = self.driver.stream(), self.driver.stream()
        self.lib.set_stream(a)
        self.assertEqual(self.lib.stream, a)
        self.assertEqual(self.call(), {a})
        waits = len(self.driver.waits())
        self.lib.set_stream(CudaStreamProtocol(b))
        # b waits for a on the GPU: one event recorded on a, waited on by b.
        self.assertEqual(self.driver.waits()[waits:], [(b, a)])
        self.assertEqual(self.call(), {b})
        # Binding the same stream again orders nothing more.
        self.lib.set_stream(b)
        self.assertEqual(len(self.driver.waits()), waits + 1)
        # An explicit stream= overrides the binding for one call.
        self.assertEqual(self.call(stream=a), {a})

    def test_prepared_call_streams(self):
        a, b = self.driver.stream(), self.driver.stream()
        prepared = self.lib.smooth_axpy.prepare(**self.arguments(), stream=a)
        for stream, want in ((None, a), (b, b), (None, a)):
            before = len(self.driver.launches())
            prepared(stream=stream)
            self.assertEqual({s for s, _ in self.driver.launches()[before:]}, {want})

    def test_array_interface_stream_is_waited_for(self):
        producer, consumer = self.driver.stream(), self.driver.stream()
        waits = len(self.driver.waits())
        x, y, out, total = self.arrays
        self.lib.smooth_axpy(x=DeviceArray(x, producer), y=DeviceArray(y, consumer),
                             out=DeviceArray(out), sum=DeviceArray(total), alpha=1.0,
                             stream=consumer)
        self.assertEqual(self.driver.waits()[waits:], [(consumer, producer)])

    def test_call_error_names_code_and_location(self):
        stream = self.driver.stream()
        self.driver.fail("cuLaunchKernel", 1)  # CUDA_ERROR_INVALID_VALUE
        before = len(self.driver.launches())
        with self.assertRaises(sdfgstream.CallError) as caught:
            self.lib.smooth_axpy(**self.arguments(), stream=stream)
        error = caught.exception
        self.assertEqual(error.status, 1)
        self.assertEqual(error.error_name, "CUDA_ERROR_INVALID_VALUE")
        self.assertRegex(error.location, r"smooth_axpy\.mlir:\d+:\d+$")
        self.assertIn("cuLaunchKernel failed", error.message)
        self.assertEqual(error.program, "smooth_axpy")
        # The call stopped at its first failure: nothing after it launched.
        self.assertEqual(len(self.driver.launches()), before)
        self.driver.fail(None, 0)
        self.assertEqual(self.call(stream=stream), {stream})

    def test_argument_errors_enqueue_nothing(self):
        stream = self.driver.stream()
        before = (len(self.driver.launches()), self.driver.calls("cuMemAllocAsync"))
        kwargs = self.arguments()
        kwargs["y"] = DeviceArray(np.zeros(N, np.float64))
        with self.assertRaisesRegex(TypeError, "argument y has element type float64"):
            self.lib.smooth_axpy(**kwargs, stream=stream)
        kwargs = self.arguments()
        kwargs["sum"] = DeviceArray(np.zeros(1, np.float32))
        with self.assertRaisesRegex(ValueError, "argument sum has rank 1"):
            self.lib.smooth_axpy(**kwargs, stream=stream)
        self.assertEqual((len(self.driver.launches()), self.driver.calls("cuMemAllocAsync")),
                         before)

    def test_timers(self):
        lib = example(timers=True)
        lib.reset_timers()
        stream = self.driver.stream()
        lib.smooth_axpy(**self.arguments(), stream=stream)
        lib.smooth_axpy(**self.arguments(), stream=stream)
        totals = lib.timer("smooth_axpy")
        self.assertEqual((totals.calls, totals.pending), (2, 0))
        self.assertGreaterEqual(totals.milliseconds, 0.0)
        lib.reset_timers("smooth_axpy")
        with self.assertRaisesRegex(sdfgstream.CallError, "no timed call of program"):
            lib.timer("smooth_axpy")

    def test_graph_mode_controls(self):
        lib = example(graph_mode=True)
        stream = self.driver.stream()
        lib.set_graph_mode("eager", "smooth_axpy")
        before = lib.graph_stats()
        lib.smooth_axpy(**self.arguments(), stream=stream)
        after = lib.graph_stats()
        self.assertEqual(after.builds, before.builds)
        self.assertIsInstance(after, sdfgstream.GraphStats)
        lib.set_graph_mode("update")
        lib.release_graphs(stream)
        with self.assertRaisesRegex(ValueError, "graph mode 'fast'"):
            lib.set_graph_mode("fast")
        lib.reserve_streams(2, stream)


if __name__ == "__main__":
    unittest.main()
