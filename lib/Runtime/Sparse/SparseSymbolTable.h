//===- SparseSymbolTable.h - Sparse library entry points --------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Included by a sparse vendor description (CUDA/SparseVendor.h,
// HIP/SparseVendor.h) once it has included the library's header and
// defined SDFGRT_SPARSE_SYMBOLS, the X-macro file of the entry points the
// runtime uses: SDFGRT_SPARSE_SYMBOL(Role, function). As in SymbolTable.h,
// the prototype is the header's (decltype) and the shared code calls an
// entry point by its role.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_SPARSESYMBOLTABLE_H
#define SDFGSTREAM_LIB_RUNTIME_SPARSESYMBOLTABLE_H

#include <type_traits>

namespace sdfgrt {
namespace sparse {

struct Symbols {
#define SDFGRT_SPARSE_SYMBOL(role, function)                                   \
  std::add_pointer_t<decltype(::function)> role = nullptr;                     \
  static constexpr const char *role##Name = #function;
#include SDFGRT_SPARSE_SYMBOLS
#undef SDFGRT_SPARSE_SYMBOL
};

/// Checks the status of the library call `function`: on failure records
/// its name, the library's error name and text, and returns false. Every
/// sparse library call goes through here (SDFGRT_SPARSE_CALL).
bool check(const Symbols &symbols, const char *function, Status status);

} // namespace sparse
} // namespace sdfgrt

/// Calls entry point `role` of the sparse table `symbols`, checking it.
#define SDFGRT_SPARSE_CALL(symbols, role, ...)                                 \
  ::sdfgrt::sparse::check((symbols), ::sdfgrt::sparse::Symbols::role##Name,    \
                          (symbols).role(__VA_ARGS__))

#endif // SDFGSTREAM_LIB_RUNTIME_SPARSESYMBOLTABLE_H
