"""What a program is given for a memref: any array, as (address, shape,
strides, element type, memory).

Accepted, in this order:
  * PyTorch tensors and CuPy / NumPy arrays directly (their attributes;
    the same information their DLPack capsules carry, without making one),
    ordered after their framework's current stream by the caller
    (_program.py);
  * any object with ``__dlpack__`` (JAX, PyTorch, CuPy, NumPy >= 1.22, ...):
    the capsule is asked for with ``stream=`` the call's stream, so the
    producer orders its pending work before the call (the protocol's
    handshake);
  * any object with ``__cuda_array_interface__`` (Numba, ...): where it
    names a stream, the call's stream waits for it on the GPU;
  * the buffer protocol, for host memory (writable buffers only).
"""

import ctypes
import struct

from ._dlpack import read_capsule

__all__ = ["converter", "framework_of", "type_name"]

# numpy.dtype.str / typestr kind letters -> sdfgstream's kind letters.
_TYPESTR_KIND = {"f": "f", "i": "i", "u": "u", "b": "b"}
# PyTorch dtype names -> type keys.
_TORCH_TYPES = {
    "torch.float32": ("f", 32), "torch.float64": ("f", 64),
    "torch.float16": ("f", 16), "torch.bfloat16": ("bf", 16),
    "torch.int8": ("i", 8), "torch.int16": ("i", 16),
    "torch.int32": ("i", 32), "torch.int64": ("i", 64),
    "torch.uint8": ("u", 8), "torch.uint16": ("u", 16),
    "torch.uint32": ("u", 32), "torch.uint64": ("u", 64),
    "torch.bool": ("b", 8),
}
_KIND_NAMES = {"f": "float", "i": "int", "u": "uint", "b": "bool", "bf": "bfloat"}


def type_name(key):
    """'float32' for ('f', 32), 'bool' for ('b', 8)."""
    kind, bits = key
    return "bool" if kind == "b" else "%s%d" % (_KIND_NAMES[kind], bits)


class ArrayView:
    """The memory of one argument. `strides` is None for row-major
    contiguous memory, else element strides; `memory` is "host", "pinned",
    "managed" or "device"; `keep` holds what must stay alive during the
    call (a DLPack capsule)."""

    __slots__ = ("address", "shape", "strides", "dtype", "memory", "device",
                 "keep", "wait_stream")

    def __init__(self, address, shape, strides, dtype, memory, device,
                 keep=None, wait_stream=None):
        self.address = address
        self.shape = shape
        self.strides = strides
        self.dtype = dtype
        self.memory = memory
        self.device = device
        self.keep = keep
        self.wait_stream = wait_stream  # a stream the call must wait for


