"""ctypes bindings for programs compiled ahead of time by sdfg-compile.

A shared library built by `sdfg-compile prog.mlir -o prog.so` exports, for
each public program @name,

    int32_t _mlir_ciface_name(memref descriptors *..., scalars..., void *stream);

(the stream only for programs that do GPU work) and the runtime's C API
(`sdfgrtGetLastError` ...). This module builds MLIR's strided memref
descriptors

    struct { T *allocated; T *aligned; int64_t offset;
             int64_t sizes[rank]; int64_t strides[rank]; }

as ctypes Structures from any array's address (a CuPy, PyTorch or NumPy
array, or a raw pointer), declares the entry points, and turns a non-zero
status into a ProgramError carrying the runtime's error text.

Nothing here imports CuPy, PyTorch or NumPy; arrays are recognised by
their attributes.
"""

import ctypes
import re

__all__ = [
    "ELEMENT_TYPES",
    "Library",
    "MemRefArg",
    "Program",
    "ProgramError",
    "check_header",
    "memref",
    "memref_from_array",
    "memref_layout",
    "memref_type",
    "parse_header",
    "parse_parameters",
]

# Element type -> (C spelling in the generated header, ctypes type).
ELEMENT_TYPES = {
    "float32": ("float", ctypes.c_float),
    "float64": ("double", ctypes.c_double),
    "int8": ("int8_t", ctypes.c_int8),
    "int16": ("int16_t", ctypes.c_int16),
    "int32": ("int32_t", ctypes.c_int32),
    "int64": ("int64_t", ctypes.c_int64),
}

_memref_types = {}


def memref_type(rank, element="float32"):
    """The ctypes Structure of a rank-`rank` memref descriptor of `element`,
    named like the generated header's typedef (sdfg_memref_1d_float)."""
    key = (rank, element)
    if key not in _memref_types:
        c_name, _ = ELEMENT_TYPES[element]
        fields = [
            ("allocated", ctypes.c_void_p),
            ("aligned", ctypes.c_void_p),
            ("offset", ctypes.c_int64),
        ]
        if rank > 0:
            fields += [
                ("sizes", ctypes.c_int64 * rank),
                ("strides", ctypes.c_int64 * rank),
            ]
        name = "sdfg_memref_%dd_%s" % (rank, c_name)
        _memref_types[key] = type(
            name,
            (ctypes.Structure,),
            {"_fields_": fields, "rank": rank, "element": element, "c_name": name},
        )
    return _memref_types[key]


def memref_layout(rank, element="float32"):
    """One line describing the descriptor's layout, the format that
    test/examples/python-client.test also prints from C (sizeof/offsetof)."""
    struct = memref_type(rank, element)
    parts = ["%s size=%d" % (struct.c_name, ctypes.sizeof(struct))]
    for name, _ in struct._fields_:
        parts.append("%s=%d" % (name, getattr(struct, name).offset))
    return " ".join(parts)


def _contiguous_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(int(extent), 1)
    return list(reversed(strides))


def memref(pointer, shape, strides=None, element="float32", contiguous=True):
    """A descriptor of the data at address `pointer` (device or host), with
    `shape` and `strides` counted in elements (default: row-major
    contiguous). The caller keeps the memory alive while the descriptor is
    used.

    With `contiguous` (the default) the strides must be those of a
    row-major contiguous array: a program whose memref type has the
    identity layout (memref<?xf32>) takes its strides and offset from the
    type, not from the descriptor, and would read a strided view wrongly.
    """
    shape = [int(extent) for extent in shape]
    strides = _contiguous_strides(shape) if strides is None else [int(s) for s in strides]
    if len(strides) != len(shape):
        raise ValueError("shape %s and strides %s differ in rank" % (shape, strides))
    # An empty array has nothing to read, whatever its strides (NumPy gives
    # a zero-size array zero strides).
    if contiguous and 0 not in shape:
        expected = _contiguous_strides(shape)
        for extent, stride, want in zip(shape, strides, expected):
            if extent > 1 and stride != want:
                raise ValueError(
                    "array with shape %s and element strides %s is not contiguous; "
                    "the program's memref has the identity layout (copy it first)"
                    % (shape, strides))
    if contiguous:
        strides = _contiguous_strides(shape)
    descriptor = memref_type(len(shape), element)()
    descriptor.allocated = pointer
    descriptor.aligned = pointer
    descriptor.offset = 0
    for dim, (extent, stride) in enumerate(zip(shape, strides)):
        descriptor.sizes[dim] = extent
        descriptor.strides[dim] = stride
    return descriptor


