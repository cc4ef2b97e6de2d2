"""The fast path of a plain call: a program's `__call__` generated from its
manifest, so that a call with the arrays it was made for costs a few
attribute reads per array.

Why generated: the general path (Program.__call__) binds arguments by name
in Python, converts each array through the tuple protocol of _arrays.py,
checks it in MemRefParameter.bind and packs it with its own struct call:
12-24 us for four arrays on the GPU machine's host, where the C entry
costs 15 us. The generated `__call__` has the program's parameters as its
own (the interpreter binds keywords), reads each array through a converter
made for the pair (array type, parameter) that checks element type, rank,
static extents, memory and row-major contiguity in a few comparisons, and
packs every descriptor and scalar with one struct call.

Anything the fast path does not take (another array type, a strided
memref, non-contiguous arrays, a scalar struct cannot pack, a
stream object of an unknown kind) goes to the general path, which accepts
or rejects it as before; nothing is enqueued before that choice is made.
A program with pointer or unranked parameters, or with strided memrefs, or
whose parameter names are not Python identifiers, keeps the general path
alone.
"""

import keyword
import struct
import sys

from ._signature import MemRefParameter, ScalarParameter
from ._streams import current_stream, stream_handle

__all__ = ["program_class"]

_RESERVED = {"self", "stream"}
_PREFIX = "_sdfg_"


def _fast_parameters(program):
    """Whether the program's parameters all have a fast form."""
    for parameter in program.parameters:
        if isinstance(parameter, MemRefParameter):
            if parameter.layout != "identity":
                return False
        elif not isinstance(parameter, ScalarParameter):
            return False
        name = parameter.name
        if (not name.isidentifier() or keyword.iskeyword(name) or name in _RESERVED
                or name.startswith(_PREFIX)):
            return False
    return len(set(program.names)) == len(program.names)


def _contiguous_bytes(rank, itemsize):
    """The byte strides of a row-major array of `shape`, as an expression
    (a constant for rank 1): "(shape[1] * 4, 4)"."""
    strides = []
    for dim in range(rank):
        strides.append(" * ".join(["shape[%d]" % d for d in range(dim + 1, rank)]
                                  + [str(itemsize)]))
    return "(%s,)" % ", ".join(strides)


def _descriptor_fields(rank):
    """The descriptor's fields after `p, p, 0` for a row-major array of
    `shape`: extents, then element strides (as MemRefParameter packs)."""
    extents = ["shape[%d]" % dim for dim in range(rank)]
    strides = []
    for dim in range(rank):
        trailing = ["max(shape[%d], 1)" % d for d in range(dim + 1, rank)]
        strides.append(" * ".join(trailing) if trailing else "1")
    return ", ".join(["p", "p", "0"] + extents + strides)


def _shape_checks(parameter):
    lines = ["if len(shape) != %d: return None" % parameter.rank]
    for dim, extent in parameter.static_dims:
        lines.append("if shape[%d] != %d: return None" % (dim, extent))
    return lines


# Converters: (array type, parameter) -> function(value) returning
# (framework or None, device, descriptor fields), or None to take the
# general path. One template per array family; `{checks}` are the rank and
# static-extent tests, `{fields}` the descriptor.

_CUPY = """
def convert(v):
    if v.dtype not in dtypes: return None
    shape = v.shape
    {checks}
    {contiguity}
    m = v.data
    p = m.ptr
    return ("cupy", m.device_id, ({fields},))
"""

_NUMPY = """
def convert(v):
    if v.dtype not in dtypes: return None
    shape = v.shape
    {checks}
    {strides}
    if not v.flags.writeable: return None
    p = v.ctypes.data
    return (None, -1, ({fields},))
"""

_TORCH = """
def convert(v):
    if v.dtype not in dtypes: return None
    shape = v.shape
    {checks}
    if not v.is_contiguous(): return None
    {memory}
    p = v.data_ptr()
    return {result}
"""


def _numpy_dtypes(accepted):
    import numpy
    names = {("f", 16): "float16", ("f", 32): "float32", ("f", 64): "float64",
             ("i", 8): "int8", ("i", 16): "int16", ("i", 32): "int32", ("i", 64): "int64",
             ("u", 8): "uint8", ("u", 16): "uint16", ("u", 32): "uint32",
             ("u", 64): "uint64", ("b", 8): "bool"}
    return tuple(numpy.dtype(names[key]) for key in sorted(accepted) if key in names)


