"""Streams: any stream object to the handle a program takes, and the
default stream of a call.

A handle is an integer: a cudaStream_t / hipStream_t, or 0 (the legacy
default stream), 1 (CU_STREAM_LEGACY) or 2 (the calling thread's
per-thread default stream), passed to the runtime unchanged.
"""

import ctypes
import sys

__all__ = ["stream_handle", "current_stream"]


def stream_handle(stream):
    """The handle of `stream`: an int, an object with ``__cuda_stream__``
    (the CUDA Python protocol: a method returning (version, handle)), a
    CuPy stream (``ptr``), a PyTorch stream (``cuda_stream``), a Numba
    stream (``handle``), or a ctypes ``c_void_p``."""
    if isinstance(stream, bool):
        raise TypeError("stream=%r is not a stream" % (stream,))
    if isinstance(stream, int):
        if stream < 0:
            raise ValueError("stream handle %d is negative" % stream)
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        value = protocol() if callable(protocol) else protocol
        try:
            _, handle = value
        except (TypeError, ValueError):
            raise TypeError("%s.__cuda_stream__ gave %r, not (version, handle)"
                            % (type(stream).__name__, value)) from None
        return int(handle)
    for attribute in ("ptr", "cuda_stream"):  # CuPy, PyTorch
        value = getattr(stream, attribute, None)
        if isinstance(value, int):
            return value
    handle = getattr(stream, "handle", None)  # Numba
    if isinstance(handle, ctypes.c_void_p):
        return handle.value or 0
    if isinstance(stream, ctypes.c_void_p):
        return stream.value or 0
    raise TypeError("stream=%r is not a stream: pass an int handle, an object "
                    "with __cuda_stream__, or a CuPy, PyTorch or Numba stream"
                    % (stream,))


def current_stream(framework, device):
    """The stream `framework` ('torch', 'cupy') calls current on `device`
    (its index; -1: the current device), or None where the framework has no
    such notion here (JAX: use sdfgstream.jax; NumPy: host memory)."""
    if framework == "cupy":
        cupy = sys.modules.get("cupy")
        if cupy is not None:
            if device is None or device < 0:
                return cupy.cuda.get_current_stream().ptr
            try:  # CuPy 13 takes the device
                return cupy.cuda.get_current_stream(device).ptr
            except TypeError:
                with cupy.cuda.Device(device):
                    return cupy.cuda.get_current_stream().ptr
    elif framework == "torch":
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available():
            index = torch.cuda.current_device() if device is None or device < 0 else device
            raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
            if raw is not None:  # what torch.cuda.current_stream reads, without an object
                return raw(index)
            return torch.cuda.current_stream(index).cuda_stream
    return None
