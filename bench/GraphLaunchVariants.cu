//===- GraphLaunchVariants.cu - What makes a graph launch slower ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// sdfg-bench-graph-variants: the launch-bound call of sdfg-bench-calls (an
// H2D copy, 8 small kernels, a D2H copy) as executable graphs made in the
// ways graph mode (lib/Runtime/GraphMode/GraphSegments.cpp) and its callers make them,
// each launched on one stream in the same process, so that a difference in
// device time can be put down to one property of the graph:
//   captured from a stream, or built node by node (unified or typed copy
//   nodes, as graph mode builds them); updated in place once (kernel nodes,
//   the same arguments), and then uploaded; updated with cudaGraphExecUpdate;
//   instantiated after 2000 others; uploaded at instantiation; two graphs
//   alternating; the ordering event graph mode waits for and records around
//   its launch.
// Rows run in 20 interleaved rounds of 100 calls, each call from an idle
// stream (host = wall time of the call; device = events around it), idle and
// with another stream busy (a 200 us spin ahead of each call). Ratios:
// device median against the hand-written eager row. No MLIR, no SDFGStream
// code: this isolates the driver's behaviour.
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "SpinFor.cuh"

#include <cstring>
#include <functional>

using namespace sdfgbench;

namespace {

constexpr size_t kElements = 4096;
float *hostIn, *hostOut, *d0, *d1;
unsigned blocks;

__global__ void axpb(const float *x, float *y, float a, float b, size_t n) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + b;
}

void eager(cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(d0, hostIn, kElements * sizeof(float),
                             cudaMemcpyDefault, stream));
  for (int k = 0; k < 8; ++k)
    axpb<<<blocks, 256, 0, stream>>>(k % 2 ? d1 : d0, k % 2 ? d0 : d1, 1.0f,
                                     1.0f, kElements);
  CUDA_CHECK(cudaMemcpyAsync(hostOut, d0, kElements * sizeof(float),
                             cudaMemcpyDefault, stream));
}

cudaGraph_t captureGraph(cudaStream_t stream) {
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  eager(stream);
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  return graph;
}

cudaGraphExec_t instantiate(cudaGraph_t graph) {
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  return exec;
}

/// The kernel arguments of the chain, kept for node building and updates.
struct ChainArguments {
  float *x[8], *y[8];
  float one = 1.0f;
  size_t n = kElements;
  void *params[8][5];
  ChainArguments() {
    for (int k = 0; k < 8; ++k) {
      x[k] = k % 2 ? d1 : d0;
      y[k] = k % 2 ? d0 : d1;
      void *p[] = {&x[k], &y[k], &one, &one, &n};
      std::copy(p, p + 5, params[k]);
    }
  }
};

/// The chain built node by node with the driver API, as graph mode builds a
/// segment: copy nodes with unified or typed memory, kernel nodes.
struct NodeBuiltGraph {
  CUgraph graph{};
  CUgraphExec exec{};
  std::vector<CUgraphNode> kernels;
  std::vector<CUDA_KERNEL_NODE_PARAMS> params;

