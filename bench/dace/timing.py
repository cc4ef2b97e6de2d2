"""Timing one call on a CuPy stream, shared by bandwidth.py and
concurrency.py: CUDA events recorded on the stream around the call (GPU
time), and host wall time from a synchronized stream to the end of the
call's work."""
import time

import cupy as cp


def event_ms(stream, call):
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record(stream)
    call()
    end.record(stream)
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end)


def wall_ms(stream, call):
    stream.synchronize()
    t = time.perf_counter()
    call()
    stream.synchronize()
    return (time.perf_counter() - t) * 1e3
