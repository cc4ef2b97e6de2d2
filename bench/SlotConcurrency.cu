//===- SlotConcurrency.cu - Two stream slots: concurrent or serialized ----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Runs bench/slots.mlir (two independent kernels on two stream slots, each
// spinning ~1 ms on the GPU's global timer and then filling its own buffer)
// in four ways, and bench/chains.mlir in two, all on the benchmark's stream
// (the caller's):
//
//   hand-written, one stream   the two kernels launched one after the other
//                              on the caller's stream (~2 ms of device time);
//   hand-written, fork/join    an event recorded on the caller's stream, a
//                              second stream (created once) waits for it, one
//                              kernel on each, and the caller's stream waits
//                              for an event recorded on the second after its
//                              kernel: the floor for running the two
//                              concurrently (~1 ms);
//   SDFGStream serialized      the program compiled without
//                              --concurrent-streams (both slots the caller's
//                              stream), compared with the one-stream row;
//   SDFGStream concurrent      compiled with --concurrent-streams (slot 1 a
//                              pool stream forked from the caller's and
//                              joined back), compared with the fork/join row;
//   token chains, serialized   bench/chains.mlir (the same kernels on two
//                              token chains of a func.func) compiled with
//                              --serialize-async, against the one-stream row;
//   token chains, a slot each  compiled as it is (issue 23: each chain a
//                              slot, forked and joined), against fork/join.
//
// The hand-written rows launch the kernel binary that SDFGStream embedded
// (exported by bench/CMakeLists.txt), with the same parameters.
//
// Each sample is one call from an idle stream: device time between events
// recorded on the caller's stream just before and after the call (after the
// join, so both kernels are in it), host time around the call. Rows are
// interleaved in rounds, all in this one process; every row's results (both
// buffers filled with the call's values) are checked after its warm-up, and
// every call's status is checked.
//
// Output: the table and the target on stdout, OUT/slots-summary.csv (the
// columns of sdfg-bench-calls' summary.csv), OUT/slots-samples.csv, and the
// target's line in OUT/targets.csv (replaced if there, the others kept).
// Exit status 0, 1 if a row failed (wrong result or a failed call), 2 on a
// CUDA error.
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

/// A rank-1 memref descriptor, as the programs' C entries take them.
struct Memref1D {
  float *allocated, *aligned;
  int64_t offset, size, stride;
};

// The program compiled twice (bench/CMakeLists.txt renames the symbols).
#define SLOTS_PARAMS                                                           \
  Memref1D *a, Memref1D *b, int64_t n, float valueA, float valueB, int64_t ns, \
      void *stream
extern "C" {
int32_t _mlir_ciface_sdfg_slots_concurrent(SLOTS_PARAMS);
int32_t _mlir_ciface_sdfg_slots_serialized(SLOTS_PARAMS);
// bench/chains.mlir: the same two kernels as two token chains (issue 23).
int32_t _mlir_ciface_sdfg_chains_concurrent(SLOTS_PARAMS);
int32_t _mlir_ciface_sdfg_chains_serialized(SLOTS_PARAMS);
// The kernel fatbin embedded in the concurrent object (slot_kernels_binary).
extern const unsigned char bench_slots_fatbin[];
}

namespace {

using namespace sdfgbench;

constexpr int64_t kElements = 4096;
constexpr int kRounds = 10;
constexpr double kTargetFactor = 1.2; // of one kernel's time

[[noreturn]] void die(const char *what) {
  fprintf(stderr, "sdfg-bench-slots: %s\n", what);
  exit(2);
}

/// The parameters of one spin_fill launch, laid out as the MLIR lowering
/// passes them: the memref expanded (allocated, aligned, offset, size,
/// stride), then n, value, ns.
struct SpinFillArgs {
  float *allocated, *aligned;
  int64_t offset, size, stride;
  int64_t n;
  float value;
  int64_t ns;
  void *params[8];

