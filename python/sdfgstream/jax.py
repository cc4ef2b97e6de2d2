"""Programs as JAX operations on JAX's own compute stream (XLA FFI).

    import sdfgstream, sdfgstream.jax
    lib = sdfgstream.load("smooth_axpy.so")
    smooth_axpy = sdfgstream.jax.register(lib, "smooth_axpy", outputs=("out", "sum"))

    @jax.jit
    def step(x, y):
        out, total = smooth_axpy(x=x, y=y, alpha=2.0,
                                 out=jax.ShapeDtypeStruct(x.shape, x.dtype))
        return out, total

Inside ``jax.jit`` (and outside it) the program is an XLA custom call: XLA
passes it JAX's compute stream and its buffers, and the program's work is
enqueued on that stream in XLA's order, with no host synchronization and no
DLPack round trip. A program that neither synchronizes the host nor makes
stream-ordered allocations (its manifest's ``host_sync`` and
``stream_allocations`` are false) is registered command-buffer compatible,
so XLA may capture it into a CUDA graph with the computations around it.

The handler (``_jax_ffi.cc``) is compiled once per jaxlib and kept in the
package's cache directory; it needs a C++17 compiler (``$CXX``, else
``c++``) and the XLA FFI headers jaxlib ships (``jax.ffi.include_dir()``).
"""

import ctypes
import hashlib
import itertools
import os
import subprocess

import numpy as np

from ._compile import cache_dir
from ._errors import CompileError
from ._signature import MemRefParameter, ScalarParameter

__all__ = ["register", "handler_library"]

_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_jax_ffi.cc")
_NUMPY_TYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
                "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
                "si8": np.int8, "si16": np.int16, "si32": np.int32, "si64": np.int64,
                "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
                "index": np.int64, "i1": np.bool_}
# _jax_ffi.cc's Scalar codes.
_SCALAR_CODES = {"f32": 1, "f64": 2, "i8": 3, "i16": 4, "i32": 5, "i64": 6, "si8": 3,
                 "si16": 4, "si32": 5, "si64": 6, "ui8": 7, "ui16": 8, "ui32": 9,
                 "ui64": 10, "index": 6, "i1": 11}
_SOURCE_ARGUMENT, _SOURCE_RESULT, _SOURCE_ATTRIBUTE, _SOURCE_STREAM = range(4)

_handler = None
_targets = itertools.count()


def _jax_ffi():
    import jax
    ffi = getattr(jax, "ffi", None)
    if ffi is None or not hasattr(ffi, "ffi_call"):
        from jax.extend import ffi  # jax < 0.4.38
    return jax, ffi


def handler_library():
    """The compiled handler library (built at the first call, then taken
    from the cache directory)."""
    global _handler
    if _handler is not None:
        return _handler
    jax, ffi = _jax_ffi()
    include = ffi.include_dir()
    with open(_SOURCE, "rb") as handle:
        source = handle.read()
    compiler = os.environ.get("CXX", "c++")
    key = hashlib.sha256(source + b"\0" + include.encode() + b"\0" +
                         jax.__version__.encode() + b"\0" + compiler.encode()).hexdigest()
    directory = os.path.join(cache_dir(), "jax-ffi")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "sdfgstream_jax_ffi-%s.so" % key[:16])
    if not os.path.exists(path):
        staging = "%s.%d.tmp" % (path, os.getpid())
        command = [compiler, "-std=c++17", "-O2", "-shared", "-fPIC",
                   "-I", include, _SOURCE, "-o", staging]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise CompileError("building the XLA FFI handler failed: " + " ".join(command),
                               (done.stderr + done.stdout).strip())
        os.rename(staging, path)
    _handler = ctypes.CDLL(path)
    _handler.sdfgstreamJaxBind.restype = ctypes.c_int32
    return _handler


class JaxProgram:
    """A program registered as an XLA FFI target. Call it with its inputs
    as JAX arrays and its scalars by name, and each output (not also an
    input) as a ``jax.ShapeDtypeStruct`` (or anything with ``shape`` and
    ``dtype``) where its shape is not static in the program; it returns the
    outputs, in the program's order (one output: the array itself)."""

    def __init__(self, program, target, outputs, inouts, graphable):
        self.program = program
        self.target = target
        self.outputs = outputs
        self.inouts = inouts
        self.graphable = graphable
        # Outputs that are not inputs: given as shapes, where not static.
        self._shape_only = tuple(name for name in outputs if name not in inouts)

    def handler_calls(self):
        """How often the FFI handler has run for this target: fewer than the
        executions of a jitted function that holds it when XLA replays a
        command buffer (a CUDA graph) that captured it."""
        function = handler_library().sdfgstreamJaxCallCount
        function.restype = ctypes.c_int64
        function.argtypes = [ctypes.c_char_p]
        return function(self.target.encode())

    def __repr__(self):
        return "<sdfgstream JAX target %s: %r, outputs %s>" % (
            self.target, self.program, ", ".join(self.outputs))

    def __call__(self, *args, _test_stream=None, **kwargs):
        jax, ffi = _jax_ffi()
        values = self.program._bind(args, kwargs, optional=self._shape_only)
        inputs, result_types, attributes, aliases = [], [], {}, {}
        for parameter, value in zip(self.program.parameters, values):
            if isinstance(parameter, ScalarParameter):
                attributes[parameter.name] = _NUMPY_TYPES[parameter.type](value)
            elif parameter.name in self.outputs:
                if parameter.name in self.inouts:
                    aliases[len(inputs)] = len(result_types)
                    inputs.append(value)
                result_types.append(jax.ShapeDtypeStruct(
                    _output_shape(parameter, value), _NUMPY_TYPES[parameter.element]))
            else:
                inputs.append(value)
        attributes["sdfgstream_target"] = self.target
        if _test_stream is not None:
            attributes["sdfgstream_test_stream"] = np.int64(_test_stream)
        call = ffi.ffi_call(self.target, result_types, input_output_aliases=aliases or None)
        results = call(*inputs, **attributes)
        return results[0] if len(results) == 1 else tuple(results)


