"""Reading DLPack capsules with ctypes (no compiled extension).

A capsule named "dltensor" holds a DLManagedTensor. The consumer here reads
the tensor's address, shape, strides, type and device and keeps the capsule
alive while the call uses the memory; it never renames the capsule, so the
capsule's destructor calls the producer's deleter when the capsule is
collected (the protocol's rule for a capsule that was not consumed).
"""

import ctypes

__all__ = ["DLPACK_DEVICE", "read_capsule"]

# DLDeviceType
KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_ROCM, KDL_ROCM_HOST, KDL_CUDA_MANAGED = (
    1, 2, 3, 10, 11, 13)
# What each device type is to a program: its memory kind.
DLPACK_DEVICE = {
    KDL_CPU: "host",
    KDL_CUDA: "device",
    KDL_CUDA_HOST: "pinned",
    KDL_ROCM: "device",
    KDL_ROCM_HOST: "pinned",
    KDL_CUDA_MANAGED: "managed",
}
# DLDataTypeCode -> the kind letter of sdfgstream's type keys.
_CODES = {0: "i", 1: "u", 2: "f", 4: "bf", 6: "b"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_is_valid.restype = ctypes.c_int
_is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]


def read_capsule(capsule):
    """(address, shape, element strides or None, type key, memory kind,
    device id) of a "dltensor" capsule. The capsule must stay alive while
    the memory is used."""
    if not _is_valid(capsule, b"dltensor"):
        raise TypeError("__dlpack__ returned %r, not a DLPack capsule named "
                        "'dltensor'" % (capsule,))
    tensor = _DLTensor.from_address(_get_pointer(capsule, b"dltensor"))
    ndim = tensor.ndim
    shape = tuple(tensor.shape[i] for i in range(ndim))
    strides = (tuple(tensor.strides[i] for i in range(ndim))
               if tensor.strides else None)
    dtype = tensor.dtype
    if dtype.lanes != 1 or dtype.code not in _CODES:
        raise TypeError("DLPack element type (code %d, %d bits, %d lanes) is "
                        "not supported" % (dtype.code, dtype.bits, dtype.lanes))
    kind = DLPACK_DEVICE.get(tensor.device.device_type)
    if kind is None:
        raise ValueError("DLPack device type %d is neither the host nor a "
                         "CUDA or ROCm device" % tensor.device.device_type)
    address = (tensor.data or 0) + tensor.byte_offset
    return (address, shape, strides, (_CODES[dtype.code], dtype.bits), kind,
            tensor.device.device_id)
