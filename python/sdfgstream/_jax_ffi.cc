//===- _jax_ffi.cc - One XLA FFI handler for every SDFGStream program -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfgstream.jax builds this file at first use against the XLA FFI headers
// that jaxlib installs (jax.ffi.include_dir()) and registers its handlers
// as FFI targets. A handler runs a program of a program library on the
// stream XLA gives the custom call (JAX's compute stream), with no host
// synchronization, through the library's packed entry: the manifest says
// the program's signature at run time, so this one handler serves every
// program.
//
// What each target's call frame holds is fixed when Python binds the target
// (sdfgstreamJaxBind): for each program parameter, which FFI argument or
// result buffer is its memref, or which attribute is its scalar. Buffers
// are row-major (XLA's default layout): a descriptor's strides follow from
// its dimensions. `SdfgstreamCall` is for programs that synchronize the
// host; `SdfgstreamCallGraphable` is marked command-buffer compatible, for
// programs that do not (XLA may capture them into CUDA graphs).
//
//===----------------------------------------------------------------------===//

#include "xla/ffi/api/ffi.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ffi = xla::ffi;

namespace {

enum class Source : int32_t { Argument = 0, Result = 1, Attribute = 2, Stream = 3 };
enum class Scalar : int32_t { None = 0, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Bool };

struct Parameter {
  Source source;
  int32_t index; // of the argument or result buffer
  int32_t rank;  // memrefs
  int32_t elementBytes;
  Scalar scalar;
  std::string name; // the attribute of a scalar
};

struct Binding {
  int32_t (*packed)(void **);
  const char *(*lastError)(void);
  std::vector<Parameter> parameters;
  int64_t calls = 0; // how often the handler ran (XLA may replay a capture)
};

std::mutex bindingsMutex;
std::map<std::string, Binding, std::less<>> &bindings() {
  static auto *map = new std::map<std::string, Binding, std::less<>>();
  return *map;
}

template <typename T>
ffi::Error readScalar(const ffi::Dictionary &attrs, const std::string &name,
                      std::vector<int64_t> &slot) {
  ffi::ErrorOr<T> value = attrs.get<T>(name);
  if (!value.has_value())
    return ffi::Error(ffi::ErrorCode::kInvalidArgument,
                      "sdfgstream: scalar " + name + ": " +
                          value.error().message());
  T stored = value.value();
  std::memcpy(slot.data(), &stored, sizeof(T));
  return ffi::Error::Success();
}

ffi::Error readScalarOfType(Scalar type, const ffi::Dictionary &attrs,
                            const std::string &name,
                            std::vector<int64_t> &slot) {
  switch (type) {
  case Scalar::F32: return readScalar<float>(attrs, name, slot);
  case Scalar::F64: return readScalar<double>(attrs, name, slot);
  case Scalar::I8: return readScalar<int8_t>(attrs, name, slot);
  case Scalar::I16: return readScalar<int16_t>(attrs, name, slot);
  case Scalar::I32: return readScalar<int32_t>(attrs, name, slot);
  case Scalar::I64: return readScalar<int64_t>(attrs, name, slot);
  case Scalar::U8: return readScalar<uint8_t>(attrs, name, slot);
  case Scalar::U16: return readScalar<uint16_t>(attrs, name, slot);
  case Scalar::U32: return readScalar<uint32_t>(attrs, name, slot);
  case Scalar::U64: return readScalar<uint64_t>(attrs, name, slot);
  case Scalar::Bool: return readScalar<bool>(attrs, name, slot);
  case Scalar::None: break;
  }
  return ffi::Error(ffi::ErrorCode::kInternal, "sdfgstream: bad scalar type");
}

/// The memref descriptor of a row-major buffer: {allocated, aligned,
/// offset, sizes[rank], strides[rank]}.
ffi::Error describe(const Parameter &parameter, const ffi::AnyBuffer &buffer,
                    std::vector<int64_t> &descriptor) {
  auto dims = buffer.dimensions();
  if (static_cast<int32_t>(dims.size()) != parameter.rank)
    return ffi::Error(ffi::ErrorCode::kInvalidArgument,
                      "sdfgstream: buffer of rank " +
                          std::to_string(dims.size()) + " for a rank-" +
                          std::to_string(parameter.rank) + " memref");
  int64_t count = 1;
  for (size_t i = 0; i < dims.size(); ++i)
    count *= dims[i];
  if (count > 0 && static_cast<int64_t>(buffer.size_bytes()) !=
                       count * parameter.elementBytes)
    return ffi::Error(ffi::ErrorCode::kInvalidArgument,
                      "sdfgstream: buffer element size differs from the "
                      "memref's");
  descriptor.assign(3 + 2 * dims.size(), 0);
  auto address = reinterpret_cast<int64_t>(buffer.untyped_data());
  descriptor[0] = descriptor[1] = address;
  int64_t stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    descriptor[3 + i] = dims[i];
    descriptor[3 + dims.size() + i] = stride;
    stride *= dims[i] > 1 ? dims[i] : 1;
  }
  return ffi::Error::Success();
}

