"""A program of a library: a callable with the program's own parameter
names, checked against its manifest before anything is enqueued, calling
the library's packed entry (one array of argument addresses)."""

import ctypes
import struct
import threading

from ._arrays import framework_of, view_of
from ._errors import CallError
from ._signature import (MemRefParameter, PointerParameter, ScalarParameter,
                         UnrankedParameter, element_key, parameter_from_manifest)
from ._streams import current_stream, stream_handle

__all__ = ["Program"]

_MEMORY_PARAMETERS = (MemRefParameter, UnrankedParameter)


class _Frame:
    """One thread's argument storage for one program: descriptors and
    scalars at fixed offsets, and the packed entry's `void *args[]`
    pointing at them (or holding pointers and the stream itself)."""

    def __init__(self, program):
        offsets, size = [], 0
        for parameter in program.parameters:
            offsets.append(size)
            size += (parameter.size + 7) // 8 * 8
        self.result_offset = size
        size += 8
        self.storage = (ctypes.c_char * max(size, 8))()
        base = ctypes.addressof(self.storage)
        slots = len(program.parameters) + (program.stream_index is not None) + 1
        self.argv = (ctypes.c_void_p * slots)()
        self.offsets = offsets
        for parameter, offset in zip(program.parameters, offsets):
            if not isinstance(parameter, PointerParameter):
                self.argv[parameter.index] = base + offset
        self.argv[slots - 1] = base + self.result_offset


class Program:
    """A program of a loaded library. Call it with its arguments by
    position or by the names its manifest gives (an imported DaCe SDFG's
    are DaCe's; an MLIR program's are its `sdfg.arg_name`s, else arg0,
    arg1, ...) and, for a GPU program, ``stream=`` (any stream object; see
    docs/python.md for the default)."""

    def __init__(self, library, entry):
        self.library = library
        self.name = entry["name"]
        self.kind = entry["kind"]
        self.result = entry["result"]
        self.host_sync = bool(entry.get("host_sync"))
        self.location = entry.get("location", "")
        self.stream_index = None
        self.parameters = []
        for index, parameter in enumerate(entry["parameters"]):
            if parameter["kind"] == "stream":
                self.stream_index = index
            else:
                self.parameters.append(parameter_from_manifest(parameter, index))
        self.names = [parameter.name for parameter in self.parameters]
        self._positions = {name: position for position, name in enumerate(self.names)}
        self._packed = getattr(library._dll, entry["packed"])
        self._packed.argtypes = [ctypes.c_void_p]
        self._packed.restype = ctypes.c_int32
        self._result_struct = None
        if self.result not in ("status", "void"):
            self._result_struct = struct.Struct(element_key(self.result)[1])
        self._local = threading.local()

    @property
    def takes_stream(self):
        """Whether the program does GPU work (takes the caller's stream)."""
        return self.stream_index is not None

    def signature(self):
        """The program's parameters as text: 'x: memref<?xf32, device>, ...'."""
        parts = ["%s: %s" % (p.name, p.describe()) for p in self.parameters]
        if self.takes_stream:
            parts.append("*, stream")
        return "(%s)" % ", ".join(parts)

    def __repr__(self):
        result = {"status": "", "void": ""}.get(self.result, " -> " + self.result)
        return "<sdfgstream program %s%s%s%s>" % (
            self.name, self.signature(), result,
            " (syncs the host)" if self.host_sync else "")

    def _bind(self, args, kwargs):
        if len(args) > len(self.names):
            raise TypeError("%s takes %d arguments (%d given)"
                            % (self.name, len(self.names), len(args)))
        values = list(args)
        if len(values) == len(self.names) and not kwargs:
            return values
        values += [_MISSING] * (len(self.names) - len(values))
        for key, value in kwargs.items():
            position = self._positions.get(key)
            if position is None:
                raise TypeError("%s has no parameter '%s' (it takes %s)"
                                % (self.name, key, ", ".join(self.names) or "none"))
            if values[position] is not _MISSING:
                raise TypeError("%s: parameter '%s' given twice" % (self.name, key))
            values[position] = value
        missing = [n for n, v in zip(self.names, values) if v is _MISSING]
        if missing:
            raise TypeError("%s: missing %s" % (self.name, ", ".join(missing)))
        return values

    def _default_stream(self, values):
        """The bound stream, else the current stream of the framework of the
        first GPU array, else 0 (the legacy default stream)."""
        bound = self.library._bound_stream
        if bound is not None:
            return bound
        for parameter, value in zip(self.parameters, values):
            if isinstance(parameter, _MEMORY_PARAMETERS):
                framework = framework_of(value)
                if framework in ("torch", "cupy") and _on_gpu(value, framework):
                    current = current_stream(framework, _device_of(value, framework))
                    if current is not None:
                        return current
        return 0

    def __call__(self, *args, stream=None, **kwargs):
        """Runs the program (enqueues its GPU work on the stream) and
        returns None, or a function's own result. Raises TypeError /
        ValueError for arguments that do not fit, before anything is
        enqueued, and CallError if the call fails."""
        values = self._bind(args, kwargs)
        if self.stream_index is None:
            if stream is not None:
                raise TypeError("%s does no GPU work and takes no stream" % self.name)
            handle = None
        else:
            handle = self._default_stream(values) if stream is None else stream_handle(stream)
        frame = getattr(self._local, "frame", None)
        if frame is None:
            frame = self._local.frame = _Frame(self)
        keep, waits, currents = [], [], {}
        for parameter, offset, value in zip(self.parameters, frame.offsets, values):
            if isinstance(parameter, ScalarParameter):
                parameter.pack(frame.storage, offset, value, self.name)
            elif isinstance(parameter, PointerParameter):
                frame.argv[parameter.index] = parameter.address(value, self.name)
            else:
                what = "%s: argument %s" % (self.name, parameter.name)
                framework = framework_of(value)
                current = None
                if framework in ("torch", "cupy") and handle is not None:
                    if framework not in currents:
                        currents[framework] = current_stream(
                            framework, _device_of(value, framework))
                    current = currents[framework]
                view = view_of(value, handle, current, what)
                strides = parameter.check(view, self.name)
                kept = parameter.pack(frame.storage, offset, view, strides)
                keep.append(view.keep)
                keep.append(kept)
                if view.wait_stream is not None and handle is not None and \
                        view.wait_stream != handle:
                    waits.append(view.wait_stream)
        library = self.library
        for waited in waits:
            library._stream_wait(handle, waited, self.name)
        if handle is not None:
            frame.argv[self.stream_index] = handle
        status = self._packed(frame.argv)
        if status != 0:
            raise library._call_error(self.name, status)
        if handle is not None:
            library._last_stream = handle
        del keep
        if self._result_struct is not None:
            return self._result_struct.unpack_from(frame.storage, frame.result_offset)[0]
        return None


class _Missing:
    def __repr__(self):
        return "<missing>"


_MISSING = _Missing()


def _on_gpu(value, framework):
    if framework == "torch":
        return bool(getattr(value, "is_cuda", False))
    return framework == "cupy"


def _device_of(value, framework):
    if framework == "torch":
        device = getattr(value, "device", None)
        return getattr(device, "index", None)
    device = getattr(value, "device", None)
    return getattr(device, "id", None)
