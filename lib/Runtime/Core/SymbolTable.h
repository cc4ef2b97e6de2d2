//===- SymbolTable.h - Vendor entry points reached by dlsym -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Included by a vendor description (CUDA/Vendor.h, HIP/Vendor.h) once
// it has declared `sdfgrt::vendor::Result` and defined SDFGRT_VENDOR_SYMBOLS,
// the X-macro file that lists the entry points the runtime uses:
//
//   SDFGRT_SYMBOL(Role, vendorFunction): must be present.
//   SDFGRT_OPTIONAL_SYMBOL(Role, vendorFunction): may be missing (an older
//     vendor library); the vendor description checks for null.
//   SDFGRT_SYMBOL_TYPED(Role, vendorFunction, FunctionType): must be present;
//     for functions the header overloads, the type picks the C entry point.
//
// The shared code calls an entry point by its Role, so one call site serves
// both vendors. The prototype is the vendor header's (decltype), and the
// name looked up is the vendor function after macro expansion: cuda.h maps
// cuCtxPushCurrent to cuCtxPushCurrent_v2, and so does the table, exactly as
// for a program linked against the header. Errors name the function as the
// programmer wrote it (cuCtxPushCurrent).
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_SYMBOLTABLE_H
#define SDFGSTREAM_LIB_RUNTIME_SYMBOLTABLE_H

#include "Core/RuntimeInternal.h"

#include <type_traits>

#define SDFGRT_STRINGIFY_IMPL(x) #x
#define SDFGRT_STRINGIFY(x) SDFGRT_STRINGIFY_IMPL(x)

namespace sdfgrt {
namespace vendor {

struct Symbols {
#define SDFGRT_ENTRY(role, type, name)                                         \
  std::add_pointer_t<type> role = nullptr;                                     \
  static constexpr const char *role##Name = name;
#define SDFGRT_SYMBOL(role, function)                                          \
  SDFGRT_ENTRY(role, decltype(::function), #function)
#define SDFGRT_OPTIONAL_SYMBOL(role, function)                                 \
  SDFGRT_ENTRY(role, decltype(::function), #function)
#define SDFGRT_SYMBOL_TYPED(role, function, type)                              \
  static_assert(sizeof(static_cast<std::add_pointer_t<type>>(&::function)),    \
                "no overload of " #function " has this type");                 \
  SDFGRT_ENTRY(role, type, #function)
#include SDFGRT_VENDOR_SYMBOLS
#undef SDFGRT_SYMBOL_TYPED
#undef SDFGRT_OPTIONAL_SYMBOL
#undef SDFGRT_SYMBOL
#undef SDFGRT_ENTRY
};

/// Checks the result of the vendor call `function`: on failure records its
/// name, the vendor's error name and text, then `detail` if it is not
/// empty, and returns false. Every vendor call goes through here
/// (SDFGRT_CALL).
bool check(const char *function, Result result, const char *detail = nullptr);

/// check() for the call that finds the context or device of `stream`: a
/// failure says that `stream` is not a usable stream.
bool checkStream(const char *function, Result result, const void *stream);

} // namespace vendor
} // namespace sdfgrt

/// Calls entry point `role` of the table `symbols` and checks the result.
#define SDFGRT_CALL(symbols, role, ...)                                        \
  ::sdfgrt::vendor::check(::sdfgrt::vendor::Symbols::role##Name,               \
                          (symbols).role(__VA_ARGS__))

#endif // SDFGSTREAM_LIB_RUNTIME_SYMBOLTABLE_H
