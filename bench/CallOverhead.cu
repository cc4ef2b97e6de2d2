//===- CallOverhead.cu - Call overhead of one program, six ways -----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Runs bench/chain.mlir (one H2D copy, 8 elementwise kernels, one D2H copy)
// as a launch-bound (4096 floats) and a bandwidth-bound (64 MiB arrays)
// program, each call made in one of these ways:
//
//   hand-written    CUDA driver calls launching the same kernel binary that
//                   SDFGStream embedded (the floor), async and + stream sync;
//                   also + cuCtxSynchronize (device-wide), for the contention
//                   case only;
//   SDFGStream      the program compiled by sdfg-compile, async and
//                   --sync-call, on the benchmark's stream;
//   upstream        the same MLIR lowered by upstream MLIR 22 alone, plain
//                   gpu-to-llvm and gpu-async-region + gpu-to-llvm, calling
//                   bench/UpstreamRuntime.cpp (streams of its own);
//   graphs          a CUDA graph captured from one SDFGStream call, and one
//                   captured from the hand-written calls, replayed.
//
// Every row is measured idle and again while an unrelated 20 ms kernel runs
// on another stream. Each sample is one call from an idle stream: host time
// around the call, device time between events recorded on the stream just
// before and after it; then the stream is drained. Rows are interleaved in
// rounds so that clock drift hits them alike, and all ratios are taken
// within this one process.
//
// After the measured rows, the async calls (hand-written and SDFGStream) of
// each program are profiled by their CUDA driver calls (DriverCallProfile.h:
// CUPTI callbacks, --profile-calls N calls each, 0 for none).
//
// Output: a table on stdout, OUT/summary.csv (one line a row),
// OUT/samples.csv (one line a sample), OUT/targets.csv and
// OUT/driver-calls.csv (the profile); exit status 0 unless a row failed
// (wrong result or a CUDA error) or the profile did.
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "SpinFor.cuh"
#include "DriverCallProfile.h"

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

//===----------------------------------------------------------------------===//
// The compiled program, four ways (bench/CMakeLists.txt renames the symbols)
//===----------------------------------------------------------------------===//

// Rank-1 memrefs are passed expanded: allocated, aligned, offset, size,
// stride.
#define MEMREF_PARAMS(p) float *p##Allocated, float *p##Aligned, \
  int64_t p##Offset, int64_t p##Size, int64_t p##Stride
#define CHAIN_PARAMS MEMREF_PARAMS(in), MEMREF_PARAMS(out), MEMREF_PARAMS(d0), \
  MEMREF_PARAMS(d1), int64_t n

extern "C" {
void sdfg_chain_async(CHAIN_PARAMS, void *stream);
void sdfg_chain_sync(CHAIN_PARAMS, void *stream);
void sdfg_chain_graph(CHAIN_PARAMS, void *stream);
void upstream_chain_plain(CHAIN_PARAMS);
void upstream_chain_region(CHAIN_PARAMS);
// The kernel fatbin embedded in the SDFGStream object (chain_kernels_binary).
extern const unsigned char bench_chain_fatbin[];
}

