//===- FakeDriverTest.h - Fixtures of the fake driver tests -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What every test of the CUDA runtime against FakeCudaDriver.cpp starts
// from: the runtime pointed at the fake driver, and both of them having
// done nothing yet (resetForTesting, fakecuda::reset), again after the
// test. TwoContextTest adds two contexts of the fake, with a stream in
// each, for tests of which context work runs in.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_UNITTESTS_RUNTIME_FAKEDRIVERTEST_H
#define SDFGSTREAM_UNITTESTS_RUNTIME_FAKEDRIVERTEST_H

#include "FakeCudaDriver.h"
#include "Core/RuntimeInternal.h"

#include "gtest/gtest.h"

#include <cstdlib>

class FakeDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv(sdfgrt::libraryEnvironmentVariableForTesting(),
           SDFGRT_FAKE_CUDA_LIBRARY, 1);
    sdfgrt::resetForTesting();
    fakecuda::reset();
  }

  void TearDown() override {
    unsetenv(sdfgrt::libraryEnvironmentVariableForTesting());
    sdfgrt::resetForTesting();
    fakecuda::reset();
  }
};

class TwoContextTest : public FakeDriverTest {
protected:
  void SetUp() override {
    FakeDriverTest::SetUp();
    contextA = fakecuda::context(1);
    contextB = fakecuda::context(2);
    streamA = fakecuda::createStream(contextA);
    streamB = fakecuda::createStream(contextB);
  }

  CUcontext contextA, contextB;
  CUstream streamA, streamB;
};

#endif // SDFGSTREAM_UNITTESTS_RUNTIME_FAKEDRIVERTEST_H