def _output_shape(parameter, value):
    if value is not None and hasattr(value, "shape"):
        shape = tuple(value.shape)
    elif all(extent is not None for extent in parameter.shape):
        shape = tuple(parameter.shape)
    else:
        raise TypeError("output %s has dynamic dimensions (%s): pass %s= a "
                        "jax.ShapeDtypeStruct" % (parameter.name, parameter.describe(),
                                                  parameter.name))
    return shape


def register(library, program, outputs, inouts=(), platform="CUDA"):
    """Registers `program` of `library` as an XLA FFI target on `platform`
    and returns a JaxProgram. `outputs` names the memref parameters the
    program writes (results of the JAX operation); `inouts` those of them
    that are also read (passed as inputs, aliased to their outputs). Every
    other memref parameter is an input; scalars are attributes."""
    jax, ffi = _jax_ffi()
    program = library[program] if isinstance(program, str) else program
    outputs, inouts = tuple(outputs), tuple(inouts)
    names = set(program.names)
    for name in outputs + inouts:
        if name not in names:
            raise TypeError("%s has no parameter '%s'" % (program.name, name))
    for name in inouts:
        if name not in outputs:
            raise TypeError("in/out parameter '%s' must also be an output" % name)
    memrefs = {p.name for p in program.parameters if isinstance(p, MemRefParameter)}
    for parameter in program.parameters:
        if not isinstance(parameter, (MemRefParameter, ScalarParameter)):
            raise TypeError("%s: parameter %s (%s) cannot be passed from JAX"
                            % (program.name, parameter.name, parameter.describe()))
        if isinstance(parameter, ScalarParameter) and parameter.type not in _SCALAR_CODES:
            raise TypeError("%s: scalar %s of type %s cannot be a JAX attribute"
                            % (program.name, parameter.name, parameter.type))
        if isinstance(parameter, MemRefParameter) and parameter.layout != "identity":
            raise TypeError("%s: parameter %s has a strided layout; XLA's buffers "
                            "are row-major" % (program.name, parameter.name))
    for name in outputs:
        if name not in memrefs:
            raise TypeError("output '%s' is not a memref parameter" % name)
    if not program.takes_stream:
        raise TypeError("%s does no GPU work: call it directly" % program.name)

    handler = handler_library()
    target = "sdfgstream_%s_%d_%d" % (program.name, os.getpid(), next(_targets))
    # The packed entry's slots: every C parameter, the stream in its place.
    slots = len(program.parameters) + 1
    sources = (ctypes.c_int32 * slots)()
    indices = (ctypes.c_int32 * slots)()
    ranks = (ctypes.c_int32 * slots)()
    sizes = (ctypes.c_int32 * slots)()
    scalars = (ctypes.c_int32 * slots)()
    strings = (ctypes.c_char_p * slots)()
    # Inputs are numbered in parameter order (in/outs among them), results
    # likewise; an in/out's memref is its result buffer (aliased to its input).
    argument = result = 0
    by_index = {p.index: p for p in program.parameters}
    for slot in range(slots):
        parameter = by_index.get(slot)
        if parameter is None:  # the stream
            sources[slot] = _SOURCE_STREAM
        elif isinstance(parameter, ScalarParameter):
            sources[slot] = _SOURCE_ATTRIBUTE
            scalars[slot] = _SCALAR_CODES[parameter.type]
            strings[slot] = parameter.name.encode()
        else:
            ranks[slot], sizes[slot] = parameter.rank, parameter.itemsize
            if parameter.name in outputs:
                sources[slot], indices[slot] = _SOURCE_RESULT, result
                result += 1
            else:
                sources[slot], indices[slot] = _SOURCE_ARGUMENT, argument
                argument += 1
            if parameter.name in inouts:
                argument += 1  # passed as an input too (aliased)
    last_error = ctypes.cast(library._dll.sdfgrtGetLastError, ctypes.c_void_p).value
    packed = ctypes.cast(program._packed, ctypes.c_void_p).value
    handler.sdfgstreamJaxBind(target.encode(), ctypes.c_void_p(packed),
                              ctypes.c_void_p(last_error), slots, sources, indices,
                              ranks, sizes, scalars, strings)
    # XLA takes a command-buffer compatible custom call into its CUDA graph
    # as a child graph captured from the call: not possible for a call that
    # syncs the host, nor for one with stream-ordered allocations (CUDA
    # refuses graphs with memory nodes as child graphs).
    graphable = not program.host_sync and not program.stream_allocations
    symbol = handler.SdfgstreamCallGraphable if graphable else handler.SdfgstreamCall
    ffi.register_ffi_target(target, ffi.pycapsule(symbol), platform=platform)
    return JaxProgram(program, target, outputs, inouts, graphable)
