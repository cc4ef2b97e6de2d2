"""A program of a library: a callable with the program's own parameter
names, checked against its manifest before anything is enqueued, calling
the library's packed entry (one array of argument addresses)."""

import ctypes
import struct
import threading

from ._arrays import converter, framework_of
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
        self.stream_allocations = bool(entry.get("stream_allocations", True))
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

    def _bind(self, args, kwargs, optional=()):
        """The values of the parameters in order, from positional and keyword
        arguments; a parameter named in `optional` may be left out (None)."""
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
        if optional:
            values = [None if v is _MISSING and n in optional else v
                      for n, v in zip(self.names, values)]
            missing = [n for n in missing if n not in optional]
        if missing:
            raise TypeError("%s: missing %s" % (self.name, ", ".join(missing)))
        return values

    def _default_stream(self, values):
        """The bound stream, else the current stream of the framework of the
        first GPU array (CuPy, PyTorch), else 0 (the legacy default
        stream); and the framework current streams looked up on the way,
        by (framework, device), for _pack."""
        bound = self.library._bound_stream
        if bound is not None:
            return bound, None
        for parameter, value in zip(self.parameters, values):
            if isinstance(parameter, _MEMORY_PARAMETERS):
                framework = framework_of(value)
                if framework == "cupy" or (framework == "torch" and
                                           getattr(value, "is_cuda", False)):
                    # The device as the converters give it (_arrays.py).
                    device = (value.get_device() if framework == "torch"
                              else value.data.device_id)
                    current = current_stream(framework, device)
                    if current is not None:
                        return current, {(framework, device): current}
        return 0, None

    def _pack(self, frame, values, handle, currents=None):
        """Checks and packs `values` into `frame` for a call on `handle`;
        returns what the call must keep alive and the streams its arrays are
        ordered on (their frameworks' current streams, the streams their
        array interfaces name): a call on another stream waits for them.
        `currents`: framework current streams already looked up."""
        keep, waits = [], []
        name = self.name
        for parameter, offset, value in zip(self.parameters, frame.offsets, values):
            if isinstance(parameter, _MEMORY_PARAMETERS):
                info = converter(type(value))(value, handle, "%s: argument %s"
                                              % (name, parameter.name))
                kept = parameter.bind(info, frame.storage, offset, name)
                if info[6] is not None:
                    keep.append(info[6])
                if kept is not None:
                    keep.append(kept)
                if handle is None:
                    continue
                framework = info[8]
                if framework is not None:
                    # The array is ordered on its framework's current stream:
                    # a call on another one waits for it (DLPack's handshake).
                    if currents is None:
                        currents = {}
                    device = info[5]
                    current = currents.get((framework, device))
                    if current is None:
                        current = currents[(framework, device)] = \
                            current_stream(framework, device)
                    if current is not None and current not in waits:
                        waits.append(current)
                elif info[7] is not None and info[7] not in waits:
                    waits.append(info[7])
            elif isinstance(parameter, ScalarParameter):
                parameter.pack(frame.storage, offset, value, name)
            else:
                frame.argv[parameter.index] = parameter.address(value, name)
        return keep, waits

    def _resolve_stream(self, stream, values):
        """The call's stream handle (None: a program without GPU work) and
        the framework current streams found while resolving it."""
        if self.stream_index is None:
            if stream is not None:
                raise TypeError("%s does no GPU work and takes no stream" % self.name)
            return None, None
        if stream is None:
            return self._default_stream(values)
        return stream_handle(stream), None

    def _frame(self):
        frame = getattr(self._local, "frame", None)
        if frame is None:
            frame = self._local.frame = _Frame(self)
        return frame

    def _run(self, frame, handle, waits):
        library = self.library
        for waited in waits:
            if waited != handle:
                library._stream_wait(handle, waited, self.name)
        if handle is not None:
            frame.argv[self.stream_index] = handle
        status = self._packed(frame.argv)
        if status != 0:
            raise library._call_error(self.name, status)
        if handle is not None:
            library._last_stream = handle
        if self._result_struct is not None:
            return self._result_struct.unpack_from(frame.storage, frame.result_offset)[0]
        return None

    def __call__(self, *args, stream=None, **kwargs):
        """Runs the program (enqueues its GPU work on the stream) and
        returns None, or a function's own result. Raises TypeError /
        ValueError for arguments that do not fit, before anything is
        enqueued, and CallError if the call fails."""
        return self._general_call(self._bind(args, kwargs), stream)

    def _general_call(self, values, stream):
        """A call with the parameters' values in order, through the general
        path (the fast one of _fastcall.py falls back to it)."""
        handle, currents = self._resolve_stream(stream, values)
        frame = self._frame()
        keep, waits = self._pack(frame, values, handle, currents)
        result = self._run(frame, handle, waits)
        del keep
        return result

    def prepare(self, *args, stream=None, **kwargs):
        """A PreparedCall of the program with these arguments: checked and
        packed once, then called as often as wanted (a time-stepping loop
        calling the program on the same arrays) at the cost of the packed
        entry's call alone. Keeps the arrays alive; the stream (resolved
        now) and the scalars can be changed per call."""
        values = self._bind(args, kwargs)
        handle, currents = self._resolve_stream(stream, values)
        frame = _Frame(self)
        keep, waits = self._pack(frame, values, handle, currents)
        return PreparedCall(self, frame, handle, waits, keep, values)


