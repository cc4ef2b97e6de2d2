//===- CheckCuda.h - CUDA runtime calls in the GPU tests ---------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The GPU tests' one way of calling the CUDA runtime: a failed call fails
// the test (gtest ASSERT, so the test function returns) with the call's text
// and CUDA's error string.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TEST_GPU_CHECKCUDA_H
#define SDFGSTREAM_TEST_GPU_CHECKCUDA_H

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t error_ = (call);                                               \
    ASSERT_EQ(error_, cudaSuccess)                                             \
        << #call << ": " << cudaGetErrorString(error_);                        \
  } while (0)

#endif // SDFGSTREAM_TEST_GPU_CHECKCUDA_H
