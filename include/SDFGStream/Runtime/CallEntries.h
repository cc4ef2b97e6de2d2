//===- CallEntries.h - The runtime entries that frame a call ----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The names of the runtime entries that generated code brackets a program
// call with and checks its status through, for the passes that emit them
// (convert-sdfg-to-func, sdfg-insert-failure-exits): one spelling, checked at
// compile time against RuntimeEntries.def, the list the runtime implements.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_RUNTIME_CALLENTRIES_H
#define SDFGSTREAM_RUNTIME_CALLENTRIES_H

#include "llvm/ADT/StringRef.h"

#include <string_view>

namespace mlir {
namespace sdfg {

/// Whether `name` is an entry of RuntimeEntries.def.
constexpr bool isRuntimeEntry(std::string_view name) {
#define SDFGRT_RUNTIME_ENTRY(entry, stream, mayFail)                           \
  if (name == #entry)                                                          \
    return true;
#include "SDFGStream/Runtime/RuntimeEntries.def"
  return false;
}

constexpr bool isRuntimeEntry(llvm::StringLiteral name) {
  return isRuntimeEntry(std::string_view(name.data(), name.size()));
}

/// `void sdfgrtBeginCall(void)`: a program call starts.
constexpr llvm::StringLiteral kBeginCallEntry("sdfgrtBeginCall");
/// `void sdfgrtBeginGraphCall(const char *program)`: a program call in graph
/// mode starts.
constexpr llvm::StringLiteral kBeginGraphCallEntry("sdfgrtBeginGraphCall");
/// `void sdfgrtFlushGraphWork(void)`: what a graph-mode call recorded runs
/// now (before code that leaves the runtime).
constexpr llvm::StringLiteral kFlushGraphWorkEntry("sdfgrtFlushGraphWork");
/// `int32_t sdfgrtEndCall(void)`: it ends; its status.
constexpr llvm::StringLiteral kEndCallEntry("sdfgrtEndCall");
/// `int32_t sdfgrtCallStatus(void)`: the status of the call so far.
constexpr llvm::StringLiteral kCallStatusEntry("sdfgrtCallStatus");

static_assert(isRuntimeEntry(kBeginCallEntry) &&
                  isRuntimeEntry(kBeginGraphCallEntry) &&
                  isRuntimeEntry(kFlushGraphWorkEntry) &&
                  isRuntimeEntry(kEndCallEntry) &&
                  isRuntimeEntry(kCallStatusEntry),
              "a call entry is missing from RuntimeEntries.def");

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_RUNTIME_CALLENTRIES_H