class PreparedCall:
    """A program call whose arrays are checked and packed (Program.prepare).
    ``prepared()`` calls it again; ``prepared(alpha=2.0)`` with new scalar
    values; ``prepared(stream=s)`` on another stream (ordered after the
    arrays' framework streams as when prepared). Not thread-safe: one per
    thread."""

    def __init__(self, program, frame, handle, waits, keep, values):
        self.program = program
        self._frame = frame
        self._handle = handle
        self._waits = waits
        self._keep = (keep, values)
        self._scalars = {p.name: (p, offset) for p, offset in
                         zip(program.parameters, frame.offsets)
                         if isinstance(p, ScalarParameter)}
        self._packed = program._packed
        self._argv = frame.argv
        # Ordered once, now, after the streams its arrays are ordered on;
        # the repeated calls are on the same stream, after this one.
        for waited in waits:
            if handle is not None and waited != handle:
                program.library._stream_wait(handle, waited, program.name)
        if handle is not None:
            frame.argv[program.stream_index] = handle

    def __repr__(self):
        return "<sdfgstream prepared call of %s on stream %s>" % (self.program.name,
                                                                   self._handle)

    def __call__(self, stream=None, **scalars):
        if stream is None and not scalars:  # the same call again: the entry alone
            status = self._packed(self._argv)
            if status != 0:
                raise self.program.library._call_error(self.program.name, status)
            if self._handle is not None:
                self.program.library._last_stream = self._handle
            return self._result()
        frame = self._frame
        for name, value in scalars.items():
            entry = self._scalars.get(name)
            if entry is None:
                raise TypeError("%s: %s is not a scalar parameter (a prepared call "
                                "changes only scalars and the stream)"
                                % (self.program.name, name))
            entry[0].pack(frame.storage, entry[1], value, self.program.name)
        handle = self._handle
        if stream is not None:
            if handle is None:
                raise TypeError("%s does no GPU work and takes no stream" % self.program.name)
            handle = stream_handle(stream)
        try:
            return self.program._run(frame, handle, self._waits)
        finally:
            if handle is not None:  # back to the prepared stream
                frame.argv[self.program.stream_index] = self._handle

    def _result(self):
        result = self.program._result_struct
        if result is None:
            return None
        return result.unpack_from(self._frame.storage, self._frame.result_offset)[0]


class _Missing:
    def __repr__(self):
        return "<missing>"


_MISSING = _Missing()
