//===- RuntimeEntriesTest.cpp - The typed table of runtime entries --------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The table that the lowering, the lint and the failure model read
// (Conversion/RuntimeEntries.h over RuntimeEntries.def) is consistent: names
// round-trip, each stream operand is a pointer parameter of its entry, the
// LLVM and func forms of a signature agree, and the refused entries are no
// entries. (That the runtime declares each entry with its signature is
// checked when the runtime compiles; that it exports each one, by
// unittests/Runtime/RuntimeEntriesTest.cpp.)
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/RuntimeEntries.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {

/// Every entry, in the table's order.
SmallVector<RuntimeEntry> allEntries() {
  return {
#define SDFGRT_RUNTIME_ENTRY(name, streamOperand, mayFail, signature)          \
  RuntimeEntry::name,
#include "SDFGStream/Runtime/RuntimeEntries.def"
  };
}

TEST(RuntimeEntriesTest, NamesRoundTrip) {
  llvm::StringSet<> names;
  for (RuntimeEntry entry : allEntries()) {
    StringRef name = getRuntimeEntryName(entry);
    EXPECT_TRUE(names.insert(name).second) << name.str() << " is listed twice";
    EXPECT_EQ(lookupRuntimeEntry(name), entry) << name.str();
  }
  EXPECT_GT(names.size(), 60u);
  EXPECT_EQ(lookupRuntimeEntry("mgpuMemset64"), std::nullopt);
  EXPECT_EQ(lookupRuntimeEntry(""), std::nullopt);
}

TEST(RuntimeEntriesTest, StreamOperandsArePointerParameters) {
  MLIRContext context;
  context.loadDialect<LLVM::LLVMDialect>();
  Type ptr = LLVM::LLVMPointerType::get(&context);
  for (RuntimeEntry entry : allEntries()) {
    std::optional<unsigned> stream = getRuntimeEntryStreamOperand(entry);
    if (!stream)
      continue;
    LLVM::LLVMFunctionType type = getRuntimeEntryLLVMType(&context, entry);
    ASSERT_LT(*stream, type.getNumParams()) << getRuntimeEntryName(entry).str();
    EXPECT_EQ(type.getParamType(*stream), ptr)
        << getRuntimeEntryName(entry).str();
  }
  // The stream is where the runtime's C declarations have it.
  EXPECT_EQ(getRuntimeEntryStreamOperand(RuntimeEntry::mgpuLaunchKernel), 8u);
  EXPECT_EQ(getRuntimeEntryStreamOperand(RuntimeEntry::mgpuMemAlloc), 1u);
  EXPECT_EQ(getRuntimeEntryStreamOperand(RuntimeEntry::sdfgrtEndCall),
            std::nullopt);
}

TEST(RuntimeEntriesTest, LLVMAndFuncSignaturesAgree) {
  MLIRContext context;
  context.loadDialect<LLVM::LLVMDialect>();
  for (RuntimeEntry entry : allEntries()) {
    LLVM::LLVMFunctionType llvmType = getRuntimeEntryLLVMType(&context, entry);
    FunctionType funcType = getRuntimeEntryFunctionType(&context, entry);
    EXPECT_EQ(llvmType.getParams(), funcType.getInputs())
        << getRuntimeEntryName(entry).str();
    bool isVoid = isa<LLVM::LLVMVoidType>(llvmType.getReturnType());
    ASSERT_EQ(funcType.getNumResults(), isVoid ? 0u : 1u)
        << getRuntimeEntryName(entry).str();
    if (!isVoid) {
      EXPECT_EQ(funcType.getResult(0), llvmType.getReturnType());
    }
  }
}

TEST(RuntimeEntriesTest, SignaturesAreTheCOnes) {
  MLIRContext context;
  context.loadDialect<LLVM::LLVMDialect>();
  auto print = [&](RuntimeEntry entry) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << getRuntimeEntryLLVMType(&context, entry);
    return text;
  };
  // void *mgpuMemAlloc(uint64_t, void *stream, bool)
  EXPECT_EQ(print(RuntimeEntry::mgpuMemAlloc),
            "!llvm.func<ptr (i64, ptr, i8)>");
  // void sdfgrtMemset8(void *, uint8_t, size_t, void *stream)
  EXPECT_EQ(print(RuntimeEntry::sdfgrtMemset8),
            "!llvm.func<void (ptr, i8, i64, ptr)>");
  // int32_t sdfgrtEndCall(void)
  EXPECT_EQ(print(RuntimeEntry::sdfgrtEndCall), "!llvm.func<i32 ()>");
}

TEST(RuntimeEntriesTest, RefusedEntriesAreNoEntries) {
  for (StringRef name :
       {"mgpuStreamCreate", "mgpuStreamDestroy", "mgpuEventCreate",
        "mgpuEventSynchronize", "mgpuEventDestroy"}) {
    EXPECT_TRUE(lookupRefusedRuntimeEntry(name).has_value()) << name.str();
    EXPECT_EQ(lookupRuntimeEntry(name), std::nullopt) << name.str();
  }
  EXPECT_EQ(lookupRefusedRuntimeEntry("mgpuStreamCreate"),
            RefusedRuntimeEntry::CreatesStream);
  EXPECT_EQ(lookupRefusedRuntimeEntry("mgpuMemAlloc"), std::nullopt);
}

TEST(RuntimeEntriesTest, MayFail) {
  EXPECT_TRUE(runtimeEntryMayFail(RuntimeEntry::mgpuLaunchKernel));
  EXPECT_TRUE(runtimeEntryMayFail(RuntimeEntry::sdfgrtFlushGraphWork));
  EXPECT_FALSE(runtimeEntryMayFail(RuntimeEntry::sdfgrtEndCall));
  EXPECT_FALSE(runtimeEntryMayFail(RuntimeEntry::sdfgrtSetLocation));
}

} // namespace