def _torch_dtypes(accepted):
    from ._arrays import _TORCH_TYPES
    torch = sys.modules["torch"]
    return tuple(getattr(torch, name.partition(".")[2])
                 for name, key in sorted(_TORCH_TYPES.items()) if key in accepted
                 and hasattr(torch, name.partition(".")[2]))


def _make_converter(parameter, kind):
    """The fast converter of arrays of type `kind` for `parameter`, or None."""
    top = kind.__module__.partition(".")[0]
    name = kind.__name__
    checks = "\n    ".join(_shape_checks(parameter))
    fields = _descriptor_fields(parameter.rank)
    strides = ("if v.strides != %s: return None"
               % _contiguous_bytes(parameter.rank, parameter.itemsize)
               if parameter.rank else "")
    namespace = {}
    if top == "cupy" and name == "ndarray" and parameter.memory != "host":
        # CuPy keeps its C-contiguity as a flag it reads without building
        # the strides tuple (as the general path asks flags.c_contiguous).
        contiguity = ("if not v._c_contiguous: return None"
                      if hasattr(kind, "_c_contiguous") else strides)
        source = _CUPY.replace("{contiguity}", contiguity)
        namespace["dtypes"] = _numpy_dtypes(parameter.accepted)
    elif top == "numpy" and name == "ndarray" and parameter.memory != "device":
        source = _NUMPY
        namespace["dtypes"] = _numpy_dtypes(parameter.accepted)
    elif top == "torch" and name in ("Tensor", "Parameter"):
        source = _TORCH
        namespace["dtypes"] = _torch_dtypes(parameter.accepted)
        device = '("torch", v.get_device(), (%s,))' % fields
        host = "(None, -1, (%s,))" % fields
        if parameter.memory == "device":
            memory, result = "if not v.is_cuda: return None", device
        elif parameter.memory == "host":
            memory, result = "if v.is_cuda: return None", host
        else:
            memory, result = "", "%s if v.is_cuda else %s" % (device, host)
        source = source.replace("{memory}", memory).replace("{result}", result)
    else:
        return None
    if not namespace["dtypes"]:
        return None
    source = source.replace("{checks}", checks).replace("{strides}", strides)
    exec(source.replace("{fields}", fields), namespace)
    return namespace["convert"]


def _no_converter(value):
    return None  # arrays of this type take the general path


def _frame_format(program, offsets):
    """One struct format for every parameter of the frame, at its offset."""
    layout = "@"
    for parameter, offset in zip(program.parameters, offsets):
        pad = offset - struct.calcsize(layout)
        assert pad >= 0, "frame offsets out of order"
        if pad:
            layout += "%dx" % pad
        if isinstance(parameter, MemRefParameter):
            layout += "PPq" + "q" * (2 * parameter.rank)
        else:
            layout += parameter.code
        assert struct.calcsize(layout) <= offset + max(parameter.size, 8)
    return struct.Struct(layout)


def order_streams(program, handle, results):
    """The call's stream (the given one, else the bound one, else the
    current stream of the first GPU array's framework, else 0) and the
    streams it must wait for: the current streams of the frameworks its
    arrays come from, where they differ from it."""
    if handle is None:
        handle = program.library._bound_stream
    waits = []
    last_framework = last_device = None
    for framework, device, _ in results:
        if framework is None or (framework == last_framework and device == last_device):
            continue
        last_framework, last_device = framework, device
        current = current_stream(framework, device)
        if current is None:
            continue
        if handle is None:
            handle = current
        elif current != handle and current not in waits:
            waits.append(current)
    return (0 if handle is None else handle), waits


_CALL = """
def __call__(self, {parameters}*, stream=None):
    try:
        {converts}
    except KeyError:
        return self._learn_and_call({values}, stream)
    if {any_none}:
        return self._general_call({values}, stream)
    {stream}
    try:
        _sdfg_frame = self._local.frame
    except AttributeError:
        _sdfg_frame = self._frame()
    try:
        _sdfg_pack(_sdfg_frame.storage, 0, {packed})
    except _sdfg_pack_errors:
        return self._general_call({values}, stream)
    if _sdfg_waits:
        return self._run(_sdfg_frame, _sdfg_handle, _sdfg_waits)
    {run}
"""

