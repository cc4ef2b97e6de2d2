"""Timing one call on a CuPy stream, shared by bandwidth.py and
concurrency.py: CUDA events recorded on the stream around the call (GPU
time), and host wall time from a synchronized stream to the end of the
call's work.

GPU time alone (bandwidth): with `ahead_ns`, a kernel spinning that long is
queued before the start event, so the call is enqueued while the GPU is
busy and the events time its GPU work only, not how long the host took to
enqueue it (Python's marshalling, the launch): that is what the host wall
figures measure."""
import time

import cupy as cp
import numpy as np

_SPIN_SOURCE = r"""
extern "C" __global__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}
"""
_spin = None


def spin(stream, ns):
    """Queues a one-thread kernel spinning `ns` nanoseconds on `stream`."""
    global _spin
    if _spin is None:
        _spin = cp.RawKernel(_SPIN_SOURCE, "spin")
    _spin((1,), (1,), (np.uint64(ns),), stream=stream)


def event_ms(stream, call, ahead_ns=0):
    start, end = cp.cuda.Event(), cp.cuda.Event()
    if ahead_ns:
        spin(stream, ahead_ns)
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