  NodeBuiltGraph(const ChainArguments &arguments, bool unified) {
    CUcontext context;
    CU_CHECK(cuCtxGetCurrent(&context));
    CU_CHECK(cuGraphCreate(&graph, 0));
    CUgraphNode last{}, node{};
    auto copy = [&](void *dst, const void *src, bool toHost) {
      CUDA_MEMCPY3D c = {};
      if (unified) {
        c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
        c.srcDevice = reinterpret_cast<CUdeviceptr>(src);
        c.dstDevice = reinterpret_cast<CUdeviceptr>(dst);
      } else if (toHost) {
        c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
        c.srcDevice = reinterpret_cast<CUdeviceptr>(src);
        c.dstMemoryType = CU_MEMORYTYPE_HOST;
        c.dstHost = dst;
      } else {
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = src;
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = reinterpret_cast<CUdeviceptr>(dst);
      }
      c.WidthInBytes = kElements * sizeof(float);
      c.Height = c.Depth = 1;
      CU_CHECK(cuGraphAddMemcpyNode(&node, graph, last ? &last : nullptr,
                                    last ? 1 : 0, &c, context));
      last = node;
    };
    CUfunction function;
    CUDA_CHECK(cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&function),
                                   reinterpret_cast<const void *>(axpb)));
    copy(d0, hostIn, false);
    for (int k = 0; k < 8; ++k) {
      CUDA_KERNEL_NODE_PARAMS p = {};
      p.func = function;
      p.gridDimX = blocks;
      p.gridDimY = p.gridDimZ = 1;
      p.blockDimX = 256;
      p.blockDimY = p.blockDimZ = 1;
      p.kernelParams = const_cast<void **>(arguments.params[k]);
      CU_CHECK(cuGraphAddKernelNode(&node, graph, &last, 1, &p));
      last = node;
      kernels.push_back(node);
      params.push_back(p);
    }
    copy(hostOut, d0, true);
    CU_CHECK(cuGraphInstantiate(&exec, graph, 0));
  }

  /// Sets every kernel node of the executable graph to the arguments it
  /// has: what an in-place update does, with nothing changed.
  void updateInPlace() {
    for (size_t k = 0; k < kernels.size(); ++k)
      CU_CHECK(cuGraphExecKernelNodeSetParams(exec, kernels[k], &params[k]));
  }

  cudaGraphExec_t runtimeExec() const {
    return reinterpret_cast<cudaGraphExec_t>(exec);
  }
};

struct Variant {
  const char *name;
  std::function<void(cudaStream_t)> call;
  std::vector<double> host, device;
};

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(q * (values.size() - 1))];
}

} // namespace