def _array_info(array):
    """(address, shape, element strides, element name) of a CuPy, PyTorch or
    NumPy array or a ctypes array."""
    if hasattr(array, "data_ptr") and hasattr(array, "stride"):  # torch.Tensor
        element = str(array.dtype).replace("torch.", "")
        return (array.data_ptr(), tuple(array.shape), tuple(array.stride()), element)
    if isinstance(array, ctypes.Array):
        if issubclass(array._type_, ctypes.Array):
            raise TypeError("a ctypes array of arrays is not supported; pass a "
                            "flat ctypes array or a NumPy array")
        element = {ctypes.c_float: "float32", ctypes.c_double: "float64",
                   ctypes.c_int8: "int8", ctypes.c_int16: "int16",
                   ctypes.c_int32: "int32", ctypes.c_int64: "int64"}.get(array._type_)
        return (ctypes.addressof(array), (len(array),), (1,), element)
    if not hasattr(array, "dtype") or not hasattr(array, "strides"):
        raise TypeError("not an array: %r (pass a NumPy, CuPy or PyTorch "
                        "array or a ctypes array)" % type(array))
    # The programs read native byte order (NumPy and CuPy can hold others).
    if not getattr(array.dtype, "isnative", True):
        raise ValueError("array of element type %s is not in the machine's byte "
                         "order; convert it first (astype(dtype.newbyteorder('=')))"
                         % array.dtype.str)
    itemsize = array.dtype.itemsize
    if any(stride % itemsize for stride in array.strides):
        raise ValueError("strides %s are not multiples of the element size" % (array.strides,))
    strides = tuple(stride // itemsize for stride in array.strides)
    if hasattr(array, "__cuda_array_interface__") and hasattr(array, "data"):  # cupy
        return (array.data.ptr, tuple(array.shape), strides, array.dtype.name)
    if hasattr(array, "ctypes"):  # numpy
        return (array.ctypes.data, tuple(array.shape), strides, array.dtype.name)
    raise TypeError("not an array: %r" % type(array))


def memref_from_array(array, contiguous=True):
    """A descriptor of a CuPy/PyTorch/NumPy array (device or host, any rank,
    contiguous). The descriptor holds the address only: keep the array
    alive while it is used."""
    pointer, shape, strides, element = _array_info(array)
    if element not in ELEMENT_TYPES:
        raise TypeError("element type %s is not supported" % element)
    return memref(pointer, shape, strides, element, contiguous)


class MemRefArg:
    """An argument type of a program: a pointer to a memref descriptor."""

    def __init__(self, rank, element="float32"):
        self.struct = memref_type(rank, element)
        self.ctype = ctypes.POINTER(self.struct)
        self.c_spelling = self.struct.c_name + " *"


_SCALAR_SPELLING = {
    ctypes.c_float: "float", ctypes.c_double: "double",
    ctypes.c_int8: "int8_t", ctypes.c_int16: "int16_t",
    ctypes.c_int32: "int32_t", ctypes.c_int64: "int64_t",
    ctypes.c_bool: "bool", ctypes.c_void_p: "void *",
}


class ProgramError(RuntimeError):
    """A program returned a non-zero status; `text` is sdfgrtGetLastError()."""

    def __init__(self, name, status, text):
        super().__init__("%s returned %d: %s" % (name, status, text or "(no error text)"))
        self.program = name
        self.status = status
        self.text = text


class GraphStats(ctypes.Structure):
    """sdfgrtGraphStats (SDFGRuntime.h)."""
    _fields_ = [(name, ctypes.c_int64) for name in (
        "builds", "updates", "nodesUpdated", "replays", "eagerCalls",
        "programs", "bufferBytes")]


class Library:
    """A library built by sdfg-compile, loaded with ctypes (RTLD_LOCAL: the
    runtime it links in stays private to it)."""

    def __init__(self, path):
        self.path = path
        self.dll = ctypes.CDLL(path)
        self.dll.sdfgrtGetLastError.restype = ctypes.c_char_p
        self.dll.sdfgrtGetLastError.argtypes = []
        self.dll.sdfgrtGetLastErrorCode.restype = ctypes.c_int32
        self.dll.sdfgrtGetLastErrorCode.argtypes = []
        self.dll.sdfgrtClearError.restype = None
        self.dll.sdfgrtClearError.argtypes = []
        self.dll.sdfgrtLoadedModuleCount.restype = ctypes.c_int64
        self.dll.sdfgrtLoadedModuleCount.argtypes = []

    def last_error(self):
        """sdfgrtGetLastError() of this thread, as str ("" if none)."""
        return (self.dll.sdfgrtGetLastError() or b"").decode("utf-8", "replace")

    def last_error_code(self):
        return self.dll.sdfgrtGetLastErrorCode()

    def loaded_module_count(self):
        return self.dll.sdfgrtLoadedModuleCount()

    def set_graph_mode(self, program, mode):
        """sdfgrtSetGraphMode: 0 eager, 1 graphs updated in place (the
        default of a library built with `sdfg-compile --graph-mode`), 2
        graphs built again when arguments change; `program` None: all."""
        function = self._graph_entry("sdfgrtSetGraphMode")
        function.argtypes = [ctypes.c_char_p, ctypes.c_int32]
        function.restype = None
        function(program.encode() if program else None, mode)

    def graph_stats(self):
        """sdfgrtGetGraphStats, as a dict."""
        function = self._graph_entry("sdfgrtGetGraphStats")
        stats = GraphStats()
        function.argtypes = [ctypes.POINTER(GraphStats)]
        function.restype = None
        function(ctypes.byref(stats))
        return {name: getattr(stats, name) for name, _ in GraphStats._fields_}

    def _graph_entry(self, name):
        try:
            return getattr(self.dll, name)
        except AttributeError:
            raise ProgramError(name, -1, "%s was built before graph mode" % self.path)

    def program(self, name, arguments, stream=True, names=None):
        """Declares `_mlir_ciface_<name>`. `arguments` lists MemRefArg and
        ctypes scalar types in order; `stream` adds the trailing `void *`;
        `names` (optional) names the arguments for keyword calls."""
        return Program(self, name, arguments, stream, names)

    def program_from_header(self, name, header_text):
        """Declares `_mlir_ciface_<name>` as the header sdfg-compile --header
        wrote declares it: argument types, and names as the header spells
        them (for an imported DaCe SDFG, DaCe's own names: the program is
        then called with keywords, `prog(A=x, N=n, stream=s)`)."""
        parameters = parse_parameters(header_text)
        if name not in parameters:
            raise KeyError("_mlir_ciface_%s is not declared in the header" % name)
        params = parameters[name]
        stream = bool(params) and params[-1][0] == "void *"
        if stream:
            params = params[:-1]
        arguments = [_argument_of_spelling(spelling) for spelling, _ in params]
        return Program(self, name, arguments, stream, [n for _, n in params])


class Program:
    """A compiled program. Call it with descriptors (or arrays), scalars and,
    for a GPU program, `stream=` the raw stream handle (an int: CuPy's
    Stream.ptr, PyTorch's Stream.cuda_stream)."""

    def __init__(self, library, name, arguments, stream=True, names=None):
        self.library = library
        self.name = name
        self.arguments = list(arguments)
        if names is not None and len(names) != len(self.arguments):
            raise ValueError("%s: %d names for %d arguments"
                             % (name, len(names), len(self.arguments)))
        self.names = list(names) if names is not None else None
        self.has_stream = stream
        self.function = getattr(library.dll, "_mlir_ciface_" + name)
        argtypes = [a.ctype if isinstance(a, MemRefArg) else a for a in self.arguments]
        if stream:
            argtypes.append(ctypes.c_void_p)
        self.function.argtypes = argtypes
        self.function.restype = ctypes.c_int32

    def c_spellings(self):
        """The C parameter types this declaration assumes, as the header
        spells them."""
        spellings = [a.c_spelling if isinstance(a, MemRefArg) else _SCALAR_SPELLING[a]
                     for a in self.arguments]
        if self.has_stream:
            spellings.append("void *")
        return spellings

    def _bind(self, args, kwargs):
        """The arguments in order, from positional ones and keywords."""
        if not kwargs:
            return args
        if self.names is None:
            raise TypeError("%s: keyword arguments need argument names "
                            "(Library.program_from_header)" % self.name)
        values = list(args) + [None] * (len(self.names) - len(args))
        for key, value in kwargs.items():
            if key not in self.names:
                raise TypeError("%s has no argument '%s' (it takes %s)"
                                % (self.name, key, ", ".join(self.names)))
            index = self.names.index(key)
            if index < len(args):
                raise TypeError("%s: '%s' given twice" % (self.name, key))
            values[index] = value
        missing = [n for n, v in zip(self.names, values) if v is None]
        if missing:
            raise TypeError("%s: missing %s" % (self.name, ", ".join(missing)))
        return values

    def call(self, *args, stream=None, **kwargs):
        """Calls the program and returns its status (0: all enqueued).
        Arguments go by position, or by name (keywords) when the program
        knows its argument names."""
        args = self._bind(args, kwargs)
        if len(args) != len(self.arguments):
            raise TypeError("%s takes %d arguments (%d given)"
                            % (self.name, len(self.arguments), len(args)))
        values = []
        for kind, value in zip(self.arguments, args):
            if isinstance(kind, MemRefArg) and not isinstance(value, ctypes.Structure):
                value = memref_from_array(value)
            if isinstance(kind, MemRefArg) and not isinstance(value, kind.struct):
                raise TypeError("%s: expected %s, got %s"
                                % (self.name, kind.struct.c_name, type(value).__name__))
            values.append(value)
        if self.has_stream:
            values.append(ctypes.c_void_p(int(stream or 0)))
        elif stream is not None:
            raise TypeError("%s does no GPU work and takes no stream" % self.name)
        return self.function(*values)

    def __call__(self, *args, stream=None, **kwargs):
        """Calls the program; raises ProgramError on a non-zero status."""
        status = self.call(*args, stream=stream, **kwargs)
        if status != 0:
            raise ProgramError(self.name, status, self.library.last_error())
        return status


#===----------------------------------------------------------------------===#
# The generated C header (sdfg-compile --header), to check declarations
#===----------------------------------------------------------------------===#

def _normalize(spelling):
    """A C type spelled one way: "float*" and "float *" -> "float *"."""
    return " ".join(spelling.replace("*", " * ").split())


def parse_header(text):
    """(prototypes, structs) of a header written by sdfg-translate
    --sdfg-to-c-header: {program: [C parameter types]} and
    {typedef name: [field names]}."""
    prototypes = {}
    for match in re.finditer(r"int32_t\s+_mlir_ciface_(\w+)\s*\(([^)]*)\)\s*;", text):
        params = []
        for param in match.group(2).split(","):
            param = " ".join(param.split())
            if not param or param == "void":
                continue
            params.append(_normalize(re.match(r"^(.*?)\s*(\w+)$", param).group(1)))
        prototypes[match.group(1)] = params
    structs = {}
    for match in re.finditer(r"typedef struct\s*\{([^}]*)\}\s*(\w+)\s*;", text):
        fields = re.findall(r"(\w+)\s*(?:\[\d+\])?\s*;", match.group(1))
        structs[match.group(2)] = fields
    return prototypes, structs


def parse_parameters(text):
    """{program: [(C parameter type, parameter name)]} of a header written by
    sdfg-translate --sdfg-to-c-header (names as the header spells them: the
    MLIR argument names, or DaCe's for an imported SDFG)."""
    parameters = {}
    for match in re.finditer(r"int32_t\s+_mlir_ciface_(\w+)\s*\(([^)]*)\)\s*;", text):
        params = []
        for param in match.group(2).split(","):
            param = " ".join(param.split())
            if not param or param == "void":
                continue
            spelling, name = re.match(r"^(.*?)\s*(\w+)$", param).groups()
            params.append((_normalize(spelling), name))
        parameters[match.group(1)] = params
    return parameters


_SPELLING_SCALAR = {spelling: ctype for ctype, spelling in _SCALAR_SPELLING.items()}
_C_ELEMENT = {c_name: element for element, (c_name, _) in ELEMENT_TYPES.items()}


def _argument_of_spelling(spelling):
    """A MemRefArg or ctypes scalar type from a header parameter type."""
    match = re.match(r"^sdfg_memref_(\d+)d_(\w+) \*$", spelling)
    if match and match.group(2) in _C_ELEMENT:
        return MemRefArg(int(match.group(1)), _C_ELEMENT[match.group(2)])
    if spelling in _SPELLING_SCALAR:
        return _SPELLING_SCALAR[spelling]
    raise ValueError("parameter type '%s' is not supported here" % spelling)


def check_header(programs, header_text):
    """Compares the declarations of `programs` with the header; returns a
    list of mismatch descriptions (empty: all agree)."""
    prototypes, structs = parse_header(header_text)
    problems = []
    for program in programs:
        if program.name not in prototypes:
            problems.append("%s: not declared in the header" % program.name)
            continue
        declared = prototypes[program.name]
        assumed = [_normalize(s) for s in program.c_spellings()]
        if declared != assumed:
            problems.append("%s: header declares (%s), Python assumes (%s)"
                            % (program.name, ", ".join(declared), ", ".join(assumed)))
        for argument in program.arguments:
            if not isinstance(argument, MemRefArg):
                continue
            name = argument.struct.c_name
            fields = [f for f, _ in argument.struct._fields_]
            if name not in structs:
                problems.append("%s: typedef missing from the header" % name)
            elif structs[name] != fields:
                problems.append("%s: header fields %s, Python fields %s"
                                % (name, structs[name], fields))
    return problems
