"""Streams: any stream object to the handle a program takes, and the
default stream of a call.

A handle is an integer: a cudaStream_t / hipStream_t, or 0 (the legacy
default stream), 1 (CU_STREAM_LEGACY) or 2 (the calling thread's
per-thread default stream), passed to the runtime unchanged.
"""

import ctypes
import sys

__all__ = ["stream_handle", "current_stream"]


# Per stream type, how its handle is read, found at its first use: a
# call with a stream object costs one attribute read or method call.
_handle_getters = {}


def _protocol_handle(stream):
    value = stream.__cuda_stream__
    if callable(value):
        value = value()
    try:
        _, handle = value
    except (TypeError, ValueError):
        raise TypeError("%s.__cuda_stream__ gave %r, not (version, handle)"
                        % (type(stream).__name__, value)) from None
    return int(handle)


def _attribute_getter(attribute):
    def getter(stream):
        value = getattr(stream, attribute, None)
        return value if type(value) is int else None
    return getter


def _ctypes_handle(stream):
    return stream.value or 0 if isinstance(stream, ctypes.c_void_p) else None


def _numba_handle(stream):
    handle = getattr(stream, "handle", None)
    return handle.value or 0 if isinstance(handle, ctypes.c_void_p) else None


def stream_handle(stream):
    """The handle of `stream`: an int, an object with ``__cuda_stream__``
    (the CUDA Python protocol: a method returning (version, handle)), a
    CuPy stream (``ptr``), a PyTorch stream (``cuda_stream``), a Numba
    stream (``handle``), or a ctypes ``c_void_p``."""
    kind = type(stream)
    if kind is int:
        if stream < 0:
            raise ValueError("stream handle %d is negative" % stream)
        return stream
    getter = _handle_getters.get(kind)
    if getter is not None:
        handle = getter(stream)
        if handle is not None:
            return handle
    if isinstance(stream, bool):
        raise TypeError("stream=%r is not a stream" % (stream,))
    if isinstance(stream, int):
        return stream_handle(int(stream))
    if hasattr(stream, "__cuda_stream__"):  # CUDA Python's protocol
        _handle_getters[kind] = _protocol_handle
        return _protocol_handle(stream)
    for getter in (_attribute_getter("ptr"), _attribute_getter("cuda_stream"),
                   _numba_handle, _ctypes_handle):  # CuPy, PyTorch, Numba, ctypes
        handle = getter(stream)
        if handle is not None:
            _handle_getters[kind] = getter
            return handle
    raise TypeError("stream=%r is not a stream: pass an int handle, an object "
                    "with __cuda_stream__, or a CuPy, PyTorch or Numba stream"
                    % (stream,))


def _cupy_current(device):
    cuda = sys.modules["cupy"].cuda
    if device is None or device < 0:
        return cuda.get_current_stream().ptr
    try:  # CuPy 13 takes the device
        return cuda.get_current_stream(device).ptr
    except TypeError:
        with cuda.Device(device):
            return cuda.get_current_stream().ptr


def _torch_current_getter():
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return None
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)

    def current(device):
        index = torch.cuda.current_device() if device is None or device < 0 else device
        if raw is not None:  # what torch.cuda.current_stream reads, without an object
            return raw(index)
        return torch.cuda.current_stream(index).cuda_stream
    return current


_current_getters = {}


def current_stream(framework, device):
    """The stream `framework` ('torch', 'cupy') calls current on `device`
    (its index; -1: the current device), or None where the framework has no
    such notion here (JAX: use sdfgstream.jax; NumPy: host memory)."""
    getter = _current_getters.get(framework)
    if getter is None:
        if framework == "cupy" and "cupy" in sys.modules:
            getter = _cupy_current
        elif framework == "torch":
            getter = _torch_current_getter()
        if getter is None:
            return None
        _current_getters[framework] = getter
    return getter(device)
