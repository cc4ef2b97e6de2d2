//===- HostAPI.h - Call compiled programs on a stream -----------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Header-only C++ host API for program libraries made by sdfg-compile (a
// shared library exporting `_mlir_ciface_<program>` for each public program,
// with the SDFGStream runtime linked in):
//
//   sdfgstream::Library lib("prog.so");
//   lib.setExternalGpuStream(stream);     // never set: 0, the default stream
//   lib.call("pipeline", &in, &out, int64_t(n)); // the stream is appended
//   lib.setExternalGpuStream(other);      // `other` waits for `stream`'s work
//   int32_t status = lib.tryCall("pipeline", &in, &out, int64_t(n));
//
// Arguments are passed as the program's C header (sdfg-compile --header)
// declares them: memrefs as pointers to descriptors, `index` as int64_t;
// they are not converted, so pass exactly those types. GPU programs take the
// stream last (call/tryCall append it); CPU programs take none
// (callCpu/tryCallCpu). Every program returns 0 or an error code.
//
// Each program library holds its own copy of the runtime (its errors,
// timers and stream waits), so the runtime's C ABI is reached through the
// library with dlsym, never linked: this header needs only <dlfcn.h> and
// SDFGRuntime.h. A runtime entry point that the process already defines
// globally (a runtime linked into the executable or loaded with
// RTLD_GLOBAL) is the one the library's programs bind to, so that one is
// used, exactly as the dynamic linker resolves the programs' calls.
//
// Streams: 0 is the legacy default stream, 1 CU_STREAM_LEGACY, 2
// CU_STREAM_PER_THREAD (hipStreamPerThread), all of the calling thread's
// current context; anything else is a cudaStream_t / hipStream_t. Changing
// the stream between calls is safe: the new stream waits, on the GPU, for
// the programs' work still queued on the old one (an event recorded there
// and waited for on the new stream; the host never waits). The programs'
// device is the device of the first stream they use (the first stream set,
// or the default stream's at the first GPU call); a stream of another
// device is rejected, and the binding stays as it was.
//
// A Library is not thread-safe: use one per thread, or serialize its calls
// and bindings. Each Library has its own stream binding, even for the same
// file. Failures throw sdfgstream::Error (call, setExternalGpuStream,
// queryTimer), or are returned by the try* forms, never both.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_RUNTIME_HOSTAPI_H
#define SDFGSTREAM_RUNTIME_HOSTAPI_H

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace sdfgstream {

/// A failure of a program call, of a stream binding or of loading a
/// library: the runtime's error code (CUresult / hipError_t, or -1 for a
/// failure the runtime or this API detects itself) and its text.
class Error : public std::runtime_error {
public:
  Error(int32_t code, const std::string &message)
      : std::runtime_error(message), errorCode(code) {}
  int32_t code() const { return errorCode; }

private:
  int32_t errorCode;
};

/// Accumulated GPU time of a timed program (see sdfgrtTimerQuery).
struct TimerTotals {
  double milliseconds = 0;
  int64_t calls = 0;   // resolved calls
  int64_t pending = 0; // calls whose end events had not completed
};

/// A loaded program library and the stream its GPU programs run on.
class Library {
public:
  /// Error code of failures this API detects itself, as the runtime's.
  static constexpr int32_t kFailure = -1;

  /// Loads the program library at `path` (dlopen, RTLD_NOW | RTLD_LOCAL).
  /// Throws Error if it cannot be loaded or lacks the runtime's entry points.
  explicit Library(const std::string &path) : libraryPath(path) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *reason = dlerror();
      throw Error(kFailure,
                  "program library " + path + " could not be " +
                      "loaded: " + (reason ? reason : "dlopen failed"));
    }
    const char *missing = nullptr;
    resolve(getLastError, "sdfgrtGetLastError", missing);
    resolve(streamWaitStream, "sdfgrtStreamWaitStream", missing);
    resolve(streamDevice, "sdfgrtStreamDevice", missing);
    resolve(timerQuery, "sdfgrtTimerQuery", missing);
    resolve(timerReset, "sdfgrtTimerReset", missing);
    if (missing) {
      dlclose(handle);
      handle = nullptr;
      throw Error(kFailure, path +
                                " is not an SDFGStream program library "
                                "of this version: it lacks " +
                                missing);
    }
  }

  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;
  Library(Library &&other) noexcept { *this = std::move(other); }
  Library &operator=(Library &&other) noexcept {
    std::swap(handle, other.handle);
    std::swap(libraryPath, other.libraryPath);
    std::swap(programs, other.programs);
    std::swap(getLastError, other.getLastError);
    std::swap(streamWaitStream, other.streamWaitStream);
    std::swap(streamDevice, other.streamDevice);
    std::swap(timerQuery, other.timerQuery);
    std::swap(timerReset, other.timerReset);
    std::swap(stream, other.stream);
    std::swap(workStream, other.workStream);
    std::swap(hasWork, other.hasWork);
    std::swap(programDevice, other.programDevice);
    std::swap(errorCode, other.errorCode);
    std::swap(errorText, other.errorText);
    return *this;
  }
  ~Library() {
    if (handle)
      dlclose(handle);
  }

  const std::string &path() const { return libraryPath; }

  //===--------------------------------------------------------------------===//
  // The stream
  //===--------------------------------------------------------------------===//

  /// The stream GPU programs are called with; 0 until one is set.
  void *externalGpuStream() const { return stream; }

  /// The device of the programs (see the file comment); -1 until their
  /// first stream is set or used.
  int32_t device() const { return programDevice; }

  /// Makes `newStream` the stream of later GPU program calls. If a GPU
  /// program ran before, on another stream, `newStream` first waits, on the
  /// GPU, for the work queued there (one event record and one stream wait;
  /// the host never waits). Nothing happens for the stream already set. A
  /// stream of another device than the programs' is rejected (kFailure).
  /// CPU programs ignore the stream. Returns 0 or the error code.
  int32_t trySetExternalGpuStream(void *newStream) {
    if (newStream == stream)
      return 0;
    int32_t found = -1;
    if (int32_t status = streamDevice(newStream, &found))
      return fail(status, getLastError());
    if (programDevice >= 0 && found != programDevice) {
      char text[320];
      std::snprintf(text, sizeof(text),
                    "stream %p belongs to device %d, but the programs of %s "
                    "run on device %d, the device of their first stream "
                    "(use one Library per device)",
                    newStream, found, libraryPath.c_str(), programDevice);
      return fail(kFailure, text);
    }
    if (hasWork && newStream != workStream)
      if (int32_t status = streamWaitStream(newStream, workStream))
        return fail(status, getLastError());
    programDevice = found;
    stream = newStream;
    return 0;
  }

  /// As trySetExternalGpuStream; throws Error on failure.
  void setExternalGpuStream(void *newStream) {
    check(trySetExternalGpuStream(newStream));
  }

  /// Makes the calling thread hold at least `count - 1` streams of the
  /// runtime's pool for the stream that is set (the slots beyond the
  /// caller's of programs built with concurrent slots), creating those it
  /// lacks, so that they exist before the caller begins capturing the
  /// stream into a graph. Returns 0 or the error code; kFailure for a
  /// library built before concurrent slots, or without a stream set.
  int32_t tryReserveStreams(int32_t count) {
    if (!stream)
      return fail(kFailure, "no stream is set: reserve streams for the "
                            "stream the programs will be called with");
    auto reserve = reinterpret_cast<decltype(&sdfgrtReserveStreams)>(
        lookup("sdfgrtReserveStreams"));
    if (!reserve)
      return fail(kFailure, libraryPath + " has no sdfgrtReserveStreams "
                                          "(built before concurrent slots)");
    if (int32_t status = reserve(stream, count))
      return fail(status, getLastError());
    return 0;
  }

  /// As tryReserveStreams; throws Error on failure.
  void reserveStreams(int32_t count) { check(tryReserveStreams(count)); }

  //===--------------------------------------------------------------------===//
  // Program calls
  //===--------------------------------------------------------------------===//

  /// Calls GPU program `program` with `args` and the stream last. Returns
  /// its status: 0, or the error code of its first failed operation (text:
  /// lastError()).
  template <typename... Args>
  int32_t tryCall(const char *program, Args... args) {
    void *symbol = findProgram(program);
    if (!symbol)
      return errorCode;
    if (programDevice < 0) {
      int32_t found = -1;
      if (int32_t status = streamDevice(stream, &found))
        return fail(status, getLastError());
      programDevice = found;
    }
    auto function = reinterpret_cast<int32_t (*)(Args..., void *)>(symbol);
    int32_t status = function(args..., stream);
    // Even a failed call may have queued work before its failure.
    hasWork = true;
    workStream = stream;
    return status ? fail(status, getLastError()) : 0;
  }

  /// As tryCall; throws Error on failure.
  template <typename... Args> void call(const char *program, Args... args) {
    check(tryCall(program, args...));
  }

  /// Calls CPU program `program` (no stream argument) with `args`. It runs
  /// on this thread and does not wait for GPU work queued on the stream:
  /// synchronize the stream first if it reads what a GPU program wrote.
  template <typename... Args>
  int32_t tryCallCpu(const char *program, Args... args) {
    void *symbol = findProgram(program);
    if (!symbol)
      return errorCode;
    auto function = reinterpret_cast<int32_t (*)(Args...)>(symbol);
    int32_t status = function(args...);
    return status ? fail(status, getLastError()) : 0;
  }

  /// As tryCallCpu; throws Error on failure.
  template <typename... Args> void callCpu(const char *program, Args... args) {
    check(tryCallCpu(program, args...));
  }

  //===--------------------------------------------------------------------===//
  // Timers (programs compiled with sdfg-compile --timers)
  //===--------------------------------------------------------------------===//

  /// Writes the accumulated GPU time of `program`; with `wait`, waits for
  /// its pending calls first (event synchronization only). Returns 0 or the
  /// error code (a program without timed calls: kFailure).
  int32_t tryQueryTimer(const char *program, bool wait, TimerTotals &totals) {
    int32_t status = timerQuery(program, wait, &totals.milliseconds,
                                &totals.calls, &totals.pending);
    return status ? fail(status, getLastError()) : 0;
  }

  /// As tryQueryTimer; throws Error on failure.
  TimerTotals queryTimer(const char *program, bool wait = true) {
    TimerTotals totals;
    check(tryQueryTimer(program, wait, totals));
    return totals;
  }

  /// Forgets the timer totals of `program` (null: of every program).
  void resetTimers(const char *program = nullptr) { timerReset(program); }

  //===--------------------------------------------------------------------===//
  // Graph mode (programs compiled with sdfg-compile --graph-mode)
  //===--------------------------------------------------------------------===//

  /// Sets the graph mode of `program` (null: of every program) for its
  /// later calls: 0 eager, 1 graphs updated in place (the default), 2
  /// graphs built again when arguments change (sdfgrtSetGraphMode). Returns
  /// 0, or kFailure for a library built before graph mode.
  int32_t trySetGraphMode(const char *program, int32_t mode) {
    auto set = reinterpret_cast<decltype(&sdfgrtSetGraphMode)>(
        lookup("sdfgrtSetGraphMode"));
    if (!set)
      return fail(kFailure, libraryPath + " has no sdfgrtSetGraphMode "
                                          "(built before graph mode)");
    set(program, mode);
    return 0;
  }

  /// What graph mode did in this library's runtime (sdfgrtGetGraphStats);
  /// zeros for a library built before graph mode.
  sdfgrtGraphStats graphStats() {
    sdfgrtGraphStats stats{};
    if (auto get = reinterpret_cast<decltype(&sdfgrtGetGraphStats)>(
            lookup("sdfgrtGetGraphStats")))
      get(&stats);
    return stats;
  }

  /// Releases the graphs and transient buffers that graph mode keeps for
  /// the programs on the current stream's context, freed on that stream
  /// (sdfgrtReleaseGraphs). Returns 0 or the error code.
  int32_t tryReleaseGraphs() {
    auto release = reinterpret_cast<decltype(&sdfgrtReleaseGraphs)>(
        lookup("sdfgrtReleaseGraphs"));
    if (!release)
      return fail(kFailure, libraryPath + " has no sdfgrtReleaseGraphs "
                                          "(built before graph mode)");
    if (int32_t status = release(stream))
      return fail(status, getLastError());
    return 0;
  }

  //===--------------------------------------------------------------------===//
  // Errors
  //===--------------------------------------------------------------------===//

  /// The code and text of the last failure of this Library's operations (0
  /// and "" if none); a later success does not clear them.
  int32_t lastErrorCode() const { return errorCode; }
  const std::string &lastError() const { return errorText; }