# The run of a call that waits for no other stream (Program._run without
# the waits), inline: one method call less per call.
_RUN_ON_STREAM = """_sdfg_argv = _sdfg_frame.argv
    _sdfg_argv[{stream_index}] = _sdfg_handle
    _sdfg_status = self._packed(_sdfg_argv)
    if _sdfg_status:
        raise self.library._call_error(self.name, _sdfg_status)
    self.library._last_stream = _sdfg_handle
    {result}"""

_RUN_ON_HOST = """_sdfg_status = self._packed(_sdfg_frame.argv)
    if _sdfg_status:
        raise self.library._call_error(self.name, _sdfg_status)
    {result}"""


def program_class(base, program):
    """A subclass of `base` (Program) whose `__call__` is generated for
    `program`, or `base` where the program keeps the general path."""
    if not _fast_parameters(program):
        return base
    names = program.names
    converters, converts, results, packed, namespace = [], [], [], [], {}
    offsets = program._frame().offsets
    for position, (parameter, name) in enumerate(zip(program.parameters, names)):
        if isinstance(parameter, MemRefParameter):
            table = "%sc%d" % (_PREFIX, position)
            result = "%sr%d" % (_PREFIX, position)
            namespace[table] = {}
            converters.append((parameter, namespace[table]))
            converts.append("%s = %s[_sdfg_type(%s)](%s)" % (result, table, name, name))
            results.append(result)
            packed.append("*%s[2]" % result)
        elif parameter.encodes:
            encode = "%se%d" % (_PREFIX, position)
            namespace[encode] = parameter.encode
            packed.append("%s(%s)" % (encode, name))
        else:
            packed.append(name)
    if program.takes_stream:
        stream = ("_sdfg_handle, _sdfg_waits = _sdfg_order(self, None if stream is None "
                  "else _sdfg_stream_handle(stream), (%s,))" % ", ".join(results))
    else:
        stream = ("if stream is not None: return self._general_call({values}, stream)\n"
                  "    _sdfg_handle, _sdfg_waits = None, ()")
    run = _RUN_ON_STREAM if program.takes_stream else _RUN_ON_HOST
    run = run.replace("{stream_index}", str(program.stream_index))
    if program._result_struct is not None:
        run = run.replace("{result}", "return self._result_struct.unpack_from("
                          "_sdfg_frame.storage, _sdfg_frame.result_offset)[0]")
    else:
        run = run.replace("{result}", "return None")
    source = _CALL.replace("{run}", run)
    source = source.replace("{stream}", stream)
    source = source.replace("{converts}", "\n        ".join(converts) or "pass")
    source = source.replace("{any_none}", " or ".join(
        "%s is None" % result for result in results) or "False")
    source = source.replace("{parameters}", "".join(name + ", " for name in names))
    source = source.replace("{values}", "[%s]" % ", ".join(names))
    source = source.replace("{packed}", ", ".join(packed))
    # Every name the generated code uses besides the program's parameters
    # starts with _sdfg_, which no parameter of the fast path may
    # (_fast_parameters): a parameter named `type`, `frame` or `pack` shadows
    # nothing.
    namespace.update({
        "_sdfg_type": type,
        "_sdfg_pack": _frame_format(program, offsets).pack_into,
        "_sdfg_pack_errors": (struct.error, TypeError, ValueError, OverflowError),
        "_sdfg_order": order_streams, "_sdfg_stream_handle": stream_handle})
    exec(source, namespace)
    call = namespace["__call__"]
    call.__doc__ = base.__call__.__doc__
    # Binding errors are the interpreter's, naming the program: "axpy() got
    # an unexpected keyword argument 'b'".
    call.__qualname__ = call.__name__ = program.name

    def learn(self, values):
        """Makes the converters of these arguments' types (None: none)."""
        for (parameter, table), value in zip(converters, (
                v for p, v in zip(program.parameters, values)
                if isinstance(p, MemRefParameter))):
            kind = type(value)
            if kind not in table:
                convert = _make_converter(parameter, kind)
                table[kind] = convert if convert is not None else _no_converter

    return type(base.__name__, (base,), {"__call__": call, "_learn": learn})
