"""The fast path of a plain call: a program's `__call__` generated from its
manifest and the types of the arrays it is called with, so that a call
with the arrays it was made for costs a few attribute reads per array.

Why generated: the general path (Program.__call__) binds arguments by name
in Python, converts each array through the tuple protocol of _arrays.py,
checks it in MemRefParameter.bind and packs it with its own struct call:
12-24 us for four arrays on the GPU machine's host, where the C entry
costs 15 us. The generated call has the program's parameters as its own
(the interpreter binds keywords) and, for one combination of array types
(CuPy, NumPy, PyTorch per argument), reads each array inline with the
cheapest attributes its framework has (_fastarrays.py: element type, rank,
static extents, memory, row-major contiguity in a few comparisons), asks
the arrays' framework for its current stream once where they share it,
and packs every descriptor and scalar with one struct call.

The first call with a new combination of array types takes the general
path and makes that combination's call; the next one makes it the
program's `__call__` (its types checked with `is`), where it stays until a
call with other types finds theirs in a table and takes its place. Anything a call does not take (another array
type, a strided memref, non-contiguous arrays, a scalar struct cannot pack,
a stream object of an unknown kind) goes to the general path, which
accepts or rejects it as before; nothing is enqueued before that choice is
made. A program with pointer or unranked parameters, or with strided
memrefs, or whose parameter names are not Python identifiers, keeps the
general path alone.
"""

import keyword
import struct

from ._fastarrays import array_reads
from ._signature import MemRefParameter, ScalarParameter
from ._streams import current_stream, stream_handle

