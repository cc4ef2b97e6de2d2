"""A program's parameters, from its library's manifest, and how each packs
an argument into the packed entry's frame."""

import ctypes
import struct

from ._arrays import converter, type_name

__all__ = ["parameter_from_manifest", "MemRefParameter", "ScalarParameter",
           "PointerParameter", "UnrankedParameter", "element_key"]

_POINTER = struct.Struct("P")


def element_key(spelling):
    """The type keys an MLIR element type accepts and its struct code:
    f32 -> ({('f', 32)}, 'f'); a signless i32 takes int32 and uint32."""
    if spelling == "index":
        return {("i", 64)}, "q"
    if spelling == "i1":
        return {("b", 8)}, "?"
    if spelling == "bf16":
        return {("bf", 16)}, "H"
    if spelling in ("f16", "f32", "f64"):
        bits = int(spelling[1:])
        return {("f", bits)}, {16: "e", 32: "f", 64: "d"}[bits]
    for prefix, kinds, signed in (("ui", ("u",), False), ("si", ("i",), True),
                                  ("i", ("i", "u"), True)):
        if spelling.startswith(prefix) and spelling[len(prefix):].isdigit():
            bits = int(spelling[len(prefix):])
            if bits in (8, 16, 32, 64):
                code = {8: "b", 16: "h", 32: "i", 64: "q"}[bits]
                return {(kind, bits) for kind in kinds}, code if signed else code.upper()
    raise ValueError("element type %s has no Python equivalent" % spelling)


def _contiguous(shape):
    if len(shape) < 2:
        return (1,) if shape else ()
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def _spell_shape(shape):
    return "x".join("?" if extent is None else str(extent) for extent in shape)


class Parameter:
    """One parameter: `name`, its slot `index` in the packed entry, and the
    bytes it takes in a frame."""

    size = 0

    def __init__(self, entry, index):
        self.name = entry["name"]
        self.index = index

    def describe(self):
        raise NotImplementedError


class MemRefParameter(Parameter):
    def __init__(self, entry, index):
        super().__init__(entry, index)
        self.element = entry["element"]
        self.accepted, code = element_key(self.element)
        self.itemsize = struct.calcsize(code)
        self.shape = tuple(entry["shape"])
        self.rank = len(self.shape)
        self.memory = entry["memory"]
        self.layout = entry.get("layout", "identity")
        if self.layout == "other":
            raise ValueError("parameter %s: a memref layout other than identity "
                             "or strided cannot be passed from Python" % self.name)
        self.static_strides = tuple(entry.get("strides") or ())
        self.static_offset = entry.get("offset")
        self.struct = struct.Struct("PPq" + "q" * (2 * self.rank))
        self.size = self.struct.size
        self.static_dims = tuple((dim, extent) for dim, extent in enumerate(self.shape)
                                 if extent is not None)

    def describe(self):
        space = {"device": ", device", "host": ", host", "any": ""}[self.memory]
        layout = ""
        if self.layout == "strided":
            layout = ", strided<[%s], offset: %s>" % (
                ", ".join("?" if s is None else str(s) for s in self.static_strides),
                "?" if self.static_offset is None else self.static_offset)
        shape = _spell_shape(self.shape)
        return "memref<%s%s%s%s>" % (shape + "x" if shape else "", self.element,
                                     layout, space)

    def bind(self, info, frame, offset, program):
        """Checks the converted array `info` (_arrays.converter) against the
        parameter and packs its descriptor at `offset`."""
        address, shape, strides, dtype, memory = info[:5]
        if dtype not in self.accepted:
            raise TypeError("%s: argument %s has element type %s, the program takes %s"
                            % (program, self.name, type_name(dtype), self.element))
        if len(shape) != self.rank:
            raise ValueError("%s: argument %s has rank %d, the program takes rank %d (%s)"
                             % (program, self.name, len(shape), self.rank, self.describe()))
        for dim, want in self.static_dims:
            if shape[dim] != want:
                raise ValueError("%s: argument %s has shape %s, the program takes %s "
                                 "(dimension %d)" % (program, self.name, tuple(shape),
                                                     _spell_shape(self.shape), dim))
        if memory != "device":
            if self.memory == "device" and memory != "managed":
                raise ValueError("%s: argument %s is in %s memory, the program takes GPU "
                                 "memory" % (program, self.name, memory))
        elif self.memory == "host":
            raise ValueError("%s: argument %s is in GPU memory, the program takes host "
                             "memory" % (program, self.name))
        if strides is None or 0 in shape:
            strides = _contiguous(shape)
        elif self.layout == "identity":
            for extent, stride, want in zip(shape, strides, _contiguous(shape)):
                if extent > 1 and stride != want:
                    raise ValueError("%s: argument %s is not row-major contiguous (element "
                                     "strides %s); the program's memref has the identity "
                                     "layout (pass a contiguous copy)"
                                     % (program, self.name, tuple(strides)))
            strides = _contiguous(shape)
        else:
            for dim, (stride, want) in enumerate(zip(strides, self.static_strides)):
                if want is not None and stride != want and shape[dim] > 1:
                    raise ValueError("%s: argument %s has element strides %s, the program "
                                     "takes %s" % (program, self.name, tuple(strides),
                                                   self.static_strides))
        # A static offset is read from the type: the descriptor's aligned
        # pointer is then that many elements before the first one.
        if self.static_offset:
            self.struct.pack_into(frame, offset, address,
                                  address - self.static_offset * self.itemsize,
                                  self.static_offset, *shape, *strides)
        else:
            self.struct.pack_into(frame, offset, address, address, 0, *shape, *strides)


