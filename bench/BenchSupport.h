//===- BenchSupport.h - What the GPU benchmarks share ------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The GPU benchmarks (sdfg-bench-calls, sdfg-bench-slots) measure calls the
// same way and must stop the same way: a CUDA error ends the process with
// exit status 2 and the failed call's text, since a benchmark that goes on
// after one would report numbers of work that did not run.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_BENCH_BENCHSUPPORT_H
#define SDFGSTREAM_BENCH_BENCHSUPPORT_H

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sdfgbench {

using Clock = std::chrono::steady_clock;

inline void checkCuda(cudaError_t error, const char *call, const char *file,
                      int line) {
  if (error == cudaSuccess)
    return;
  fprintf(stderr, "%s:%d: %s: %s\n", file, line, call,
          cudaGetErrorString(error));
  exit(2);
}

inline void checkDriver(CUresult result, const char *call, const char *file,
                        int line) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, name ? name : "?");
  exit(2);
}

#define CUDA_CHECK(call)                                                       \
  ::sdfgbench::checkCuda((call), #call, __FILE__, __LINE__)
#define CU_CHECK(call)                                                         \
  ::sdfgbench::checkDriver((call), #call, __FILE__, __LINE__)

/// Makes device 0's primary context current, prints what the device and
/// the CUDA versions are, and has stdout line-buffered (in order with
/// stderr in the log).
inline void setUpDevice() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaFree(nullptr));
  cudaDeviceProp properties;
  CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  int driver = 0, runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  printf("device: %s (sm_%d%d, %d SMs), driver API %d, runtime %d\n",
         properties.name, properties.major, properties.minor,
         properties.multiProcessorCount, driver, runtime);
}

struct CallTime {
  double hostUs, deviceUs;
};

/// Times one call started on an idle `stream`: `before` is recorded on the
/// stream just before it and `after` just after it (device time: between
/// the two), the host clock is read around it (host time); then the host
/// waits for `after`, so that the next call starts on an idle stream again.
template <typename Call>
CallTime timeCall(cudaStream_t stream, cudaEvent_t before, cudaEvent_t after,
                  Call &&call) {
  CUDA_CHECK(cudaEventRecord(before, stream));
  Clock::time_point start = Clock::now();
  call();
  Clock::time_point end = Clock::now();
  CUDA_CHECK(cudaEventRecord(after, stream));
  CUDA_CHECK(cudaEventSynchronize(after));
  float deviceMs = 0;
  CUDA_CHECK(cudaEventElapsedTime(&deviceMs, before, after));
  return {std::chrono::duration<double, std::micro>(end - start).count(),
          deviceMs * 1e3};
}

struct Stats {
  double p10, median, p90;
};

/// The 10th, 50th and 90th percentiles (linear interpolation); NaN for no
/// values.
inline Stats stats(std::vector<double> values) {
  if (values.empty())
    return {NAN, NAN, NAN};
  std::sort(values.begin(), values.end());
  auto at = [&](double q) {
    double index = q * (values.size() - 1);
    size_t lo = static_cast<size_t>(index);
    size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (index - lo) * (values[hi] - values[lo]);
  };
  return {at(0.10), at(0.50), at(0.90)};
}

struct Samples {
  std::vector<double> host, device; // microseconds, one a call

  void add(CallTime time) {
    host.push_back(time.hostUs);
    device.push_back(time.deviceUs);
  }
};

/// One measured row as the tables and OUT/summary.csv show it; the ratios
/// are medians against the row named `baseline` (NaN: none).
struct RowReport {
  const char *program, *id, *label, *load, *baseline;
  const Samples *samples; // null: the row failed
  Stats host, device;
  double hostRatio, deviceRatio;
};

constexpr const char *kSummaryHeader =
    "program,row,load,calls,host_p10_us,host_median_us,host_p90_us,"
    "device_p10_us,device_median_us,device_p90_us,baseline,host_ratio,"
    "device_ratio,status\n";
constexpr const char *kSamplesHeader =
    "program,row,load,call,host_us,device_us\n";

inline void printTableHeader(int labelWidth) {
  printf("%-*s %-4s %5s | %28s | %28s | %-6s %-6s %s\n", labelWidth, "row",
         "load", "calls", "host us  p10 / median / p90",
         "device us  p10 / med / p90", "host x", "dev x", "vs");
}

/// Prints `row` in the table and writes its line to summary.csv and its
/// samples to samples.csv.
inline void reportRow(const RowReport &row, int labelWidth, FILE *summary,
                      FILE *sampleFile) {
  if (!row.samples) {
    printf("%-*s %-4s FAILED (see the log above)\n", labelWidth, row.label,
           row.load);
    fprintf(summary, "%s,%s,%s,0,,,,,,,%s,,,FAILED\n", row.program, row.id,
            row.load, row.baseline);
    return;
  }
  char hostRatio[16] = "", deviceRatio[16] = "";
  if (!std::isnan(row.hostRatio))
    snprintf(hostRatio, sizeof(hostRatio), "%.3f", row.hostRatio);
  if (!std::isnan(row.deviceRatio))
    snprintf(deviceRatio, sizeof(deviceRatio), "%.3f", row.deviceRatio);
  size_t calls = row.samples->host.size();
  printf("%-*s %-4s %5zu | %8.1f / %8.1f / %8.1f | %8.1f / %8.1f / %8.1f "
         "| %-6s %-6s %s\n",
         labelWidth, row.label, row.load, calls, row.host.p10,
         row.host.median, row.host.p90, row.device.p10, row.device.median,
         row.device.p90, hostRatio, deviceRatio, row.baseline);
  fprintf(summary, "%s,%s,%s,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%s,%s,ok\n",
          row.program, row.id, row.load, calls, row.host.p10,
          row.host.median, row.host.p90, row.device.p10, row.device.median,
          row.device.p90, row.baseline, hostRatio, deviceRatio);
  for (size_t i = 0; i < calls; ++i)
    fprintf(sampleFile, "%s,%s,%s,%zu,%.3f,%.3f\n", row.program, row.id,
            row.load, i, row.samples->host[i], row.samples->device[i]);
}

/// A target of an issue: `value` against `limit`, printed and written to
/// OUT/targets.csv (`"text",value,limit,PASS|MISS|n/a`).
struct Target {
  std::string text;
  double value, limit;
  bool atMost; // value <= limit (else value >= limit)

  const char *verdict() const {
    if (std::isnan(value))
      return "n/a";
    return (atMost ? value <= limit : value >= limit) ? "PASS" : "MISS";
  }
  void print() const {
    printf("  %-4s %-62s %7.3f (%s %.2f)\n", verdict(), text.c_str(), value,
           atMost ? "<=" : ">=", limit);
  }
  void write(FILE *file) const {
    fprintf(file, "\"%s\",%.4f,%.2f,%s\n", text.c_str(), value, limit,
            verdict());
  }
};

constexpr const char *kTargetsHeader = "target,value,limit,status\n";

} // namespace sdfgbench

#endif // SDFGSTREAM_BENCH_BENCHSUPPORT_H