__all__ = ["program_class", "order_streams"]

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
    arrays come from, where they differ from it. `results` holds a
    (framework or None, device, ...) per array."""
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


def _stream_lines(program, reads):
    """Sets _sdfg_handle and _sdfg_waits as order_streams would."""
    if not program.takes_stream:
        return ["if stream is not None: return GENERAL",
                "_sdfg_handle, _sdfg_waits = None, ()"]
    lines = ["_sdfg_handle = (self.library._bound_stream if stream is None "
             "else _sdfg_stream_handle(stream))"]
    gpu = [r for r in reads if r.framework is not None]
    if not gpu:  # host arrays only: no framework stream to follow
        return lines + ["if _sdfg_handle is None: _sdfg_handle = 0",
                        "_sdfg_waits = ()"]
    general = ("_sdfg_handle, _sdfg_waits = _sdfg_order(self, _sdfg_handle, (%s,))"
               % ", ".join("(%s, %s, None)" % (r.framework_expression, r.device or "-1")
                           for r in reads))
    if len({r.framework for r in gpu}) != 1 or not isinstance(gpu[0].framework, str):
        return lines + [general]  # several frameworks, or decided per call
    # One framework: its current stream, asked once where the arrays share
    # a device (else order_streams asks per device).
    same = " == ".join(r.device for r in gpu)
    one = ["_sdfg_current = _sdfg_current_stream(%r, %s)" % (gpu[0].framework, gpu[0].device),
           "if _sdfg_handle is None: _sdfg_handle = 0 if _sdfg_current is None "
           "else _sdfg_current",
           "_sdfg_waits = () if _sdfg_current is None or _sdfg_current == _sdfg_handle "
           "else (_sdfg_current,)"]
    if len(gpu) == 1:
        return lines + one
    return lines + ["if %s:" % same] + ["    " + line for line in one] + [
        "else:", "    " + general]


def _run_lines(program):
    """The run of a call that waits for no other stream: Program._run
    without the waits, inline."""
    if program.takes_stream:
        lines = ["_sdfg_argv = _sdfg_frame.argv",
                 "_sdfg_argv[%d] = _sdfg_handle" % program.stream_index,
                 "_sdfg_status = self._packed(_sdfg_argv)",
                 "if _sdfg_status: raise self.library._call_error(self.name, _sdfg_status)",
                 "self.library._last_stream = _sdfg_handle"]
    else:
        lines = ["_sdfg_status = self._packed(_sdfg_frame.argv)",
                 "if _sdfg_status: raise self.library._call_error(self.name, _sdfg_status)"]
    if program._result_struct is not None:
        lines.append("return self._result_struct.unpack_from(_sdfg_frame.storage, "
                     "_sdfg_frame.result_offset)[0]")
    else:
        lines.append("return None")
    return lines


def _specialize(program, kinds, namespace):
    """The source of the call for arrays of types `kinds` (one per memref
    parameter, in order), its names added to `namespace`; None where an
    array type has no fast reads."""
    names = program.names
    guards, body, packed, reads = [], [], [], []
    memrefs = 0
    for position, (parameter, name) in enumerate(zip(program.parameters, names)):
        if isinstance(parameter, MemRefParameter):
            kind = kinds[memrefs]
            memrefs += 1
            read = array_reads(parameter, kind, name, position)
            if read is None:
                return None
            namespace["_sdfg_k%d" % position] = kind
            namespace.update(read.constants)
            guards.append("_sdfg_type(%s) is not _sdfg_k%d" % (name, position))
            body += read.lines
            packed += read.fields
            reads.append(read)
        elif parameter.encodes:
            namespace["_sdfg_e%d" % position] = parameter.encode
            packed.append("_sdfg_e%d(%s)" % (position, name))
        else:
            packed.append(name)
    body += _stream_lines(program, reads)
    body += ["try:", "    _sdfg_frame = self._local.frame",
             "except AttributeError:", "    _sdfg_frame = self._frame()",
             "try:", "    _sdfg_pack(_sdfg_frame.storage, 0, %s)" % ", ".join(packed),
             "except _sdfg_pack_errors:", "    return GENERAL",
             "if _sdfg_waits: return self._run(_sdfg_frame, _sdfg_handle, _sdfg_waits)"]
    body += _run_lines(program)
    values = "[%s]" % ", ".join(names)
    general = "self._general_call(%s, stream)" % values
    lines = ["def __call__(self, %s*, stream=None):" % "".join(n + ", " for n in names)]
    if guards:
        lines.append("    if %s:" % " or ".join(guards))
        lines.append("        return _sdfg_dispatch(self, %s, stream)" % values)
    lines += ["    " + line.replace("GENERAL", general) for line in body]
    return "\n".join(lines) + "\n"


def program_class(base, program):
    """A subclass of `base` (Program) whose `__call__` is generated for
    `program`, or `base` where the program keeps the general path."""
    if not _fast_parameters(program):
        return base
    names = program.names
    memref_positions = [i for i, p in enumerate(program.parameters)
                        if isinstance(p, MemRefParameter)]
    shared = {
        "_sdfg_type": type,
        "_sdfg_pack": _frame_format(program, program._frame().offsets).pack_into,
        "_sdfg_pack_errors": (struct.error, TypeError, ValueError, OverflowError),
        "_sdfg_order": order_streams, "_sdfg_stream_handle": stream_handle,
        "_sdfg_current_stream": current_stream}
    calls = {}  # array types -> that combination's call, or None
    cls = None

    def finish(call):
        call.__doc__ = base.__call__.__doc__
        # Binding errors are the interpreter's, naming the program: "axpy()
        # got an unexpected keyword argument 'b'".
        call.__qualname__ = call.__name__ = program.name
        return call

    def dispatch(self, values, stream):
        """Finds (or, the first time, makes) the call of these arrays'
        types; the first call of a combination takes the general path."""
        kinds = tuple(type(values[i]) for i in memref_positions)
        call = calls.get(kinds, dispatch)
        if call is dispatch:
            namespace = dict(shared)
            source = _specialize(program, kinds, namespace)
            call = None
            if source is not None:
                # Every name the generated code uses besides the program's
                # parameters starts with _sdfg_, which no parameter of the
                # fast path may (_fast_parameters): a parameter named
                # `type`, `frame` or `pack` shadows nothing.
                exec(source, namespace)
                call = finish(namespace["__call__"])
            calls[kinds] = call
            return self._general_call(list(values), stream)
        if call is None:
            return self._general_call(list(values), stream)
        # The latest combination is the program's call: a run of calls with
        # the same array types finds it without the table.
        cls.__call__ = call
        return call(self, *values, stream=stream)

    shared["_sdfg_dispatch"] = dispatch
    namespace = dict(shared)
    exec("def __call__(self, %s*, stream=None):\n"
         "    return _sdfg_dispatch(self, [%s], stream)\n"
         % ("".join(n + ", " for n in names), ", ".join(names)), namespace)
    cls = type(base.__name__, (base,), {"__call__": finish(namespace["__call__"])})
    return cls