ffi::Error call(void *stream, ffi::RemainingArgs args, ffi::RemainingRets rets,
                ffi::Dictionary attrs) {
  ffi::ErrorOr<std::string_view> key =
      attrs.get<std::string_view>("sdfgstream_target");
  if (!key.has_value())
    return ffi::Error(ffi::ErrorCode::kInvalidArgument,
                      "sdfgstream: no sdfgstream_target attribute");
  Binding binding;
  {
    std::lock_guard<std::mutex> lock(bindingsMutex);
    auto it = bindings().find(key.value());
    if (it == bindings().end())
      return ffi::Error(ffi::ErrorCode::kNotFound,
                        "sdfgstream: target " + std::string(key.value()) +
                            " is not bound in this process "
                            "(sdfgstream.jax.register)");
    ++it->second.calls;
    binding = it->second;
  }
  // A test-only override: run on another stream than XLA's (the negative
  // control of the ordering test: its results must then be wrong).
  if (attrs.contains("sdfgstream_test_stream")) {
    ffi::ErrorOr<int64_t> other = attrs.get<int64_t>("sdfgstream_test_stream");
    if (other.has_value())
      stream = reinterpret_cast<void *>(other.value());
  }
  size_t count = binding.parameters.size();
  std::vector<std::vector<int64_t>> storage(count);
  std::vector<void *> slots(count + 1, nullptr);
  for (size_t i = 0; i < count; ++i) {
    const Parameter &parameter = binding.parameters[i];
    switch (parameter.source) {
    case Source::Stream:
      slots[i] = stream;
      break;
    case Source::Attribute:
      storage[i].assign(1, 0);
      if (ffi::Error error = readScalarOfType(parameter.scalar, attrs,
                                              parameter.name, storage[i]);
          error.failure())
        return error;
      slots[i] = storage[i].data();
      break;
    case Source::Argument: {
      ffi::ErrorOr<ffi::AnyBuffer> buffer =
          args.get<ffi::AnyBuffer>(parameter.index);
      if (!buffer.has_value())
        return buffer.error();
      if (ffi::Error error = describe(parameter, buffer.value(), storage[i]);
          error.failure())
        return error;
      slots[i] = storage[i].data();
      break;
    }
    case Source::Result: {
      ffi::ErrorOr<ffi::Result<ffi::AnyBuffer>> buffer =
          rets.get<ffi::AnyBuffer>(parameter.index);
      if (!buffer.has_value())
        return buffer.error();
      if (ffi::Error error = describe(parameter, *buffer.value(), storage[i]);
          error.failure())
        return error;
      slots[i] = storage[i].data();
      break;
    }
    }
  }
  int32_t status = binding.packed(slots.data());
  if (status != 0)
    return ffi::Error(ffi::ErrorCode::kInternal,
                      "sdfgstream: " + std::string(key.value()) +
                          " failed with status " + std::to_string(status) +
                          ": " + binding.lastError());
  return ffi::Error::Success();
}

} // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(SdfgstreamCall, call,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<void *>>()
                                  .RemainingArgs()
                                  .RemainingRets()
                                  .Attrs<ffi::Dictionary>());

XLA_FFI_DEFINE_HANDLER_SYMBOL(SdfgstreamCallGraphable, call,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<void *>>()
                                  .RemainingArgs()
                                  .RemainingRets()
                                  .Attrs<ffi::Dictionary>(),
                              {ffi::Traits::kCmdBufferCompatible});

extern "C" {

/// Binds FFI target `key` to a program: its packed entry, the runtime's
/// sdfgrtGetLastError of its library, and `count` parameters described by
/// parallel arrays (source, index, rank, element bytes, scalar type, and
/// the attribute name of each scalar). Returns 0.
__attribute__((visibility("default"))) int32_t
sdfgstreamJaxBind(const char *key, void *packed, void *lastError,
                  int32_t count, const int32_t *sources,
                  const int32_t *indices, const int32_t *ranks,
                  const int32_t *elementBytes, const int32_t *scalars,
                  const char *const *names) {
  Binding binding;
  binding.packed = reinterpret_cast<int32_t (*)(void **)>(packed);
  binding.lastError = reinterpret_cast<const char *(*)(void)>(lastError);
  for (int32_t i = 0; i < count; ++i)
    binding.parameters.push_back(
        Parameter{static_cast<Source>(sources[i]), indices[i], ranks[i],
                  elementBytes[i], static_cast<Scalar>(scalars[i]),
                  names[i] ? names[i] : ""});
  std::lock_guard<std::mutex> lock(bindingsMutex);
  bindings()[key] = std::move(binding);
  return 0;
}

/// How often the handler ran for target `key` (-1: not bound). Fewer runs
/// than executions of the XLA program: XLA replayed a command buffer that
/// captured it.
__attribute__((visibility("default"))) int64_t
sdfgstreamJaxCallCount(const char *key) {
  std::lock_guard<std::mutex> lock(bindingsMutex);
  auto it = bindings().find(key);
  return it == bindings().end() ? -1 : it->second.calls;
}

} // extern "C"
