//===- EntrySignature.h - The ABI types of runtime entries ------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The vocabulary in which RuntimeEntries.def writes each runtime entry's C
// signature, as a C++ function type: `i32(ptr, i64)` is an entry that takes
// a pointer and a 64-bit integer and returns a 32-bit integer. The types
// are the ones generated code sees (LLVM's opaque pointer and integer
// widths), so that the compiler can build its declarations from them
// (include/SDFGStream/Conversion/RuntimeEntries.h) and the runtime can check
// its C declarations against them (matchesEntrySignature below). Header
// only, no dependencies: the runtime includes it without LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_RUNTIME_ENTRYSIGNATURE_H
#define SDFGSTREAM_RUNTIME_ENTRYSIGNATURE_H

#include <type_traits>

namespace sdfgrt {
namespace abi {

/// Any pointer (LLVM's `!llvm.ptr` in address space 0).
struct ptr;
/// An integer of `Bits` bits (signedness is the callee's business, as in
/// LLVM).
template <unsigned Bits> struct IntegerOf;
using i8 = IntegerOf<8>;
using i16 = IntegerOf<16>;
using i32 = IntegerOf<32>;
using i64 = IntegerOf<64>;

/// Whether the C type `C` is passed as the ABI type `T`.
template <typename T, typename C> struct IsPassedAs : std::false_type {};
template <typename C> struct IsPassedAs<void, C> : std::is_void<C> {};
template <typename C> struct IsPassedAs<ptr, C> : std::is_pointer<C> {};
template <unsigned Bits, typename C>
struct IsPassedAs<IntegerOf<Bits>, C>
    : std::integral_constant<bool, std::is_integral<C>::value &&
                                       sizeof(C) * 8 == Bits> {};

/// Whether the C function type `Function` has the signature `Signature`
/// (a function type over the types above): the same number of parameters,
/// each passed as the signature says, and the same kind of result.
template <typename Signature, typename Function>
struct MatchesSignature : std::false_type {};
template <typename R, typename... A, typename CR, typename... CA>
struct MatchesSignature<R(A...), CR(CA...)> {
  static constexpr bool compute() {
    if constexpr (sizeof...(A) != sizeof...(CA))
      return false;
    else
      return IsPassedAs<R, CR>::value && (IsPassedAs<A, CA>::value && ...);
  }
  static constexpr bool value = compute();
};

} // namespace abi
} // namespace sdfgrt

#endif // SDFGSTREAM_RUNTIME_ENTRYSIGNATURE_H