  void setUp(float *buffer, int64_t elements, int64_t nanoseconds) {
    allocated = aligned = buffer;
    offset = 0;
    size = n = elements;
    stride = 1;
    value = 0;
    ns = nanoseconds;
    void *fields[8] = {&allocated, &aligned, &offset, &size,
                       &stride,    &n,       &value,  &ns};
    std::copy(fields, fields + 8, params);
  }
};

/// What the calls use: the buffers, the values the next call writes, the
/// hand-written calls' kernel, second stream and events.
struct State {
  float *a = nullptr, *b = nullptr; // device buffers of kElements
  Memref1D viewA, viewB;
  int64_t ns = 0;
  CUfunction kernel;
  CUstream second;
  CUevent fork, join;
  SpinFillArgs argsA, argsB;
} state;

void launch(SpinFillArgs &args, CUstream stream) {
  CU_CHECK(cuLaunchKernel(state.kernel, 1, 1, 1, 256, 1, 1, 0, stream,
                          args.params, nullptr));
}

int32_t handOneStream(cudaStream_t stream) {
  CUstream s = reinterpret_cast<CUstream>(stream);
  launch(state.argsA, s);
  launch(state.argsB, s);
  return 0;
}

int32_t handForkJoin(cudaStream_t stream) {
  CUstream s = reinterpret_cast<CUstream>(stream);
  CU_CHECK(cuEventRecord(state.fork, s));
  CU_CHECK(cuStreamWaitEvent(state.second, state.fork, 0));
  launch(state.argsA, s);
  launch(state.argsB, state.second);
  CU_CHECK(cuEventRecord(state.join, state.second));
  CU_CHECK(cuStreamWaitEvent(s, state.join, 0));
  return 0;
}

/// A call of one of the compiled programs (they share a signature) on the
/// benchmark's buffers.
template <int32_t (*Program)(SLOTS_PARAMS)>
int32_t sdfgCall(cudaStream_t stream) {
  return Program(&state.viewA, &state.viewB, kElements, state.argsA.value,
                 state.argsB.value, state.ns, stream);
}

struct Row {
  const char *id, *label, *baseline;
  int32_t (*call)(cudaStream_t);
};

const Row kRows[] = {
    {"hand-one-stream", "hand-written, one stream", "", handOneStream},
    {"hand-fork-join", "hand-written, fork/join", "", handForkJoin},
    {"sdfg-serialized", "SDFGStream serialized slots", "hand-one-stream",
     sdfgCall<_mlir_ciface_sdfg_slots_serialized>},
    {"sdfg-concurrent", "SDFGStream concurrent slots", "hand-fork-join",
     sdfgCall<_mlir_ciface_sdfg_slots_concurrent>},
    {"sdfg-chains-serialized", "token chains, --serialize-async",
     "hand-one-stream", sdfgCall<_mlir_ciface_sdfg_chains_serialized>},
    {"sdfg-chains", "token chains, a slot each", "hand-fork-join",
     sdfgCall<_mlir_ciface_sdfg_chains_concurrent>},
};
constexpr int kLabelWidth = 30;

struct Result {
  const Row *row;
  bool ok;
  float valueA, valueB; // what this row's calls write
  Samples samples;
  Stats host, device;
};

struct Bench {
  cudaStream_t stream;
  cudaEvent_t before, after;
};

/// One call of `result`'s row from an idle stream; false (with the reason
/// printed) if it failed.
bool callOnce(Bench &bench, Result &result, Samples *samples) {
  state.argsA.value = result.valueA;
  state.argsB.value = result.valueB;
  int32_t status = 0;
  CallTime time = timeCall(bench.stream, bench.before, bench.after,
                           [&] { status = result.row->call(bench.stream); });
  if (status != 0) {
    fprintf(stderr, "%s: call failed (%d): %s\n", result.row->id, status,
            sdfgrtGetLastError());
    return false;
  }
  if (samples)
    samples->add(time);
  return true;
}

/// Runs one call into zeroed buffers and checks that both hold the row's
/// values.
bool validate(Bench &bench, Result &result) {
  size_t bytes = kElements * sizeof(float);
  CUDA_CHECK(cudaMemsetAsync(state.a, 0, bytes, bench.stream));
  CUDA_CHECK(cudaMemsetAsync(state.b, 0, bytes, bench.stream));
  sdfgrtClearError();
  if (!callOnce(bench, result, nullptr))
    return false;
  std::vector<float> a(kElements), b(kElements);
  CUDA_CHECK(cudaMemcpyAsync(a.data(), state.a, bytes, cudaMemcpyDeviceToHost,
                             bench.stream));
  CUDA_CHECK(cudaMemcpyAsync(b.data(), state.b, bytes, cudaMemcpyDeviceToHost,
                             bench.stream));
  CUDA_CHECK(cudaStreamSynchronize(bench.stream));
  for (int64_t i = 0; i < kElements; ++i)
    if (a[i] != result.valueA || b[i] != result.valueB) {
      fprintf(stderr,
              "%s: wrong result at %lld: A %g, B %g, expected %g, %g\n",
              result.row->id, static_cast<long long>(i), a[i], b[i],
              result.valueA, result.valueB);
      return false;
    }
  return true;
}

const Result *find(const std::vector<Result> &results, const char *id) {
  for (const Result &r : results)
    if (strcmp(r.row->id, id) == 0 && r.ok)
      return &r;
  return nullptr;
}

double median(const std::vector<Result> &results, const char *id,
              bool device) {
  const Result *r = find(results, id);
  return r ? (device ? r->device.median : r->host.median) : NAN;
}

/// Writes `target` into OUT/targets.csv: the other lines are kept (those of
/// sdfg-bench-calls, which writes the file first), a line of the same
/// target replaced.
void writeTarget(const std::string &path, const Target &target) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string prefix = "\"" + target.text + "\",";
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line.rfind(prefix, 0) != 0)
      lines.push_back(line + "\n");
  in.close();
  if (lines.empty())
    lines.push_back(kTargetsHeader);
  FILE *file = fopen(path.c_str(), "w");
  if (!file)
    die(("cannot write " + path).c_str());
  for (const std::string &line : lines)
    fputs(line.c_str(), file);
  target.write(file);
  fclose(file);
}

