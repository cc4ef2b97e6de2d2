//===- DriverCallProfile.cu - Where a call's host time goes -------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// CUPTI's callback API calls back at the entry and the exit of every driver
// API function (CUPTI_CB_DOMAIN_DRIVER_API, whoever calls it: the
// hand-written code directly, SDFGStream's runtime through the symbols it
// looked up). Each callback of a profiled call reads the host clock; the
// time from entry to exit is the driver's, summed by function, and the wall
// time of the call less the driver's is the caller's own code.
//
// The callbacks cost time themselves (CUPTI's dispatch and the clock
// reads), all of it outside the entry-to-exit spans: the time outside
// driver calls measured with the callbacks on holds that cost once per
// driver call. So each call is also timed with the callbacks off, and
// "wall (callbacks off) - driver time" is printed as the estimate of the
// caller's own code. Both variants of one program make about the same
// number of driver calls, so their differences are little affected.
//
// Driver functions that other driver functions call (none in these calls,
// normally) are counted by name but not again in the total; their number
// is printed when there are any.
//
//===----------------------------------------------------------------------===//

#include "DriverCallProfile.h"

#include "BenchSupport.h"

#include <cupti.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace sdfgbench {

namespace {

constexpr int kWarmUpCalls = 10;

uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             Clock::now().time_since_epoch())
      .count();
}

struct FunctionTime {
  const char *name = nullptr; // CUPTI's: a global constant
  uint64_t count = 0, ns = 0;
};

/// The profile of one row: sums over `calls` calls.
struct Profile {
  std::string program, row;
  int calls;
  double wallOffUs, wallOnUs;
  uint64_t driverCalls, driverNs, nestedCalls, nestedNs;
  std::vector<FunctionTime> functions; // called ones, most time first

  double perCall(double total) const { return total / calls; }
  double driverUs() const { return driverNs * 1e-3; }
};

bool cuptiOk(CUptiResult result, const char *call) {
  if (result == CUPTI_SUCCESS)
    return true;
  const char *text = nullptr;
  cuptiGetResultString(result, &text);
  fprintf(stderr, "driver-call profile FAILED: %s: %s\n", call,
          text ? text : "?");
  return false;
}

} // namespace

struct DriverCallProfiler::State {
  CUpti_SubscriberHandle subscriber = nullptr;
  bool subscribed = false;
  std::thread::id thread = std::this_thread::get_id();
  std::atomic<bool> recording{false};
  // Touched only by `thread`, inside its own driver calls.
  int depth = 0;
  std::vector<FunctionTime> byId =
      std::vector<FunctionTime>(CUPTI_DRIVER_TRACE_CBID_SIZE);
  uint64_t driverCalls = 0, driverNs = 0, nestedCalls = 0, nestedNs = 0;
  std::vector<Profile> profiles;

  void resetCounts() {
    std::fill(byId.begin(), byId.end(), FunctionTime());
    driverCalls = driverNs = nestedCalls = nestedNs = 0;
  }
};

namespace {

void CUPTIAPI onDriverCall(void *userdata, CUpti_CallbackDomain domain,
                           CUpti_CallbackId id, const void *data) {
  uint64_t now = nowNs();
  auto &state = *static_cast<DriverCallProfiler::State *>(userdata);
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API ||
      !state.recording.load(std::memory_order_relaxed) ||
      std::this_thread::get_id() != state.thread)
    return;
  const auto &info = *static_cast<const CUpti_CallbackData *>(data);
  if (info.callbackSite == CUPTI_API_ENTER) {
    ++state.depth;
    *info.correlationData = now;
    return;
  }
  uint64_t ns = now - *info.correlationData;
  if (id < state.byId.size()) {
    FunctionTime &function = state.byId[id];
    function.name = info.functionName;
    ++function.count;
    function.ns += ns;
  }
  if (--state.depth == 0) {
    ++state.driverCalls;
    state.driverNs += ns;
  } else {
    ++state.nestedCalls;
    state.nestedNs += ns;
  }
}

} // namespace

DriverCallProfiler::DriverCallProfiler() : state(std::make_unique<State>()) {
  state->subscribed =
      cuptiOk(cuptiSubscribe(&state->subscriber, onDriverCall, state.get()),
              "cuptiSubscribe");
}

DriverCallProfiler::~DriverCallProfiler() {
  if (state->subscribed)
    cuptiOk(cuptiUnsubscribe(state->subscriber), "cuptiUnsubscribe");
}

bool DriverCallProfiler::ok() const { return state->subscribed; }