def _element_strides(byte_strides, itemsize, what):
    if byte_strides is None:
        return None
    if any(stride % itemsize for stride in byte_strides):
        raise ValueError("%s: byte strides %s are not multiples of the "
                         "element size %d" % (what, tuple(byte_strides), itemsize))
    return tuple(stride // itemsize for stride in byte_strides)


def _numpy_like_dtype(dtype, what):
    if not getattr(dtype, "isnative", True):
        raise ValueError("%s: element type %s is not in the machine's byte "
                         "order" % (what, dtype.str))
    kind = _TYPESTR_KIND.get(dtype.kind)
    if kind is None:
        if dtype.kind == "V" and dtype.itemsize == 2 and "bfloat16" in str(dtype):
            return ("bf", 16)
        raise TypeError("%s: element type %s is not supported" % (what, dtype))
    return (kind, dtype.itemsize * 8)


def _typestr_dtype(typestr, what):
    """Type key of an array-interface typestr ('<f4', '|b1')."""
    order, kind, size = typestr[0], typestr[1], int(typestr[2:])
    little = struct.pack("=H", 1) == b"\x01\x00"
    if order not in "|=" and (order == "<") != little and size > 1:
        raise ValueError("%s: element type %s is not in the machine's byte "
                         "order" % (what, typestr))
    if kind not in _TYPESTR_KIND:
        raise TypeError("%s: element type %s is not supported" % (what, typestr))
    return (_TYPESTR_KIND[kind], size * 8)


def _dlpack_stream(stream):
    """The stream as DLPack's `stream=` argument spells it: 0 (the legacy
    default stream in CUDA's API) is 1 there."""
    return 1 if stream in (0, None) else stream


def _dlpack_view(obj, stream, what):
    try:
        device_type, _ = obj.__dlpack_device__()
    except AttributeError:
        device_type = None
    if device_type in (2, 10, 13):  # CUDA, ROCm, CUDA managed
        capsule = obj.__dlpack__(stream=_dlpack_stream(stream))
    else:
        capsule = obj.__dlpack__()
    address, shape, strides, dtype, memory, device = read_capsule(capsule)
    return ArrayView(address, shape, strides, dtype, memory, device, keep=capsule)


def _cuda_interface_view(obj, what):
    interface = obj.__cuda_array_interface__
    dtype = _typestr_dtype(interface["typestr"], what)
    address, readonly = interface["data"]
    if readonly:
        raise ValueError("%s: the array is read-only (a program may write "
                         "its memrefs)" % what)
    strides = _element_strides(interface.get("strides"), dtype[1] // 8, what)
    wait = interface.get("stream") if interface.get("version", 0) >= 3 else None
    return ArrayView(address or 0, tuple(interface["shape"]), strides, dtype,
                     "device", -1, wait_stream=wait)


def _buffer_view(obj, what):
    try:
        view = memoryview(obj)
    except TypeError:
        raise TypeError("%s: %s is not an array (pass an object with __dlpack__, "
                        "__cuda_array_interface__ or the buffer protocol)"
                        % (what, type(obj).__name__)) from None
    if view.readonly:
        raise ValueError("%s: the buffer is read-only (a program may write "
                         "its memrefs)" % what)
    fmt = view.format.lstrip("@=")
    codes = {"f": ("f", 32), "d": ("f", 64), "e": ("f", 16), "b": ("i", 8),
             "h": ("i", 16), "i": ("i", 32), "l": ("i", 8 * struct.calcsize("l")),
             "q": ("i", 64), "B": ("u", 8), "H": ("u", 16), "I": ("u", 32),
             "L": ("u", 8 * struct.calcsize("L")), "Q": ("u", 64), "?": ("b", 8)}
    if fmt not in codes:
        raise TypeError("%s: buffer format %r is not supported" % (what, view.format))
    address = ctypes.addressof(ctypes.c_char.from_buffer(view)) if view.nbytes else 0
    strides = _element_strides(view.strides, view.itemsize, what)
    return ArrayView(address, tuple(view.shape), strides, codes[fmt], "host",
                     -1, keep=view)


def framework_of(obj):
    """'torch', 'cupy', 'numpy', 'jax' or None, from the object's type."""
    module = type(obj).__module__
    top = module.partition(".")[0]
    if top in ("torch", "cupy", "numpy"):
        return top
    if top in ("jax", "jaxlib"):
        return "jax"
    return None


#===-------------------------------------------------------------------===#
# The call path: one converter per array type, found once per type
#===-------------------------------------------------------------------===#
#
# A converter turns an array into the tuple
#   (address, shape, element strides or None if row-major contiguous,
#    type key, memory, device, keep, wait_stream, framework)
# where `framework` ('torch', 'cupy') names arrays whose order is their
# framework's current stream: the caller orders the call after it (one
# stream wait where the call's stream is another, as DLPack's handshake
# would do), instead of asking each array for a capsule.

_dtype_keys = {}


def _dtype_key(dtype, what):
    key = _dtype_keys.get(dtype)
    if key is None:
        key = _dtype_keys[dtype] = _numpy_like_dtype(dtype, what)
    return key


_torch_keys = {}


def _torch_fast(tensor, stream, what):
    key = _torch_keys.get(tensor.dtype)
    if key is None:
        key = _TORCH_TYPES.get(str(tensor.dtype))
        if key is None:
            raise TypeError("%s: element type %s is not supported" % (what, tensor.dtype))
        _torch_keys[tensor.dtype] = key
    if tensor.is_cuda:
        return (tensor.data_ptr(), tuple(tensor.shape),
                None if tensor.is_contiguous() else tuple(tensor.stride()), key,
                "device", tensor.get_device(), None, None, "torch")
    return (tensor.data_ptr(), tuple(tensor.shape),
            None if tensor.is_contiguous() else tuple(tensor.stride()), key,
            "host", -1, None, None, None)


def _cupy_fast(array, stream, what):
    memory = array.data
    return (memory.ptr, array.shape,
            None if array.flags.c_contiguous else
            _element_strides(array.strides, array.itemsize, what),
            _dtype_key(array.dtype, what), "device", memory.device_id, None, None, "cupy")


def _numpy_fast(array, stream, what):
    if not array.flags.writeable:
        raise ValueError("%s: the array is read-only (a program may write "
                         "its memrefs)" % what)
    return (array.ctypes.data, array.shape,
            None if array.flags.c_contiguous else
            _element_strides(array.strides, array.itemsize, what),
            _dtype_key(array.dtype, what), "host", -1, None, None, None)


def _generic(obj, stream, what):
    if hasattr(obj, "__dlpack__"):
        view = _dlpack_view(obj, stream, what)
    elif hasattr(obj, "__cuda_array_interface__"):
        view = _cuda_interface_view(obj, what)
    else:
        view = _buffer_view(obj, what)
    return (view.address, view.shape, view.strides, view.dtype, view.memory,
            view.device, view.keep, view.wait_stream, None)


_converters = {}


def converter(kind):
    """The converter of arrays of type `kind`."""
    function = _converters.get(kind)
    if function is None:
        top = kind.__module__.partition(".")[0]
        name = kind.__name__
        if top == "torch" and name in ("Tensor", "Parameter"):
            function = _torch_fast
        elif top == "cupy" and name == "ndarray":
            function = _cupy_fast
        elif top == "numpy" and name == "ndarray":
            function = _numpy_fast
        else:
            function = _generic
        _converters[kind] = function
    return function