struct Options {
  std::string out = "bench-out";
  double scale = 1.0;      // multiplies the calls per row
  double spinUs = 1000.0;  // each kernel's spin
};

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc)
      options.out = argv[++i];
    else if (arg == "--scale" && i + 1 < argc)
      options.scale = atof(argv[++i]);
    else if (arg == "--spin-us" && i + 1 < argc)
      options.spinUs = atof(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--out DIR] [--scale F] [--spin-us US]\n",
              argv[0]);
      exit(2);
    }
  }
  if (!(options.scale > 0))
    die("--scale must be positive");
  if (!(options.spinUs > 0))
    die("--spin-us must be positive");
  return options;
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  FILE *summary = fopen((options.out + "/slots-summary.csv").c_str(), "w");
  FILE *samples = fopen((options.out + "/slots-samples.csv").c_str(), "w");
  if (!summary || !samples)
    die(("cannot write to " + options.out + " (does it exist?)").c_str());
  fputs(kSummaryHeader, summary);
  fputs(kSamplesHeader, samples);
  setUpDevice();

  CUmodule module;
  CU_CHECK(cuModuleLoadData(&module, bench_slots_fatbin));
  CU_CHECK(cuModuleGetFunction(&state.kernel, module, "spin_fill"));
  // As the runtime's pool streams (non-blocking).
  CU_CHECK(cuStreamCreate(&state.second, CU_STREAM_NON_BLOCKING));
  CU_CHECK(cuEventCreate(&state.fork, CU_EVENT_DISABLE_TIMING));
  CU_CHECK(cuEventCreate(&state.join, CU_EVENT_DISABLE_TIMING));
  size_t bytes = kElements * sizeof(float);
  CUDA_CHECK(cudaMalloc(&state.a, bytes));
  CUDA_CHECK(cudaMalloc(&state.b, bytes));
  state.viewA = {state.a, state.a, 0, kElements, 1};
  state.viewB = {state.b, state.b, 0, kElements, 1};
  state.ns = std::llround(options.spinUs * 1e3);
  state.argsA.setUp(state.a, kElements, state.ns);
  state.argsB.setUp(state.b, kElements, state.ns);

  Bench bench;
  CUDA_CHECK(cudaStreamCreateWithFlags(&bench.stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreate(&bench.before));
  CUDA_CHECK(cudaEventCreate(&bench.after));

  int calls = std::max(1, static_cast<int>(std::lround(400 * options.scale)));
  printf("two independent kernels of %.0f us each (one block spinning on the "
         "global timer,\nthen filling its own buffer of %lld floats) on two "
         "stream slots; %d calls a row\nin %d interleaved rounds, each call "
         "from an idle stream; host = wall time of\nthe call, device = "
         "events on the caller's stream around it; ratios: median\nagainst "
         "the row named in 'vs'.\n",
         options.spinUs, static_cast<long long>(kElements), calls, kRounds);

  // Warm-up (the SDFGStream calls load their kernels and, concurrent, create
  // their pool stream at their first call), then each row's check, with
  // values of its own.
  std::vector<Result> results;
  for (const Row &row : kRows) {
    float value = 10.0f * (results.size() + 1);
    results.push_back({&row, true, value + 1, value + 2, {}, {}, {}});
    Result &result = results.back();
    for (int i = 0; i < 5 && result.ok; ++i)
      result.ok = callOnce(bench, result, nullptr);
    result.ok = result.ok && validate(bench, result);
  }

  // Interleaved rounds; each block starts with two unrecorded calls.
  int block = (calls + kRounds - 1) / kRounds;
  for (int round = 0; round < kRounds; ++round)
    for (Result &result : results) {
      int todo =
          std::min(block, calls - static_cast<int>(result.samples.host.size()));
      for (int i = 0; i < 2 && result.ok && todo > 0; ++i)
        result.ok = callOnce(bench, result, nullptr);
      for (int i = 0; i < todo && result.ok; ++i)
        result.ok = callOnce(bench, result, &result.samples);
    }
  for (Result &result : results) {
    result.host = stats(result.samples.host);
    result.device = stats(result.samples.device);
  }

  printf("\nslots\n");
  printTableHeader(kLabelWidth);
  bool allOk = true;
  for (const Result &r : results) {
    const Result *base =
        r.ok && r.row->baseline[0] ? find(results, r.row->baseline) : nullptr;
    reportRow({"slots", r.row->id, r.row->label, "idle", r.row->baseline,
               r.ok ? &r.samples : nullptr, r.host, r.device,
               base ? r.host.median / base->host.median : NAN,
               base ? r.device.median / base->device.median : NAN},
              kLabelWidth, summary, samples);
    allOk &= r.ok;
  }
  fclose(summary);
  fclose(samples);

  double concurrentMs = median(results, "sdfg-concurrent", true) * 1e-3;
  printf("\nconcurrent / serialized slots (device): %.3f; hand-written "
         "fork/join / one stream (device): %.3f\n",
         concurrentMs * 1e3 / median(results, "sdfg-serialized", true),
         median(results, "hand-fork-join", true) /
             median(results, "hand-one-stream", true));
  double limitMs = kTargetFactor * options.spinUs * 1e-3;
  Target target{"slots: SDFGStream concurrent slots, device median (ms)",
                concurrentMs, limitMs, true};
  double chainsMs = median(results, "sdfg-chains", true) * 1e-3;
  printf("token chains / serialized (device): %.3f\n",
         chainsMs * 1e3 / median(results, "sdfg-chains-serialized", true));
  Target chains{"slots: SDFGStream token chains, device median (ms)",
                chainsMs, limitMs, true};
  printf("\ntargets (issues 14, 23)\n");
  target.print();
  chains.print();
  printf("concurrent slots device time <= %.1f ms: %s (median %.3f ms)\n",
         limitMs, target.verdict(), concurrentMs);
  printf("token chains device time <= %.1f ms: %s (median %.3f ms)\n",
         limitMs, chains.verdict(), chainsMs);
  writeTarget(options.out + "/targets.csv", target);
  writeTarget(options.out + "/targets.csv", chains);
  return allOk ? 0 : 1;
}
