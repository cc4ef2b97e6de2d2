"""A program library built by sdfg-compile, loaded with ctypes."""

import collections
import ctypes
import json
import os

from ._errors import CallError, LibraryError
from ._fastcall import program_class
from ._program import Program
from ._streams import stream_handle

__all__ = ["Library", "load", "TimerTotals", "GraphStats"]

TimerTotals = collections.namedtuple("TimerTotals", "milliseconds calls pending")
TimerTotals.__doc__ = """A program's timer totals (sdfgrtTimerQuery): GPU
milliseconds of its completed timed calls, their number, and the calls
still running (not yet counted)."""

_GRAPH_FIELDS = ("builds", "updates", "nodes_updated", "replays", "eager_calls",
                 "programs", "buffer_bytes")
GraphStats = collections.namedtuple("GraphStats", _GRAPH_FIELDS)


class _GraphStatsStruct(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int64) for name in _GRAPH_FIELDS]


_GRAPH_MODES = {"eager": 0, "update": 1, "rebuild": 2, 0: 0, 1: 1, 2: 2}

_RUNTIME = {
    "sdfgrtGetLastError": ([], ctypes.c_char_p),
    "sdfgrtGetLastErrorCode": ([], ctypes.c_int32),
    "sdfgrtGetLastErrorName": ([], ctypes.c_char_p),
    "sdfgrtGetLastErrorLocation": ([], ctypes.c_char_p),
    "sdfgrtClearError": ([], None),
    "sdfgrtStreamWaitStream": ([ctypes.c_void_p, ctypes.c_void_p], ctypes.c_int32),
    "sdfgrtStreamDevice": ([ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32)], ctypes.c_int32),
    "sdfgrtReserveStreams": ([ctypes.c_void_p, ctypes.c_int32], ctypes.c_int32),
    "sdfgrtSetGraphMode": ([ctypes.c_char_p, ctypes.c_int32], None),
    "sdfgrtSetGraphCacheLimit": ([ctypes.c_int32], None),
    "sdfgrtReleaseGraphs": ([ctypes.c_void_p], ctypes.c_int32),
    "sdfgrtGetGraphStats": ([ctypes.POINTER(_GraphStatsStruct)], None),
    "sdfgrtTimerQuery": ([ctypes.c_char_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_double),
                          ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)],
                         ctypes.c_int32),
    "sdfgrtTimerReset": ([ctypes.c_char_p], None),
    "sdfgrtLoadedModuleCount": ([], ctypes.c_int64),
}


def _text(value):
    return (value or b"").decode("utf-8", "replace")


