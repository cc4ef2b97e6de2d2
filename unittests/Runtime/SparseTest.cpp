//===- SparseTest.cpp - Sparse entries without their library --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Both runtime builds: the sparse library is opened at the first sparse
// operation, not before; a missing one fails each sparse operation with
// its name and the variable that overrides it, and nothing else; 2:4
// structured sparsity is refused with a text naming the entry and
// cuSPARSELt.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>

using namespace sdfgrt;

namespace {

class SparseTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv(sparseLibraryEnvironmentVariableForTesting(),
           "/nonexistent/libsparse.so", 1);
    resetForTesting();
  }
  void TearDown() override {
    unsetenv(sparseLibraryEnvironmentVariableForTesting());
    resetForTesting();
  }
};

TEST_F(SparseTest, MissingLibraryFailsEachSparseOperation) {
  int32_t offsets[2] = {0, 1}, columns[1] = {0};
  float values[1] = {1};
  sdfgrtBeginCall();
  sdfgrtSetLocation("sparse.mlir:3:8");
  EXPECT_EQ(mgpuCreateCsr(1, 1, 1, offsets, columns, values, 2, 2, 0, nullptr),
            nullptr);
  std::string error = sdfgrtGetLastError();
  EXPECT_NE(error.find("could not be loaded: /nonexistent/libsparse.so"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("at sparse.mlir:3:8"), std::string::npos) << error;
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  // Kept: the next sparse operation says the same, without a new attempt.
  sdfgrtClearError();
  EXPECT_EQ(mgpuSpGEMMCreateDescr(nullptr), nullptr);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("could not be loaded"),
            std::string::npos);
  EXPECT_EQ(countersForTesting().libraryOpens, 0);
}

TEST_F(SparseTest, StructuredSparsityIsRefusedNamingTheEntry) {
  sdfgrtBeginCall();
  sdfgrtSetLocation("sparse.mlir:9:1");
  char handle[64];
  mgpuCusparseLtCreate2To4SpMat(handle, 4, 4, nullptr, 2, nullptr);
  EXPECT_EQ(sdfgrtCallStatus(), kRuntimeFailure);
  EXPECT_EQ(std::string(sdfgrtGetLastError()),
            "mgpuCusparseLtCreate2To4SpMat: 2:4 structured sparsity "
            "(gpu.create_2to4_spmat and the gpu.spmm on it) needs "
            "cuSPARSELt, which the SDFGStream runtime does not support at "
            "sparse.mlir:9:1");
  EXPECT_EQ(sdfgrtEndCall(), kRuntimeFailure);
  mgpuCuSparseLtSpMM(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                     nullptr);
  EXPECT_NE(std::string(sdfgrtGetLastError()).find("mgpuCuSparseLtSpMM: 2:4"),
            std::string::npos);
}

} // namespace