class UnrankedParameter(Parameter):
    size = 16  # {int64_t rank; void *descriptor}

    def __init__(self, entry, index):
        super().__init__(entry, index)
        self.element = entry["element"]
        self.accepted, code = element_key(self.element)
        self.memory = entry["memory"]

    def describe(self):
        return "memref<*x%s%s>" % (self.element, ", device" if self.memory == "device" else "")

    def bind(self, info, frame, offset, program):
        address, shape, strides, dtype, memory = info[:5]
        if dtype not in self.accepted:
            raise TypeError("%s: argument %s has element type %s, the program takes %s"
                            % (program, self.name, type_name(dtype), self.element))
        if self.memory == "device" and memory not in ("device", "managed"):
            raise ValueError("%s: argument %s is in %s memory, the program takes GPU "
                             "memory" % (program, self.name, memory))
        if strides is None:
            strides = _contiguous(shape)
        rank = len(shape)
        ranked = (ctypes.c_char * (8 * (3 + 2 * rank)))()
        struct.pack_into("PPq" + "q" * (2 * rank), ranked, 0, address, address, 0,
                         *shape, *strides)
        struct.pack_into("qP", frame, offset, rank, ctypes.addressof(ranked))
        return ranked


class ScalarParameter(Parameter):
    def __init__(self, entry, index):
        super().__init__(entry, index)
        self.type = entry["type"]
        _, code = element_key(self.type)
        self.code = code
        self.struct = struct.Struct(code)
        self.size = 8
        self.signless = self.type.startswith("i") and self.type not in ("i1", "index")

    def describe(self):
        return self.type

    def encode(self, value):
        """`value` as the struct code packs it: a bf16 as its bits (rounded
        to nearest even), an unsigned value of a signless integer as the
        signed value with the same bits; others unchanged."""
        if self.type == "bf16":
            bits = struct.unpack("I", struct.pack("f", float(value)))[0]
            return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF
        if self.signless and isinstance(value, int) and value >= 0:
            bits = self.struct.size * 8
            if value >= 1 << (bits - 1) and value < 1 << bits:
                return value - (1 << bits)
        return value

    @property
    def encodes(self):
        """Whether encode() changes some values (packing needs it)."""
        return self.type == "bf16" or self.signless

    def pack(self, frame, offset, value, program):
        try:
            self.struct.pack_into(frame, offset, self.encode(value))
        except (struct.error, TypeError, ValueError) as error:
            raise TypeError("%s: argument %s takes %s, got %r (%s)"
                            % (program, self.name, self.type, value, error)) from None


class PointerParameter(Parameter):
    size = 0  # the slot holds the pointer itself

    def describe(self):
        return "!llvm.ptr"

    def address(self, value, program):
        if value is None:
            return 0
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, ctypes.c_void_p):
            return value.value or 0
        return converter(type(value))(value, None, "%s: argument %s"
                                      % (program, self.name))[0]


def parameter_from_manifest(entry, index):
    kind = entry["kind"]
    if kind == "memref":
        return MemRefParameter(entry, index)
    if kind == "unranked_memref":
        return UnrankedParameter(entry, index)
    if kind == "scalar":
        return ScalarParameter(entry, index)
    if kind == "pointer":
        return PointerParameter(entry, index)
    raise ValueError("parameter %s of kind %s" % (entry.get("name"), kind))