namespace {

using namespace sdfgbench;

[[noreturn]] void die(const char *what) {
  fprintf(stderr, "sdfg-bench-calls: %s\n", what);
  exit(2);
}

//===----------------------------------------------------------------------===//
// State of one program size
//===----------------------------------------------------------------------===//

struct Program {
  const char *name;
  int64_t n;
  float *hostIn = nullptr, *hostOut = nullptr; // pinned
  float *d0 = nullptr, *d1 = nullptr;
  // Hand-written launches: the same kernel, argument blocks for d0->d1 and
  // d1->d0 laid out as the MLIR lowering passes them (13 parameters).
  struct KernelArgs {
    float *xAllocated, *xAligned;
    int64_t xOffset, xSize, xStride;
    float *yAllocated, *yAligned;
    int64_t yOffset, ySize, yStride;
    float a, b;
    int64_t n;
    void *params[13];
  } forward, backward;
  unsigned blocks = 0;
};

CUfunction handKernel;
Program *current; // the program the call functions below run
cudaGraphExec_t handGraph, sdfgGraph;

void setUpArgs(Program::KernelArgs &args, float *x, float *y, int64_t n) {
  args = {x, x, 0, n, 1, y, y, 0, n, 1, 1.0f, 1.0f, n, {}};
  void *fields[13] = {&args.xAllocated, &args.xAligned, &args.xOffset,
                      &args.xSize,      &args.xStride,  &args.yAllocated,
                      &args.yAligned,   &args.yOffset,  &args.ySize,
                      &args.yStride,    &args.a,        &args.b,
                      &args.n};
  std::copy(fields, fields + 13, args.params);
}

//===----------------------------------------------------------------------===//
// The calls
//===----------------------------------------------------------------------===//

void handAsync(cudaStream_t stream) {
  Program &p = *current;
  CUstream s = reinterpret_cast<CUstream>(stream);
  size_t bytes = p.n * sizeof(float);
  CU_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(p.d0),
                         reinterpret_cast<CUdeviceptr>(p.hostIn), bytes, s));
  for (int k = 0; k < 8; ++k)
    CU_CHECK(cuLaunchKernel(handKernel, p.blocks, 1, 1, 256, 1, 1, 0, s,
                            k % 2 ? p.backward.params : p.forward.params,
                            nullptr));
  CU_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(p.hostOut),
                         reinterpret_cast<CUdeviceptr>(p.d0), bytes, s));
}

void handSync(cudaStream_t stream) {
  handAsync(stream);
  CU_CHECK(cuStreamSynchronize(reinterpret_cast<CUstream>(stream)));
}

void handDeviceSync(cudaStream_t stream) {
  handAsync(stream);
  CU_CHECK(cuCtxSynchronize());
}

#define CHAIN_ARGS(p)                                                          \
  p.hostIn, p.hostIn, 0, p.n, 1, p.hostOut, p.hostOut, 0, p.n, 1, p.d0, p.d0,  \
      0, p.n, 1, p.d1, p.d1, 0, p.n, 1, p.n

void sdfgAsync(cudaStream_t stream) {
  sdfg_chain_async(CHAIN_ARGS((*current)), stream);
}

void sdfgSync(cudaStream_t stream) {
  sdfg_chain_sync(CHAIN_ARGS((*current)), stream);
}

// Graph mode (issue 15): the program compiled with --graph-mode. Its first
// call builds the graph (in the row's warm-up); `swapped` passes the two
// device buffers the other way round on every other call, so that every
// node's arguments change from one call to the next (the result is the
// same: in + 8 comes back either way).
void sdfgGraphMode(cudaStream_t stream) {
  sdfg_chain_graph(CHAIN_ARGS((*current)), stream);
}

void sdfgGraphModeSwapped(cudaStream_t stream) {
  static bool swap = false;
  Program p = *current;
  if ((swap = !swap))
    std::swap(p.d0, p.d1);
  sdfg_chain_graph(CHAIN_ARGS(p), stream);
}

/// Graph mode 2 (sdfgrtSetGraphMode): changed arguments build the segment's
/// graph again instead of updating its nodes; the graph-mode rows compare
/// both ways.
void sdfgGraphModeSwappedRebuild(cudaStream_t stream) {
  sdfgrtSetGraphMode(nullptr, 2);
  sdfgGraphModeSwapped(stream);
  sdfgrtSetGraphMode(nullptr, 1);
}

void upstreamPlain(cudaStream_t) { upstream_chain_plain(CHAIN_ARGS((*current))); }

void upstreamRegion(cudaStream_t) {
  upstream_chain_region(CHAIN_ARGS((*current)));
}

void handGraphReplay(cudaStream_t stream) {
  CUDA_CHECK(cudaGraphLaunch(handGraph, stream));
}

