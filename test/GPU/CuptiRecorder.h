//===- CuptiRecorder.h - Which stream ran each kernel, and when -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// CUPTI's activity records of the kernels, copies and memsets that a piece
// of test code enqueues: on which stream (CUPTI's stream id), when they ran
// on the GPU and, for kernels, their names. Shared by the GPU tests that
// prove where and in which order work ran.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_TEST_GPU_CUPTIRECORDER_H
#define SDFGSTREAM_TEST_GPU_CUPTIRECORDER_H

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct ActivityRecord {
  const char *kind;
  uint32_t streamId;
  /// GPU timestamps, in nanoseconds.
  uint64_t start, end;
  /// The kernel's (mangled) name; empty for copies and memsets.
  std::string name;
};

inline std::mutex &activityMutex() {
  static std::mutex mutex;
  return mutex;
}
inline std::vector<ActivityRecord> &activities() {
  static std::vector<ActivityRecord> records;
  return records;
}

inline void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size,
                                     size_t *maxNumRecords) {
  *size = 1 << 20;
  *buffer = static_cast<uint8_t *>(aligned_alloc(8, *size));
  *maxNumRecords = 0;
}

inline void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *buffer,
                                     size_t, size_t validSize) {
  CUpti_Activity *record = nullptr;
  std::lock_guard<std::mutex> lock(activityMutex());
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) ==
         CUPTI_SUCCESS) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
      auto *kernel = reinterpret_cast<CUpti_ActivityKernel10 *>(record);
      activities().push_back({"kernel", kernel->streamId, kernel->start,
                              kernel->end,
                              kernel->name ? kernel->name : ""});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      auto *copy = reinterpret_cast<CUpti_ActivityMemcpy6 *>(record);
      activities().push_back(
          {"memcpy", copy->streamId, copy->start, copy->end, ""});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      auto *memset = reinterpret_cast<CUpti_ActivityMemset4 *>(record);
      activities().push_back(
          {"memset", memset->streamId, memset->start, memset->end, ""});
      break;
    }
    default:
      break;
    }
  }
  free(buffer);
}

/// Records the kernels, copies and memsets of `body` and returns them.
template <typename Body>
std::vector<ActivityRecord> recordActivities(Body body) {
  {
    std::lock_guard<std::mutex> lock(activityMutex());
    activities().clear();
  }
  cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
  body();
  cudaDeviceSynchronize(); // The test's own sync, after the calls.
  cuptiActivityFlushAll(1);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET);
  std::lock_guard<std::mutex> lock(activityMutex());
  return activities();
}

/// CUPTI's id of `stream` in the current context.
inline uint32_t cuptiStreamId(cudaStream_t stream) {
  CUcontext context = nullptr;
  cuCtxGetCurrent(&context);
  uint32_t id = 0;
  cuptiGetStreamIdEx(context, reinterpret_cast<CUstream>(stream),
                     /*perThreadStream=*/0, &id);
  return id;
}

} // namespace

#endif // SDFGSTREAM_TEST_GPU_CUPTIRECORDER_H