bool DriverCallProfiler::profile(const char *program, const char *row,
                                 void (*call)(cudaStream_t),
                                 cudaStream_t stream, int calls) {
  if (!ok())
    return false;
  State &s = *state;
  // Summed wall time of `calls` calls, in microseconds; NaN if CUPTI
  // failed. With the callbacks on, the driver calls are counted.
  auto block = [&](bool callbacks) {
    if (!cuptiOk(cuptiEnableDomain(callbacks, s.subscriber,
                                   CUPTI_CB_DOMAIN_DRIVER_API),
                 "cuptiEnableDomain"))
      return double(NAN);
    for (int i = 0; i < kWarmUpCalls; ++i) {
      call(stream);
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    s.resetCounts();
    double wallUs = 0;
    for (int i = 0; i < calls; ++i) {
      s.recording.store(true, std::memory_order_relaxed);
      Clock::time_point start = Clock::now();
      call(stream);
      Clock::time_point end = Clock::now();
      s.recording.store(false, std::memory_order_relaxed);
      wallUs += std::chrono::duration<double, std::micro>(end - start).count();
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    return wallUs;
  };
  double wallOffUs = block(false);
  double wallOnUs = block(true);
  if (!cuptiOk(cuptiEnableDomain(0, s.subscriber, CUPTI_CB_DOMAIN_DRIVER_API),
               "cuptiEnableDomain") ||
      std::isnan(wallOffUs) || std::isnan(wallOnUs))
    return false;
  if (s.depth != 0) {
    fprintf(stderr, "driver-call profile FAILED: %s/%s: unmatched driver "
                    "API entries and exits\n",
            program, row);
    return false;
  }
  Profile profile{program,       row,           calls,         wallOffUs,
                  wallOnUs,      s.driverCalls, s.driverNs,    s.nestedCalls,
                  s.nestedNs,    {}};
  for (const FunctionTime &function : s.byId)
    if (function.count)
      profile.functions.push_back(function);
  std::sort(profile.functions.begin(), profile.functions.end(),
            [](const FunctionTime &a, const FunctionTime &b) {
              return a.ns > b.ns;
            });
  s.profiles.push_back(std::move(profile));
  return true;
}

void DriverCallProfiler::print(const char *program) const {
  std::vector<const Profile *> rows;
  for (const Profile &profile : state->profiles)
    if (profile.program == program)
      rows.push_back(&profile);
  if (rows.empty())
    return;
  // The functions any row called, by their largest time per call.
  std::vector<std::pair<std::string, double>> functions;
  for (const Profile *row : rows)
    for (const FunctionTime &function : row->functions) {
      double us = row->perCall(function.ns * 1e-3);
      auto known = std::find_if(functions.begin(), functions.end(),
                                [&](const auto &f) {
                                  return f.first == function.name;
                                });
      if (known == functions.end())
        functions.emplace_back(function.name, us);
      else
        known->second = std::max(known->second, us);
    }
  std::sort(functions.begin(), functions.end(),
            [](const auto &a, const auto &b) { return a.second > b.second; });

  bool difference = rows.size() > 1;
  printf("\ndriver API calls of one call, %s: means of %d calls, host us "
         "(CUPTI driver API callbacks)\n",
         program, rows.front()->calls);
  printf("%-44s", "");
  for (const Profile *row : rows)
    printf(" | %20s", row->row.c_str());
  if (difference)
    printf(" | %20s", (rows.back()->row + " - " + rows.front()->row).c_str());
  printf("\n%-44s", "");
  for (size_t i = 0; i < rows.size() + difference; ++i)
    printf(" | %8s %11s", "calls", "us");
  printf("\n");
  // One line: each row's (count, us) per call, then last minus first;
  // a NaN count is left blank.
  auto line = [&](const std::string &label, auto &&value) {
    printf("%-44s", label.c_str());
    std::vector<std::pair<double, double>> values;
    for (const Profile *row : rows)
      values.push_back(value(*row));
    if (difference)
      values.push_back({values.back().first - values.front().first,
                        values.back().second - values.front().second});
    for (auto [count, us] : values) {
      if (std::isnan(count))
        printf(" | %8s %11.2f", "", us);
      else
        printf(" | %8.2f %11.2f", count, us);
    }
    printf("\n");
  };
  line("wall time, callbacks off", [](const Profile &row) {
    return std::pair<double, double>(NAN, row.perCall(row.wallOffUs));
  });
  line("wall time, callbacks on", [](const Profile &row) {
    return std::pair<double, double>(NAN, row.perCall(row.wallOnUs));
  });
  for (const auto &[name, largest] : functions)
    line("  " + name, [&, name = name](const Profile &row) {
      for (const FunctionTime &function : row.functions)
        if (name == function.name)
          return std::pair<double, double>(row.perCall(function.count),
                                           row.perCall(function.ns * 1e-3));
      return std::pair<double, double>(0, 0);
    });
  line("all driver calls", [](const Profile &row) {
    return std::pair<double, double>(row.perCall(row.driverCalls),
                                     row.perCall(row.driverUs()));
  });
  line("outside driver calls, callbacks on", [](const Profile &row) {
    return std::pair<double, double>(
        NAN, row.perCall(row.wallOnUs - row.driverUs()));
  });
  line("outside driver calls (wall off - driver)", [](const Profile &row) {
    return std::pair<double, double>(
        NAN, row.perCall(row.wallOffUs - row.driverUs()));
  });
  for (const Profile *row : rows)
    if (row->nestedCalls)
      printf("(%s: %.2f driver calls a call made inside other driver calls, "
             "%.2f us: listed by name, not in the total)\n",
             row->row.c_str(), row->perCall(row->nestedCalls),
             row->perCall(row->nestedNs * 1e-3));
}

void DriverCallProfiler::writeCsv(FILE *file) const {
  fprintf(file, "program,row,profiled_calls,kind,item,calls_per_call,"
                "us_per_call\n");
  for (const Profile &row : state->profiles) {
    auto write = [&](const char *kind, const char *item, double count,
                     double us) {
      fprintf(file, "%s,%s,%d,%s,%s,", row.program.c_str(), row.row.c_str(),
              row.calls, kind, item);
      if (!std::isnan(count))
        fprintf(file, "%.4f", row.perCall(count));
      fprintf(file, ",%.4f\n", row.perCall(us));
    };
    write("total", "wall_callbacks_off", NAN, row.wallOffUs);
    write("total", "wall_callbacks_on", NAN, row.wallOnUs);
    write("total", "driver_calls", row.driverCalls, row.driverUs());
    write("total", "outside_driver_callbacks_on", NAN,
          row.wallOnUs - row.driverUs());
    write("total", "outside_driver_estimate", NAN,
          row.wallOffUs - row.driverUs());
    write("total", "nested_driver_calls", row.nestedCalls,
          row.nestedNs * 1e-3);
    for (const FunctionTime &function : row.functions)
      write("function", function.name, function.count, function.ns * 1e-3);
  }
}

} // namespace sdfgbench