void sdfgGraphReplay(cudaStream_t stream) {
  CUDA_CHECK(cudaGraphLaunch(sdfgGraph, stream));
}

/// Prints what a captured graph holds, by node type and memcpy kind, so
/// that two graphs of "the same work" can be compared.
void describeGraph(const char *name, cudaGraph_t graph) {
  size_t count = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
  size_t edges = 0;
  CUDA_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  int kernels = 0, memsets = 0, other = 0;
  std::string copies;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    CUDA_CHECK(cudaGraphNodeGetType(node, &type));
    if (type == cudaGraphNodeTypeKernel) {
      if (kernels++ == 0) {
        // Driver-API kernels (both graphs launch CUfunctions).
        CUDA_KERNEL_NODE_PARAMS params = {};
        CU_CHECK(cuGraphKernelNodeGetParams(
            reinterpret_cast<CUgraphNode>(node), &params));
        int regs = 0, local = 0, maxDynamicShared = 0, preferredCarveout = 0;
        CU_CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                    params.func));
        CU_CHECK(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                                    params.func));
        CU_CHECK(cuFuncGetAttribute(
            &maxDynamicShared, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            params.func));
        CU_CHECK(cuFuncGetAttribute(
            &preferredCarveout,
            CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, params.func));
        printf("graph %s: first kernel grid (%u,%u,%u) block (%u,%u,%u) "
               "smem %u, %d regs, local %d B, max dynamic smem %d, carveout "
               "%d, kernel %p\n",
               name, params.gridDimX, params.gridDimY, params.gridDimZ,
               params.blockDimX, params.blockDimY, params.blockDimZ,
               params.sharedMemBytes, regs, local, maxDynamicShared,
               preferredCarveout, static_cast<void *>(params.func));
      }
    } else if (type == cudaGraphNodeTypeMemset) {
      ++memsets;
    } else if (type == cudaGraphNodeTypeMemcpy) {
      cudaMemcpy3DParms params = {};
      CUDA_CHECK(cudaGraphMemcpyNodeGetParams(node, &params));
      copies += " memcpy(kind " + std::to_string(int(params.kind)) + ")";
    } else {
      ++other;
      copies += " type" + std::to_string(int(type));
    }
  }
  printf("graph %s: %zu nodes, %zu edges: %d kernels, %d memsets,%s\n", name,
         count, edges, kernels, memsets, copies.c_str());
}

