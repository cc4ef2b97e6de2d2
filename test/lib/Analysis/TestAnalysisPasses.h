//===- TestAnalysisPasses.h - Passes that print the analyses ----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The test passes of the analyses (test/Analysis), and what they share: a
// tag names an op (`test.tag = "name"`) or a function argument, and values
// print as the function's IR prints them.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TEST_LIB_ANALYSIS_TESTANALYSISPASSES_H
#define SDFGSTREAM_TEST_LIB_ANALYSIS_TESTANALYSISPASSES_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
class AsmState;

namespace sdfg {
namespace test {

/// The name `op` is tagged with (`test.tag`), or "".
StringRef getTag(Operation *op);

/// Calls `fn` on every host function (function-like op outside
/// gpu.modules) nested in `root` that has a body.
void forEachHostFunction(Operation *root,
                         function_ref<void(FunctionOpInterface)> fn);

/// Prints `values` as operands, each after a space: " %0 %arg1".
void printValues(ArrayRef<Value> values, raw_ostream &os, AsmState &asmState);

void registerTestBufferAliasesPass();
void registerTestHostGpuAccessesPass();
void registerTestPendingGpuWorkPass();
void registerTestTokenChainsPass();

/// Registers every test pass of the analyses.
inline void registerTestAnalysisPasses() {
  registerTestBufferAliasesPass();
  registerTestHostGpuAccessesPass();
  registerTestPendingGpuWorkPass();
  registerTestTokenChainsPass();
}

} // namespace test
} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_TEST_LIB_ANALYSIS_TESTANALYSISPASSES_H