private:
  /// The runtime entry `name`: the process's, else the library's.
  void *lookup(const char *name) {
    void *symbol = dlsym(RTLD_DEFAULT, name);
    return symbol ? symbol : dlsym(handle, name);
  }

  template <typename Function>
  void resolve(Function &function, const char *name, const char *&missing) {
    void *symbol = lookup(name);
    function = reinterpret_cast<Function>(symbol);
    if (!symbol && !missing)
      missing = name;
  }

  void *findProgram(const char *program) {
    std::string name = program ? program : "";
    auto it = programs.find(name);
    if (it != programs.end())
      return it->second;
    std::string symbolName = "_mlir_ciface_" + name;
    void *symbol = dlsym(handle, symbolName.c_str());
    if (!symbol) {
      fail(kFailure, "program \"" + name + "\" not found in " + libraryPath +
                         " (no symbol " + symbolName + ")");
      return nullptr;
    }
    programs.emplace(name, symbol);
    return symbol;
  }

  int32_t fail(int32_t code, std::string text) {
    errorCode = code;
    errorText = std::move(text);
    return code;
  }

  void check(int32_t status) {
    if (status)
      throw Error(status, errorText);
  }

  void *handle = nullptr;
  std::string libraryPath;
  std::unordered_map<std::string, void *> programs;

  decltype(&sdfgrtGetLastError) getLastError = nullptr;
  decltype(&sdfgrtStreamWaitStream) streamWaitStream = nullptr;
  decltype(&sdfgrtStreamDevice) streamDevice = nullptr;
  decltype(&sdfgrtTimerQuery) timerQuery = nullptr;
  decltype(&sdfgrtTimerReset) timerReset = nullptr;

  void *stream = nullptr;
  // The stream of the last GPU call. It is ordered after all of the
  // programs' work: it waited, when it was set, for the last call's stream
  // before it.
  void *workStream = nullptr;
  bool hasWork = false;
  int32_t programDevice = -1;

  int32_t errorCode = 0;
  std::string errorText;
};

} // namespace sdfgstream

#endif // SDFGSTREAM_RUNTIME_HOSTAPI_H