/// Captures one call on `stream` into an executable graph.
bool capture(const char *name, void (*call)(cudaStream_t),
             cudaStream_t stream, cudaGraphExec_t &exec) {
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  call(stream);
  cudaError_t error = cudaStreamEndCapture(stream, &graph);
  if (error != cudaSuccess || sdfgrtGetLastErrorCode() != 0) {
    fprintf(stderr, "capture failed: %s %s\n", cudaGetErrorString(error),
            sdfgrtGetLastError());
    return false;
  }
  describeGraph(name, graph);
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_CHECK(cudaGraphDestroy(graph));
  // SDFG_BENCH_UPLOAD=1: upload the graph right away instead of at its
  // first launch (A/B check).
  if (const char *upload = getenv("SDFG_BENCH_UPLOAD");
      upload && !strcmp(upload, "1")) {
    CUDA_CHECK(cudaGraphUpload(exec, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Rows, samples, statistics
//===----------------------------------------------------------------------===//

struct Row {
  const char *id;      // short name (CSV, plot)
  const char *label;   // table
  const char *baseline; // id of the row it is compared with ("" none)
  void (*call)(cudaStream_t);
  bool idle, busy;     // which scenarios run it
  bool deviceWideSync; // waits for the unrelated kernel: few calls
};

const Row kRows[] = {
    {"hand-async", "hand-written, async (enqueue only)", "", handAsync, true,
     true, false},
    {"sdfg-async", "SDFGStream async call (enqueue only)", "hand-async",
     sdfgAsync, true, true, false},
    {"hand-sync", "hand-written + stream sync", "", handSync, true, true,
     false},
    {"sdfg-sync", "SDFGStream sync call", "hand-sync", sdfgSync, true, true,
     false},
    {"upstream-plain", "upstream gpu-to-llvm (sync ops)", "sdfg-sync",
     upstreamPlain, true, true, false},
    {"upstream-region", "upstream gpu-async-region + gpu-to-llvm",
     "sdfg-sync", upstreamRegion, true, true, false},
    {"hand-graph", "graph of hand-written calls, replay", "", handGraphReplay,
     true, true, false},
    {"sdfg-graph", "graph captured from SDFGStream call, replay",
     "hand-graph", sdfgGraphReplay, true, true, false},
    {"hand-device-sync", "hand-written + device-wide sync", "hand-sync",
     handDeviceSync, true, true, true},
    {"sdfg-graph-mode", "SDFGStream graph mode call", "hand-async",
     sdfgGraphMode, true, true, false},
    {"sdfg-graph-mode-swapped", "graph mode, buffers change every call",
     "sdfg-async", sdfgGraphModeSwapped, true, false, false},
    {"sdfg-graph-mode-rebuild", "graph mode, buffers change, rebuild",
     "sdfg-async", sdfgGraphModeSwappedRebuild, true, false, false},
};

struct Options {
  std::string out = "bench-out";
  double scale = 1.0; // multiplies every call count
  bool launch = true, bandwidth = true;
  int profileCalls = 200; // driver-call profile of each async call; 0: none
};

//===----------------------------------------------------------------------===//
// The unrelated work
//===----------------------------------------------------------------------===//

cudaStream_t background;
Clock::time_point lastBackgroundLaunch;

/// Keeps `background` busy: another 20 ms spin is queued behind the running
/// one whenever the last was queued more than 10 ms ago, so the stream never
/// runs dry while calls are measured.
void keepBackgroundBusy() {
  Clock::time_point now = Clock::now();
  if (cudaStreamQuery(background) == cudaSuccess ||
      now - lastBackgroundLaunch > std::chrono::milliseconds(10)) {
    spinFor<<<1, 32, 0, background>>>(20'000'000ull);
    CUDA_CHECK(cudaGetLastError());
    lastBackgroundLaunch = now;
  }
}

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

struct Bench {
  cudaStream_t stream;
  cudaEvent_t before, after;
};

/// One call from an idle stream; appends its host and device time.
void measureOnce(Bench &bench, const Row &row, bool busy, Samples *samples) {
  if (busy)
    keepBackgroundBusy();
  CallTime time = timeCall(bench.stream, bench.before, bench.after,
                           [&] { row.call(bench.stream); });
  if (samples)
    samples->add(time);
}

/// Runs one call into zeroed output and checks out = in + 8.
bool validate(Bench &bench, const Row &row, Program &p) {
  memset(p.hostOut, 0, p.n * sizeof(float));
  sdfgrtClearError();
  measureOnce(bench, row, false, nullptr);
  CUDA_CHECK(cudaStreamSynchronize(bench.stream));
  if (sdfgrtGetLastErrorCode() != 0) {
    fprintf(stderr, "%s/%s: runtime error: %s\n", p.name, row.id,
            sdfgrtGetLastError());
    return false;
  }
  for (int64_t i = 0; i < p.n; i += std::max<int64_t>(1, p.n / 4096)) {
    if (p.hostOut[i] != p.hostIn[i] + 8.0f) {
      fprintf(stderr, "%s/%s: wrong result at %lld: %g, expected %g\n",
              p.name, row.id, static_cast<long long>(i), p.hostOut[i],
              p.hostIn[i] + 8.0f);
      return false;
    }
  }
  return true;
}

struct Result {
  const Row *row;
  bool busy;
  bool ok;
  Samples samples;
  Stats host, device;
};

std::vector<Result> runProgram(Bench &bench, Program &p, int calls,
                               int deviceSyncCalls, int rounds,
                               const Options &) {
  current = &p;
  // Graphs of this program's calls (captured after a warm-up, so that the
  // SDFGStream runtime has loaded the kernels).
  for (int i = 0; i < 3; ++i) {
    measureOnce(bench, kRows[0], false, nullptr);
    measureOnce(bench, kRows[1], false, nullptr);
  }
  // SDFG_BENCH_DUMMY_GRAPH=1: instantiate and launch an unrelated graph (one
  // kernel) before the measured ones, so that neither is the first graph of
  // the process (A/B check of the capture order).
  if (const char *dummy = getenv("SDFG_BENCH_DUMMY_GRAPH");
      dummy && !strcmp(dummy, "1")) {
    cudaGraphExec_t dummyGraph;
    capture("dummy",
            [](cudaStream_t stream) { spinFor<<<1, 32, 0, stream>>>(0); },
            bench.stream, dummyGraph);
    CUDA_CHECK(cudaGraphLaunch(dummyGraph, bench.stream));
    CUDA_CHECK(cudaStreamSynchronize(bench.stream));
  }
  // SDFG_BENCH_CAPTURE_SDFG_FIRST=1: capture and instantiate the SDFGStream
  // graph first (the graph captured second replays slower on an idle GPU:
  // bench/run.sh runs the launch-bound program again in this order, and
  // bench/graph_orders.py sets the two runs' graph rows side by side).
  const char *sdfgFirstEnv = getenv("SDFG_BENCH_CAPTURE_SDFG_FIRST");
  bool sdfgFirst = sdfgFirstEnv && !strcmp(sdfgFirstEnv, "1");
  bool sdfgCaptured = false;
  if (sdfgFirst)
    sdfgCaptured = capture("SDFGStream", sdfgAsync, bench.stream, sdfgGraph);
  bool handCaptured = capture("hand-written", handAsync, bench.stream,
                              handGraph);
  if (!sdfgFirst)
    sdfgCaptured = capture("SDFGStream", sdfgAsync, bench.stream, sdfgGraph);
  // A/B check of the graph rows: SDFG_BENCH_SWAP_GRAPHS=1 replays each
  // graph in the other's row, to tell a difference between the graphs from
  // one between the rows' places in a round.
  if (const char *swap = getenv("SDFG_BENCH_SWAP_GRAPHS");
      swap && !strcmp(swap, "1")) {
    std::swap(handGraph, sdfgGraph);
    std::swap(handCaptured, sdfgCaptured);
    printf("graphs swapped: the hand-graph row replays the SDFGStream graph "
           "and the sdfg-graph row the hand-written one\n");
  }

  // SDFG_BENCH_SKIP_ROWS=id,id,...: leave these rows out;
  // SDFG_BENCH_ONLY_ROWS=id,id,...: run only these. One row's work can change
  // another's times in the same process: the upstream rows create and
  // destroy a stream per operation, after which every graph launch takes
  // ~7 us more device time on an idle GPU, so bench/run.sh runs them in a
  // process of their own (docs/benchmarks.md, "Graph mode on the H200").
  auto rowList = [](const char *variable) {
    const char *value = getenv(variable);
    return std::string(",") + (value ? value : "") + ",";
  };
  std::string skipList = rowList("SDFG_BENCH_SKIP_ROWS");
  std::string onlyList = rowList("SDFG_BENCH_ONLY_ROWS");
  auto listed = [](const std::string &list, const Row &row) {
    return list.find(std::string(",") + row.id + ",") != std::string::npos;
  };
  auto skipped = [&](const Row &row) {
    return listed(skipList, row) ||
           (onlyList != ",," && !listed(onlyList, row));
  };
  std::vector<Result> results;
  for (bool busy : {false, true})
    for (const Row &row : kRows)
      if ((busy ? row.busy : row.idle) && !skipped(row)) {
        bool ok = true;
        if (row.call == handGraphReplay)
          ok = handCaptured;
        if (row.call == sdfgGraphReplay)
          ok = sdfgCaptured;
        if (ok) {
          for (int i = 0; i < 5; ++i)
            measureOnce(bench, row, false, nullptr);
          ok = validate(bench, row, p);
        }
        results.push_back({&row, busy, ok, {}, {}, {}});
      }

  // Interleaved rounds; each block starts with two unrecorded calls.
  for (bool busy : {false, true}) {
    if (busy) {
      lastBackgroundLaunch = Clock::now();
      keepBackgroundBusy();
    }
    for (int round = 0; round < rounds; ++round)
      for (Result &result : results) {
        if (result.busy != busy || !result.ok)
          continue;
        int total = result.row->deviceWideSync && busy ? deviceSyncCalls
                                                       : calls;
        int block = (total + rounds - 1) / rounds;
        int done = static_cast<int>(result.samples.host.size());
        block = std::min(block, total - done);
        if (block <= 0)
          continue;
        for (int i = 0; i < 2; ++i)
          measureOnce(bench, *result.row, busy, nullptr);
        for (int i = 0; i < block; ++i)
          measureOnce(bench, *result.row, busy, &result.samples);
      }
    CUDA_CHECK(cudaStreamSynchronize(background));
  }
  for (Result &result : results) {
    result.host = stats(result.samples.host);
    result.device = stats(result.samples.device);
  }
  CUDA_CHECK(cudaGraphExecDestroy(handGraph));
  CUDA_CHECK(cudaGraphExecDestroy(sdfgGraph));
  return results;
}

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

const Result *find(const std::vector<Result> &results, const char *id,
                   bool busy) {
  for (const Result &r : results)
    if (r.busy == busy && strcmp(r.row->id, id) == 0 && r.ok)
      return &r;
  return nullptr;
}

void report(const char *program, const std::vector<Result> &results,
            FILE *summary, FILE *sampleFile, std::vector<Target> &targets) {
  printf("\n%s\n", program);
  printTableHeader(44);
  for (const Result &r : results) {
    const Result *base = r.ok && r.row->baseline[0]
                             ? find(results, r.row->baseline, r.busy)
                             : nullptr;
    reportRow({program, r.row->id, r.row->label, r.busy ? "busy" : "idle",
               r.row->baseline, r.ok ? &r.samples : nullptr, r.host,
               r.device, base ? r.host.median / base->host.median : NAN,
               base ? r.device.median / base->device.median : NAN},
              44, summary, sampleFile);
  }

  auto median = [&](const char *id, bool busy, bool device = false) {
    const Result *r = find(results, id, busy);
    return r ? (device ? r->device.median : r->host.median) : NAN;
  };
  std::string p = program;
  for (const char *kind : {"async", "sync"}) {
    std::string sdfg = std::string("sdfg-") + kind;
    std::string hand = std::string("hand-") + kind;
    targets.push_back({p + ": SDFGStream " + kind +
                           " call / hand-written (host, idle)",
                       median(sdfg.c_str(), false) / median(hand.c_str(), false),
                       1.05, true});
    targets.push_back(
        {p + ": SDFGStream " + kind + " call / hand-written (device, idle)",
         median(sdfg.c_str(), false, true) / median(hand.c_str(), false, true),
         1.05, true});
  }
  if (p == "launch-bound") {
    targets.push_back({p + ": upstream gpu-to-llvm / SDFGStream sync call",
                       median("upstream-plain", false) /
                           median("sdfg-sync", false),
                       4.0, false});
    targets.push_back({p + ": upstream gpu-async-region / SDFGStream sync call",
                       median("upstream-region", false) /
                           median("sdfg-sync", false),
                       1.2, false});
  }
  targets.push_back({p + ": SDFGStream graph replay / hand-captured (host)",
                     median("sdfg-graph", false) / median("hand-graph", false),
                     1.05, true});
  targets.push_back(
      {p + ": SDFGStream graph replay / hand-captured (device)",
       median("sdfg-graph", false, true) / median("hand-graph", false, true),
       1.05, true});
  // Graph mode (issue 15), against the eager rows of the same run.
  if (p == "launch-bound") {
    targets.push_back({p + ": graph mode / hand-written async (host, idle)",
                       median("sdfg-graph-mode", false) /
                           median("hand-async", false),
                       0.3, true});
    targets.push_back({p + ": graph mode / hand-written async (device, idle)",
                       median("sdfg-graph-mode", false, true) /
                           median("hand-async", false, true),
                       0.7, true});
  } else {
    targets.push_back({p + ": graph mode / SDFGStream async (device, idle)",
                       median("sdfg-graph-mode", false, true) /
                           median("sdfg-async", false, true),
                       1.02, true});
  }
  targets.push_back({p + ": graph mode, buffers changing / SDFGStream async "
                         "(host, idle)",
                     median("sdfg-graph-mode-swapped", false) /
                         median("sdfg-async", false),
                     1.1, true});
  targets.push_back({p + ": graph mode, buffers changing / SDFGStream async "
                         "(device, idle)",
                     median("sdfg-graph-mode-swapped", false, true) /
                         median("sdfg-async", false, true),
                     1.1, true});
  sdfgrtGraphStats graphs{};
  sdfgrtGetGraphStats(&graphs);
  printf("graph mode so far: %lld graphs built, %lld launches after in-place "
         "updates (%lld nodes), %lld replays as built, %lld eager calls, "
         "%lld B of transient buffers kept\n",
         static_cast<long long>(graphs.builds),
         static_cast<long long>(graphs.updates),
         static_cast<long long>(graphs.nodesUpdated),
         static_cast<long long>(graphs.replays),
         static_cast<long long>(graphs.eagerCalls),
         static_cast<long long>(graphs.bufferBytes));
  targets.push_back({p + ": SDFGStream sync call, busy / idle",
                     median("sdfg-sync", true) / median("sdfg-sync", false),
                     2.0, true});
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc)
      options.out = argv[++i];
    else if (arg == "--scale" && i + 1 < argc)
      options.scale = atof(argv[++i]);
    else if (arg == "--profile-calls" && i + 1 < argc)
      options.profileCalls = atoi(argv[++i]);
    else if (arg == "--only" && i + 1 < argc) {
      std::string which = argv[++i];
      options.launch = which == "launch-bound";
      options.bandwidth = which == "bandwidth-bound";
    } else {
      fprintf(stderr,
              "usage: %s [--out DIR] [--scale F] "
              "[--only launch-bound|bandwidth-bound] [--profile-calls N]\n",
              argv[0]);
      exit(2);
    }
  }
  if (!(options.scale > 0))
    die("--scale must be positive");
  if (options.profileCalls < 0)
    die("--profile-calls must be 0 (no profile) or more");
  return options;
}

void setUpProgram(Program &p) {
  size_t bytes = p.n * sizeof(float);
  CUDA_CHECK(cudaMallocHost(&p.hostIn, bytes));
  CUDA_CHECK(cudaMallocHost(&p.hostOut, bytes));
  CUDA_CHECK(cudaMalloc(&p.d0, bytes));
  CUDA_CHECK(cudaMalloc(&p.d1, bytes));
  for (int64_t i = 0; i < p.n; ++i)
    p.hostIn[i] = static_cast<float>(i % 1000);
  setUpArgs(p.forward, p.d0, p.d1, p.n);
  setUpArgs(p.backward, p.d1, p.d0, p.n);
  p.blocks = static_cast<unsigned>((p.n + 255) / 256);
}

void tearDownProgram(Program &p) {
  CUDA_CHECK(cudaFreeHost(p.hostIn));
  CUDA_CHECK(cudaFreeHost(p.hostOut));
  CUDA_CHECK(cudaFree(p.d0));
  CUDA_CHECK(cudaFree(p.d1));
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  setUpDevice();

  CUmodule module;
  CU_CHECK(cuModuleLoadData(&module, bench_chain_fatbin));
  CU_CHECK(cuModuleGetFunction(&handKernel, module, "axpb"));

  Bench bench;
  CUDA_CHECK(cudaStreamCreateWithFlags(&bench.stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&background, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreate(&bench.before));
  CUDA_CHECK(cudaEventCreate(&bench.after));

  std::string summaryPath = options.out + "/summary.csv";
  std::string samplesPath = options.out + "/samples.csv";
  FILE *summary = fopen(summaryPath.c_str(), "w");
  FILE *samples = fopen(samplesPath.c_str(), "w");
  if (!summary || !samples)
    die(("cannot write to " + options.out + " (does it exist?)").c_str());
  fputs(kSummaryHeader, summary);
  fputs(kSamplesHeader, samples);

  printf("rows: one call from an idle stream per sample; host = wall time of "
         "the call,\ndevice = events on the benchmark stream around it; "
         "busy = a 20 ms kernel\nruns on another stream; ratios: median "
         "against the row named in 'vs'.\n");

  auto count = [&](int calls) {
    return std::max(1, static_cast<int>(std::lround(calls * options.scale)));
  };
  std::vector<Target> targets;
  bool allOk = true;
  struct Size {
    const char *name;
    int64_t n;
    int calls, deviceSyncCalls, rounds;
    bool enabled;
  } sizes[] = {
      {"launch-bound", 4096, 2000, 25, 20, options.launch},
      {"bandwidth-bound", 16 << 20, 200, 10, 10, options.bandwidth},
  };
  for (const Size &size : sizes) {
    if (!size.enabled)
      continue;
    Program program;
    program.name = size.name;
    program.n = size.n;
    setUpProgram(program);
    Clock::time_point start = Clock::now();
    std::vector<Result> results =
        runProgram(bench, program, count(size.calls),
                   count(size.deviceSyncCalls), size.rounds, options);
    report(size.name, results, summary, samples, targets);
    printf("(%s: %.1f s)\n", size.name,
           std::chrono::duration<double>(Clock::now() - start).count());
    for (const Result &r : results)
      allOk &= r.ok;
    tearDownProgram(program);
  }

  // Where the host time of the async calls goes (issue 14): their driver
  // calls, profiled with CUPTI after every measured row, so that its
  // callbacks slow none of them down.
  if (options.profileCalls > 0) {
    DriverCallProfiler profiler;
    allOk &= profiler.ok();
    for (const Size &size : sizes) {
      if (!size.enabled || !profiler.ok())
        continue;
      Program program;
      program.name = size.name;
      program.n = size.n;
      setUpProgram(program);
      current = &program;
      for (const Row &row : kRows)
        if (row.call == handAsync || row.call == sdfgAsync)
          allOk &= profiler.profile(size.name, row.id, row.call, bench.stream,
                                    options.profileCalls) &&
                   validate(bench, row, program);
      profiler.print(size.name);
      tearDownProgram(program);
    }
    FILE *file = fopen((options.out + "/driver-calls.csv").c_str(), "w");
    if (!file)
      die(("cannot write to " + options.out).c_str());
    profiler.writeCsv(file);
    fclose(file);
  }

  printf("\ntargets (issue 6)\n");
  FILE *targetFile = fopen((options.out + "/targets.csv").c_str(), "w");
  if (targetFile)
    fputs(kTargetsHeader, targetFile);
  for (const Target &t : targets) {
    t.print();
    if (targetFile)
      t.write(targetFile);
  }
  if (targetFile)
    fclose(targetFile);
  fclose(summary);
  fclose(samples);
  return allOk ? 0 : 1;
}
