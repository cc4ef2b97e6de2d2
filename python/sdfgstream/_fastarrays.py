"""The array reads of the fast path (_fastcall.py): for one parameter and
one array type, the lines of Python that read the array's element type,
shape, contiguity, memory and address and return to the general path where
any of them does not fit the parameter.

One family per array type the fast path knows (CuPy, NumPy, PyTorch),
each reading what the general path (_arrays.py) reads, through the
cheapest attribute the framework has for it: the checks are the general
path's, so an array either takes the fast path and is packed as the general
path would pack it, or goes to the general path, which accepts or rejects
it with its own message.
"""

import sys

__all__ = ["array_reads", "DYNAMIC"]


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


def _contiguous_bytes(shape, rank, itemsize):
    """The byte strides of a row-major array of extents `shape` (a name),
    as an expression: "(s[1] * 4, 4)"."""
    strides = []
    for dim in range(rank):
        strides.append(" * ".join(["%s[%d]" % (shape, d) for d in range(dim + 1, rank)]
                                  + [str(itemsize)]))
    return "(%s,)" % ", ".join(strides)


class ArrayReads:
    """What the generated call does with one array argument.

    lines      statements; each `return GENERAL` leaves for the general path
    fields     the descriptor's fields (allocated, aligned, offset, extents,
               element strides), as expressions
    framework  'cupy' or 'torch' where the array is a GPU array of that
               framework, None for host memory, DYNAMIC where that is
               known only per call
    device     the expression of its device index (None: host memory)
    framework_expression  the framework as an expression
    constants  the names the lines use, with their values
    """

    def __init__(self, lines, fields, framework, device, constants,
                 framework_expression=None):
        self.lines, self.fields = lines, fields
        self.framework, self.device = framework, device
        self.framework_expression = framework_expression or repr(framework)
        self.constants = constants


DYNAMIC = object()


def array_reads(parameter, kind, value, position):
    """The reads of `value` (the argument's name in the generated call), an
    array of type `kind`, for `parameter`; None where the fast path has no
    reads for that type (the general path takes it)."""
    top = kind.__module__.partition(".")[0]
    name = kind.__name__
    rank = parameter.rank
    shape, pointer, device = ("_sdfg_s%d" % position, "_sdfg_p%d" % position,
                              "_sdfg_d%d" % position)
    dtypes = "_sdfg_t%d" % position
    checks = ["%s = %s.shape" % (shape, value),
              "if len(%s) != %d: return GENERAL" % (shape, rank)]
    for dim, extent in parameter.static_dims:
        checks.append("if %s[%d] != %d: return GENERAL" % (shape, dim, extent))
    strides = ("if %s.strides != %s: return GENERAL"
               % (value, _contiguous_bytes(shape, rank, parameter.itemsize))
               if rank else None)
    if top == "cupy" and name == "ndarray" and parameter.memory != "host":
        constants = {dtypes: _numpy_dtypes(parameter.accepted)}
        # CuPy keeps its C-contiguity as a flag it reads without building
        # the strides tuple (the general path asks flags.c_contiguous).
        if hasattr(kind, "_c_contiguous") and rank:
            contiguity = "if not %s._c_contiguous: return GENERAL" % value
        else:
            contiguity = strides
        memory = "_sdfg_m%d" % position
        lines = checks + [contiguity,
                          "%s = %s.data" % (memory, value),
                          "%s = %s.ptr" % (pointer, memory),
                          "%s = %s.device_id" % (device, memory)]
        framework = "cupy"
    elif top == "numpy" and name == "ndarray" and parameter.memory != "device":
        constants = {dtypes: _numpy_dtypes(parameter.accepted)}
        lines = checks + [strides,
                          "if not %s.flags.writeable: return GENERAL" % value,
                          "%s = %s.ctypes.data" % (pointer, value)]
        framework = device = None
    elif top == "torch" and name in ("Tensor", "Parameter"):
        constants = {dtypes: _torch_dtypes(parameter.accepted)}
        # get_device() is -1 for a CPU tensor: one read for memory and device.
        # (A tensor of rank 0 is contiguous.)
        lines = checks + ["if not %s.is_contiguous(): return GENERAL" % value
                          if rank else None,
                          "%s = %s.get_device()" % (device, value)]
        if parameter.memory == "device":
            lines.append("if %s < 0: return GENERAL" % device)
            framework = "torch"
        elif parameter.memory == "host":
            lines.append("if %s >= 0: return GENERAL" % device)
            framework = device = None
        else:  # either memory: a GPU tensor is ordered on torch's stream
            framework = DYNAMIC
        lines.append("%s = %s.data_ptr()" % (pointer, value))
    else:
        return None
    if not constants[dtypes]:
        return None
    lines = ["if %s.dtype not in %s: return GENERAL" % (value, dtypes)] + [
        line for line in lines if line]
    extents = ["%s[%d]" % (shape, dim) for dim in range(rank)]
    element_strides = []
    for dim in range(rank):
        trailing = ["max(%s[%d], 1)" % (shape, d) for d in range(dim + 1, rank)]
        element_strides.append(" * ".join(trailing) if trailing else "1")
    fields = [pointer, pointer, "0"] + extents + element_strides
    if framework is DYNAMIC:
        return ArrayReads(lines, fields, framework, device, constants,
                          '("torch" if %s >= 0 else None)' % device)
    return ArrayReads(lines, fields, framework, device, constants)