class Library:
    """A program library (`sdfg-compile prog.mlir -o prog.so`). Its
    programs are attributes and items: ``lib.axpy(x=..., y=..., stream=s)``,
    ``lib["axpy"]``. The runtime linked into it is private to it (loaded
    with RTLD_LOCAL).

    Binding (as the C++ host API's Library): ``set_stream(s)`` makes `s`
    the stream of later GPU calls that name none, ordered on the GPU after
    the work of the library's last call on another stream. Not thread-safe
    as a binding: bind per thread, or serialize; program calls themselves
    may run on several threads (each has its own argument frame and error
    state).
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        try:
            self._dll = ctypes.CDLL(self.path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
        except OSError as error:
            raise LibraryError("cannot load %s: %s" % (self.path, error)) from None
        try:
            manifest = self._dll.sdfgstreamManifest
        except AttributeError:
            raise LibraryError("%s has no manifest (sdfgstreamManifest): not a program "
                               "library, or built by an sdfg-compile older than the "
                               "package; build it again" % self.path) from None
        manifest.argtypes = []
        manifest.restype = ctypes.c_char_p
        self.manifest = json.loads(manifest().decode("utf-8"))
        if self.manifest.get("format") != "sdfgstream-manifest" or \
                self.manifest.get("version") != 1:
            raise LibraryError("%s: manifest format %r version %r is not one this "
                               "package reads" % (self.path, self.manifest.get("format"),
                                                  self.manifest.get("version")))
        self._runtime = {}
        for name, (argtypes, restype) in _RUNTIME.items():
            function = getattr(self._dll, name, None)
            if function is not None:
                function.argtypes = argtypes
                function.restype = restype
                self._runtime[name] = function
        self._bound_stream = None
        self._last_stream = None
        self.programs = {}
        for entry in self.manifest["programs"]:
            program = Program(self, entry)
            # Its own class, with a __call__ made for its parameters.
            program.__class__ = program_class(Program, program)
            self.programs[entry["name"]] = program

    def _entry(self, name):
        function = self._runtime.get(name)
        if function is None:
            raise LibraryError("%s does not export %s (built by an older sdfg-compile?)"
                               % (self.path, name))
        return function

    # Programs ---------------------------------------------------------------

    def __getitem__(self, name):
        try:
            return self.programs[name]
        except KeyError:
            raise KeyError("%s has no program %r (it has %s)" % (
                self.path, name, ", ".join(sorted(self.programs)) or "none")) from None

    def __getattr__(self, name):
        programs = self.__dict__.get("programs")
        if programs is not None and name in programs:
            return programs[name]
        raise AttributeError("%s has no program or attribute %r" % (
            self.__dict__.get("path", "library"), name))

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.programs))

    def __repr__(self):
        return "<sdfgstream library %s: %s>" % (self.path, ", ".join(self.programs))

    # Errors -----------------------------------------------------------------

    def last_error(self):
        """The runtime's text of this thread's last error ("" if none)."""
        return _text(self._entry("sdfgrtGetLastError")())

    def _call_error(self, program, status):
        name = self._runtime.get("sdfgrtGetLastErrorName")
        location = self._runtime.get("sdfgrtGetLastErrorLocation")
        return CallError(program, status, _text(name()) if name else "",
                         _text(location()) if location else "", self.last_error())

    # Streams ----------------------------------------------------------------

    @property
    def stream(self):
        """The bound stream's handle, or None (calls use their default)."""
        return self._bound_stream

    def set_stream(self, stream):
        """Binds `stream` (any stream object; None: unbind) for later GPU
        calls. If a GPU program of this library has run on another stream,
        `stream` first waits on the GPU for that stream's work
        (sdfgrtStreamWaitStream: one event record and one stream wait, no
        host synchronization)."""
        handle = None if stream is None else stream_handle(stream)
        if handle is not None and self._last_stream is not None and \
                handle != self._last_stream:
            self._stream_wait(handle, self._last_stream, "set_stream")
            self._last_stream = handle
        self._bound_stream = handle

    def _stream_wait(self, waiting, waited_on, what):
        status = self._entry("sdfgrtStreamWaitStream")(waiting, waited_on)
        if status != 0:
            raise self._call_error(what, status)

    def stream_device(self, stream):
        """The device (ordinal) that `stream` belongs to."""
        device = ctypes.c_int32(-1)
        status = self._entry("sdfgrtStreamDevice")(stream_handle(stream), ctypes.byref(device))
        if status != 0:
            raise self._call_error("stream_device", status)
        return device.value

    def reserve_streams(self, count, stream=None):
        """Makes the calling thread hold `count - 1` pool streams for
        programs with `count` concurrent slots on `stream` (default: the
        bound one), now rather than at the first call (before a capture)."""
        handle = self._bound_stream if stream is None else stream_handle(stream)
        status = self._entry("sdfgrtReserveStreams")(handle or 0, int(count))
        if status != 0:
            raise self._call_error("reserve_streams", status)

    # Graph mode -------------------------------------------------------------

    def set_graph_mode(self, mode, program=None):
        """Graph mode for later calls of `program` (None: every program) of a
        library built with --graph-mode: "eager" (0), "update" (1, graphs
        updated in place: the default) or "rebuild" (2)."""
        if mode not in _GRAPH_MODES:
            raise ValueError("graph mode %r: use 'eager', 'update' or 'rebuild'" % (mode,))
        self._entry("sdfgrtSetGraphMode")(program.encode() if program else None,
                                          _GRAPH_MODES[mode])

    def set_graph_cache_limit(self, programs_per_context):
        self._entry("sdfgrtSetGraphCacheLimit")(int(programs_per_context))

    def graph_stats(self):
        """GraphStats: graphs built, launches after in-place updates (and
        nodes updated), replays, eager calls, programs and transient bytes
        kept."""
        stats = _GraphStatsStruct()
        self._entry("sdfgrtGetGraphStats")(ctypes.byref(stats))
        return GraphStats(*(getattr(stats, name) for name in _GRAPH_FIELDS))

    def release_graphs(self, stream=None):
        """Releases the graphs and transient buffers kept for the programs of
        `stream`'s context (default: the bound stream), freed on it."""
        handle = self._bound_stream if stream is None else stream_handle(stream)
        status = self._entry("sdfgrtReleaseGraphs")(handle or 0)
        if status != 0:
            raise self._call_error("release_graphs", status)

    # Timers -----------------------------------------------------------------

    def timer(self, program, wait=True):
        """TimerTotals of `program` (a library built with --timers); `wait`:
        first wait for its timed calls to finish."""
        milliseconds, calls, pending = ctypes.c_double(), ctypes.c_int64(), ctypes.c_int64()
        status = self._entry("sdfgrtTimerQuery")(
            program.encode(), 1 if wait else 0, ctypes.byref(milliseconds),
            ctypes.byref(calls), ctypes.byref(pending))
        if status != 0:
            raise self._call_error("timer(%s)" % program, status)
        return TimerTotals(milliseconds.value, calls.value, pending.value)

    def reset_timers(self, program=None):
        self._entry("sdfgrtTimerReset")(program.encode() if program else None)

    def loaded_module_count(self):
        return self._entry("sdfgrtLoadedModuleCount")()


def load(path):
    """Loads the program library at `path` (built by sdfg-compile)."""
    return Library(path)
