//===- GraphModeTests.cu - Graph mode on the GPU --------------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// GPU tests of graph mode (issue 15), with the programs of graph-mode.mlir
// compiled with `sdfg-compile --graph-mode` and, as the negative control,
// with `--graph-mode --test-omit-host-syncs` (CMakeLists.txt):
//
//   * 1000 calls of a two-segment program (a host read between them) on a
//     non-blocking stream with a spin queued ahead, inputs changing on every
//     call and the host buffers alternating between two pairs (so the
//     graphs are updated in place), right in every call; the control, whose
//     host read does not end a segment, wrong in every call; the runtime
//     built two graphs (one per segment) and never ran eagerly;
//   * host buffers from pinned and from pageable memory;
//   * a call inside the caller's own stream capture runs eagerly into the
//     caller's graph, which replays right;
//   * after each test the libraries release their programs' graphs and
//     buffers (sanitizers-sparse-and-graph-mode.test runs these under
//     memcheck's leak check).
//
//===----------------------------------------------------------------------===//

#include "CheckCuda.h"
#include "ProgramLibraries.h"
#include "SanitizerMode.h"
#include "SpinFor.cuh"

#include "SDFGStream/Runtime/HostAPI.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {
/// 1000, a tenth of it under compute-sanitizer.
const int kRuns = repetitions(1000);
constexpr int64_t kElements = 1 << 16;
constexpr unsigned long long kAheadNanoseconds = 200000; // 200 us



class GraphMode : public ::testing::Test {
protected:
  void SetUp() override {
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (float **buffer : {&in[0], &in[1], &out[0], &out[1]})
      CHECK_CUDA(cudaMallocHost(buffer, kElements * sizeof(float)));
    for (sdfgstream::Library *library : {&graphs, &noSyncs})
      library->setExternalGpuStream(stream);
  }
  void TearDown() override {
    // The programs' graphs and transient buffers go back (freed on the
    // stream), as a user would release them; memcheck's leak check then
    // finds nothing left.
    for (sdfgstream::Library *library : {&graphs, &noSyncs})
      EXPECT_EQ(library->tryReleaseGraphs(), 0) << library->lastError();
    cudaStreamSynchronize(stream);
    for (float *buffer : {in[0], in[1], out[0], out[1]})
      cudaFreeHost(buffer);
    cudaStreamDestroy(stream);
  }

  /// One call of @two_segments on buffer pair `pair` with inputs made from
  /// `run`, a spin queued ahead; right if out = (2 in + 1) (2 in[0] + 1).
  bool twoSegmentsOnce(sdfgstream::Library &library, float *input,
                       float *output, int run) {
    for (int64_t i = 0; i < kElements; ++i)
      input[i] = float((run * 7 + i) % 13);
    std::fill(output, output + kElements, -1.0f);
    spinFor<<<1, 1, 0, stream>>>(kAheadNanoseconds);
    Memref1D vin = view(input, kElements), vout = view(output, kElements);
    int32_t status =
        library.tryCall("two_segments", &vin, &vout, int64_t(kElements));
    if (status != 0 || cudaStreamSynchronize(stream) != cudaSuccess)
      return false;
    float scale = 2 * input[0] + 1;
    for (int64_t i = 0; i < kElements; ++i)
      if (output[i] != (2 * input[i] + 1) * scale)
        return false;
    return true;
  }

  int countWrong(sdfgstream::Library &library) {
    int wrong = 0;
    for (int run = 0; run < kRuns; ++run)
      wrong += !twoSegmentsOnce(library, in[run % 2], out[run % 2], run);
    return wrong;
  }

  cudaStream_t stream = nullptr;
  float *in[2] = {}, *out[2] = {};
  sdfgstream::Library graphs{nextToSelf("libsdfg-gpu-test-graph-mode.so")};
  sdfgstream::Library noSyncs{
      nextToSelf("libsdfg-gpu-test-graph-mode-no-syncs.so")};
};

TEST_F(GraphMode, TwoSegmentsRightIn1000Calls) {
  sdfgrtGraphStats before = graphs.graphStats();
  int compiled = countWrong(graphs);
  sdfgrtGraphStats after = graphs.graphStats();
  int withheld = countWrong(noSyncs);
  printf("RESULT graph mode, two segments around a host read: %d runs: %d "
         "wrong as compiled, %d wrong with the host sync withheld; %lld "
         "graphs built, %lld launches after in-place updates (%lld nodes), "
         "%lld replays as built, %lld eager calls\n",
         kRuns, compiled, withheld,
         static_cast<long long>(after.builds - before.builds),
         static_cast<long long>(after.updates - before.updates),
         static_cast<long long>(after.nodesUpdated - before.nodesUpdated),
         static_cast<long long>(after.replays - before.replays),
         static_cast<long long>(after.eagerCalls - before.eagerCalls));
  EXPECT_EQ(compiled, 0);
  expectControlSawTheHazard(withheld);
  // One graph per segment, built once: the buffers alternate, so later
  // calls update nodes in place (the scalar of the second segment changes
  // with the inputs too).
  EXPECT_EQ(after.builds - before.builds, 2);
  EXPECT_EQ(after.eagerCalls - before.eagerCalls, 0);
  EXPECT_EQ(after.updates + after.replays - before.updates - before.replays,
            2 * kRuns - 2);
  EXPECT_GT(after.updates - before.updates, 0);
}

TEST_F(GraphMode, PageableHostMemory) {
  std::vector<float> pageableIn(kElements), pageableOut(kElements);
  int wrong = 0;
  for (int run = 0; run < 100; ++run)
    wrong += !twoSegmentsOnce(graphs, pageableIn.data(), pageableOut.data(),
                              run);
  printf("RESULT graph mode with pageable host buffers: 100 runs, %d wrong; "
         "last error: \"%s\"\n",
         wrong, graphs.lastError().c_str());
  EXPECT_EQ(wrong, 0);
}

TEST_F(GraphMode, InsideTheCallersCaptureRunsEagerly) {
  Memref1D vin = view(in[0], kElements), vout = view(out[0], kElements);
  // A first call outside the capture (module loads).
  ASSERT_EQ(graphs.tryCall("one_segment", &vin, &vout, int64_t(kElements)), 0);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  sdfgrtGraphStats before = graphs.graphStats();
  cudaGraph_t graph = nullptr;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  int32_t status =
      graphs.tryCall("one_segment", &vin, &vout, int64_t(kElements));
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  ASSERT_EQ(status, 0) << graphs.lastError();
  sdfgrtGraphStats after = graphs.graphStats();
  EXPECT_EQ(after.eagerCalls - before.eagerCalls, 1);
  EXPECT_EQ(after.builds, before.builds);
  cudaGraphExec_t exec = nullptr;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  int wrong = 0;
  for (int replay = 0; replay < 5; ++replay) {
    for (int64_t i = 0; i < kElements; ++i)
      in[0][i] = float(replay + i % 5);
    std::fill(out[0], out[0] + kElements, -1.0f);
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    for (int64_t i = 0; i < kElements; ++i)
      if (out[0][i] != 3 * in[0][i] + 1) {
        ++wrong;
        break;
      }
  }
  printf("RESULT graph mode inside the caller's capture: eager into the "
         "caller's graph, 5 replays, %d wrong\n",
         wrong);
  EXPECT_EQ(wrong, 0);
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
}

} // namespace
