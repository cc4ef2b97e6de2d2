//===- RuntimeEntriesTest.cpp - Every listed entry is exported ------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfg-verify-stream-discipline accepts a call to a runtime entry exactly when
// RuntimeEntries.def lists it; this test proves that the shared runtime of
// this vendor build exports every one, so the lint and the runtime cannot
// drift apart.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <dlfcn.h>

namespace {

TEST(RuntimeEntriesTest, SharedRuntimeExportsEveryListedEntry) {
  void *runtime = dlopen(SDFGRT_SHARED_RUNTIME, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(runtime, nullptr) << dlerror();
  int listed = 0;
#define SDFGRT_RUNTIME_ENTRY(name, stream, mayFail, signature)                 \
  ++listed;                                                                    \
  EXPECT_NE(dlsym(runtime, #name), nullptr)                                    \
      << #name " is listed in RuntimeEntries.def but not exported by "         \
      << SDFGRT_SHARED_RUNTIME;
#include "SDFGStream/Runtime/RuntimeEntries.def"
  EXPECT_GT(listed, 30);
  dlclose(runtime);
}

} // namespace