int main() {
  setUpDevice();
  CUDA_CHECK(cudaMallocHost(&hostIn, kElements * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&hostOut, kElements * sizeof(float)));
  for (size_t i = 0; i < kElements; ++i)
    hostIn[i] = static_cast<float>(i);
  CUDA_CHECK(cudaMalloc(&d0, kElements * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d1, kElements * sizeof(float)));
  blocks = (kElements + 255) / 256;
  cudaStream_t stream, background;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&background, cudaStreamNonBlocking));
  cudaEvent_t done, before, after;
  CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreate(&before));
  CUDA_CHECK(cudaEventCreate(&after));

  ChainArguments arguments;
  cudaGraphExec_t captured1 = instantiate(captureGraph(stream));
  cudaGraphExec_t captured2 = instantiate(captureGraph(stream));
  NodeBuiltGraph unified(arguments, true), typed(arguments, false);
  NodeBuiltGraph updated(arguments, true), uploaded(arguments, true);
  updated.updateInPlace();
  uploaded.updateInPlace();
  CUDA_CHECK(cudaGraphUpload(uploaded.runtimeExec(), stream));
  cudaGraphExec_t wholeUpdate = instantiate(captureGraph(stream));
  cudaGraphExecUpdateResultInfo info;
  CUDA_CHECK(cudaGraphExecUpdate(wholeUpdate, captureGraph(stream), &info));
  for (int i = 0; i < 2000; ++i) {
    cudaGraph_t graph = captureGraph(stream);
    CUDA_CHECK(cudaGraphExecDestroy(instantiate(graph)));
    CUDA_CHECK(cudaGraphDestroy(graph));
  }
  cudaGraphExec_t late = instantiate(captureGraph(stream));
  // SDFG_BENCH_CHURN=1: 2000 node-built graphs instantiated, launched once
  // and destroyed (what graph mode 2 or changing shapes do) before the rows
  // are measured, and one built after them.
  bool churn = getenv("SDFG_BENCH_CHURN") && !strcmp(getenv("SDFG_BENCH_CHURN"), "1");
  if (churn) {
    for (int i = 0; i < 2000; ++i) {
      NodeBuiltGraph passing(arguments, true);
      CUDA_CHECK(cudaGraphLaunch(passing.runtimeExec(), stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      CU_CHECK(cuGraphExecDestroy(passing.exec));
      CU_CHECK(cuGraphDestroy(passing.graph));
    }
    printf("after 2000 node-built graphs instantiated, launched and destroyed\n");
  }
  NodeBuiltGraph afterChurn(arguments, true);
  cudaGraphExec_t uploadedAtStart = instantiate(captureGraph(stream));
  CUDA_CHECK(cudaGraphUpload(uploadedAtStart, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  bool recorded = false;
  int flip = 0;
  auto launch = [](cudaGraphExec_t exec) {
    return [exec](cudaStream_t s) { CUDA_CHECK(cudaGraphLaunch(exec, s)); };
  };
  std::vector<Variant> variants = {
      {"hand-written, eager", eager},
      {"captured #1", launch(captured1)},
      {"captured #2", launch(captured2)},
      {"node-built, unified copies", launch(unified.runtimeExec())},
      {"node-built, typed copies", launch(typed.runtimeExec())},
      {"node-built, updated in place once", launch(updated.runtimeExec())},
      {"  ... and cudaGraphUpload after", launch(uploaded.runtimeExec())},
      {"captured, cudaGraphExecUpdate", launch(wholeUpdate)},
      {"captured after 2000 others", launch(late)},
      {"node-built after those", launch(afterChurn.runtimeExec())},
      {"captured, uploaded at start", launch(uploadedAtStart)},
      {"captured #1/#2 alternating",
       [&](cudaStream_t s) {
         CUDA_CHECK(cudaGraphLaunch(++flip % 2 ? captured1 : captured2, s));
       }},
      {"node-built + event wait/record",
       [&](cudaStream_t s) {
         if (recorded)
           CUDA_CHECK(cudaStreamWaitEvent(s, done, 0));
         CUDA_CHECK(cudaGraphLaunch(unified.runtimeExec(), s));
         CUDA_CHECK(cudaEventRecord(done, s));
         recorded = true;
       }},
  };
  printf("the launch-bound chain (H2D, 8 kernels on %zu floats, D2H) as "
         "graphs made each way;\n20 rounds x 100 calls a row, each from an "
         "idle stream; device ratio: median against eager\n",
         kElements);
  for (bool busy : {false, true}) {
    for (Variant &v : variants) {
      v.host.clear();
      v.device.clear();
    }
    for (int round = 0; round < 20; ++round)
      for (Variant &v : variants)
        for (int i = 0; i < 100; ++i) {
          if (busy)
            spinFor<<<1, 32, 0, background>>>(200'000ull);
          CUDA_CHECK(cudaStreamSynchronize(stream));
          CallTime time = timeCall(stream, before, after,
                                   [&] { v.call(stream); });
          v.host.push_back(time.hostUs);
          v.device.push_back(time.deviceUs);
          if (busy)
            CUDA_CHECK(cudaStreamSynchronize(background));
        }
    printf("\n%s\n%-36s %9s %9s %9s %7s\n",
           busy ? "busy (another stream spinning)" : "idle", "graph",
           "host med", "dev p10", "dev med", "dev x");
    double eagerDevice = percentile(variants[0].device, 0.5);
    for (Variant &v : variants)
      printf("%-36s %9.1f %9.1f %9.1f %7.3f\n", v.name,
             percentile(v.host, 0.5), percentile(v.device, 0.1),
             percentile(v.device, 0.5),
             percentile(v.device, 0.5) / eagerDevice);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  for (size_t i = 0; i < kElements; ++i)
    if (hostOut[i] != hostIn[i] + 8.0f) {
      fprintf(stderr, "wrong result at %zu: %g\n", i, hostOut[i]);
      return 1;
    }
  printf("results right\n");
  return 0;
}
