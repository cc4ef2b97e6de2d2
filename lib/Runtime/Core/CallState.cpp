//===- CallState.cpp - Program calls and the errors they report -*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The calling thread's state (CallState.h): how deep it is in program
// calls (sdfgrtBeginCall / sdfgrtEndCall), the first failure of the current
// call, which makes the rest of the call skip, the last error and its text
// with the location of the operation that failed, and the counters the
// tests read. Every entry point starts here (startOperation) and records
// its failures here.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/EntrySignature.h"
#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/CallState.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>

// Every entry that RuntimeEntries.def lists (and sdfg-verify-stream-discipline
// accepts) is declared in SDFGRuntime.h with the C ABI and the signature
// the list gives it, the one the compiler declares it with; the unit tests
// check that each build exports it.
// (The signatures are written in sdfgrt::abi's types.)
namespace sdfgrt {
namespace abi {
#define SDFGRT_RUNTIME_ENTRY(name, stream, mayFail, signature)                 \
  static_assert(std::is_function<decltype(::name)>::value,                     \
                #name " is listed in RuntimeEntries.def but not declared");    \
  static_assert(MatchesSignature<signature, decltype(::name)>::value,          \
                #name " is declared in SDFGRuntime.h with another signature "  \
                      "than RuntimeEntries.def gives it");
#include "SDFGStream/Runtime/RuntimeEntries.def"
} // namespace abi
} // namespace sdfgrt

namespace {

// A program linked against the static runtime as an ordinary archive (not
// --whole-archive, as sdfg-compile links it) still gets every entry, as when
// the runtime was one object file: the host API looks entries up by name.
// Every file of the runtime uses this file's call state, and this table
// uses every entry.
#define SDFGRT_RUNTIME_ENTRY(name, stream, mayFail, signature)                 \
  reinterpret_cast<void (*)()>(&::name),
[[gnu::used]] void (*const kEveryEntry[])() = {
#include "SDFGStream/Runtime/RuntimeEntries.def"
};

} // namespace

using namespace sdfgrt;

namespace sdfgrt {
SDFGRT_CONSTINIT thread_local ThreadState threadState{};
} // namespace sdfgrt

namespace {

/// Makes `code` (named `name` by the vendor) the running operation's
/// failure; false if it has one.
bool claimFailure(int32_t code, const char *name) {
  // An operation's first failure is the cause; later ones in the same
  // operation (restoring the context after a failed launch) are not news.
  if (threadState.operationFailed)
    return false;
  threadState.operationFailed = true;
  threadState.lastError = code;
  threadState.lastErrorName =
      name ? name : code == kRuntimeFailure ? "SDFGRT_FAILURE" : nullptr;
  threadState.lastErrorLocation = threadState.location;
  if (threadState.callDepth > 0 && threadState.callError == 0)
    threadState.callError = code;
  return true;
}

void recordV(int32_t code, const char *name, const char *format,
             va_list args) {
  if (!claimFailure(code, name))
    return;
  char *text = threadState.lastErrorText;
  size_t size = sizeof(threadState.lastErrorText);
  int used = vsnprintf(text, size, format, args);
  if (used >= 0 && static_cast<size_t>(used) < size)
    snprintf(text + used, size - used, " at %s",
             threadState.location ? threadState.location : "unknown location");
}

} // namespace

void sdfgrt::recordKept(int32_t code, const std::string &text) {
  if (claimFailure(code, nullptr))
    snprintf(threadState.lastErrorText, sizeof(threadState.lastErrorText), "%s",
             text.c_str());
}

bool sdfgrt::startHostOperation() {
  if (threadState.callDepth == 0)
    threadState.location = nullptr;
  return startOperation();
}

int32_t sdfgrt::operationStatus(bool started) {
  if (!started)
    return threadState.callError;
  return threadState.operationFailed ? threadState.lastError : 0;
}

void sdfgrt::recordFailureV(const char *format, va_list args) {
  recordV(kRuntimeFailure, nullptr, format, args);
}

void sdfgrt::recordFailure(const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(kRuntimeFailure, nullptr, format, args);
  va_end(args);
}

void sdfgrt::recordError(int32_t code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(code, nullptr, format, args);
  va_end(args);
}

void sdfgrt::recordVendorError(int32_t code, const char *name,
                               const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(code, name, format, args);
  va_end(args);
}

bool sdfgrt::startLibraryOperation() { return startOperation(); }

//===----------------------------------------------------------------------===//
// Hooks of the concerns above the call state
//===----------------------------------------------------------------------===//

namespace {
/// Hooks per phase: filled once each, in registration order, and only read
/// after (constant-initialized, so nothing runs when the library loads).
constexpr unsigned kMaxHooksPerPhase = 4;
std::atomic<CallHook> callHooks[kNumCallPhases][kMaxHooksPerPhase];
std::atomic<bool (*)()> pendingWorkFlush{nullptr};
std::atomic<WorkInterceptor> workInterceptor{nullptr};
std::mutex hookRegistration;

void runCallHooks(CallPhase phase) {
  for (std::atomic<CallHook> &slot :
       callHooks[static_cast<unsigned>(phase)]) {
    CallHook hook = slot.load(std::memory_order_acquire);
    if (!hook)
      return;
    hook();
  }
}
} // namespace

void sdfgrt::registerCallHook(CallPhase phase, CallHook hook) {
  std::lock_guard<std::mutex> lock(hookRegistration);
  for (std::atomic<CallHook> &slot :
       callHooks[static_cast<unsigned>(phase)]) {
    CallHook registered = slot.load(std::memory_order_relaxed);
    if (registered == hook)
      return;
    if (!registered) {
      slot.store(hook, std::memory_order_release);
      return;
    }
  }
  // More hooks than a phase has slots: the runtime's own mistake.
  fprintf(stderr, "sdfgrt: too many hooks for call phase %u\n",
          static_cast<unsigned>(phase));
  abort();
}

void sdfgrt::registerPendingWorkFlush(bool (*flush)()) {
  pendingWorkFlush.store(flush, std::memory_order_release);
}

bool sdfgrt::flushPendingWork() {
  bool (*flush)() = pendingWorkFlush.load(std::memory_order_acquire);
  return !flush || flush();
}

void sdfgrt::registerWorkInterceptor(WorkInterceptor interceptor) {
  workInterceptor.store(interceptor, std::memory_order_release);
}

bool sdfgrt::interceptWork(StreamWork &work) {
  WorkInterceptor interceptor = workInterceptor.load(std::memory_order_acquire);
  return interceptor && interceptor(work);
}

//===----------------------------------------------------------------------===//
// C ABI: program calls and errors
//===----------------------------------------------------------------------===//

namespace {
/// Forgets what the driver said of the last call's stream and context.
void forgetCallStream() {
  threadState.callStream = nullptr;
  threadState.callStreamContext = kNoContext;
  threadState.callIdContext = kNoContext;
  threadState.callContextId = 0;
}
} // namespace

void sdfgrtBeginCall(void) {
  if (threadState.callDepth++ > 0)
    return;
  forgetCallStream();
  threadState.callError = 0;
  threadState.lastError = 0;
  threadState.lastErrorText[0] = '\0';
  threadState.lastErrorName = nullptr;
  threadState.lastErrorLocation = nullptr;
  threadState.location = nullptr;
  runCallHooks(CallPhase::Begin);
}

int32_t sdfgrtEndCall(void) {
  if (threadState.callDepth != 1) {
    if (threadState.callDepth > 0)
      --threadState.callDepth;
    return threadState.callError;
  }
  // The outermost call ends: what its concerns registered runs. Still
  // inside the call, so that a failed call skips it, graph mode launches
  // what is left; then, outside it, a failed call joins its forks and
  // frees its transients, and graph mode gives its program's graphs back,
  // after all of it.
  runCallHooks(CallPhase::Closing);
  threadState.callDepth = 0;
  if (threadState.callError != 0) {
    runCallHooks(CallPhase::FailedBeforeJoin);
    runCallHooks(CallPhase::FailedJoin);
    runCallHooks(CallPhase::FailedAfterJoin);
  }
  runCallHooks(CallPhase::Closed);
  runCallHooks(CallPhase::End);
  forgetCallStream();
  return threadState.callError;
}

int32_t sdfgrtCallStatus(void) {
  return threadState.callDepth > 0 ? threadState.callError : 0;
}

void sdfgrtSetLocation(const char *location) {
  threadState.location = location;
}

const char *sdfgrtGetLastError(void) { return threadState.lastErrorText; }

int32_t sdfgrtGetLastErrorCode(void) { return threadState.lastError; }

const char *sdfgrtGetLastErrorName(void) {
  return threadState.lastErrorName ? threadState.lastErrorName : "";
}

const char *sdfgrtGetLastErrorLocation(void) {
  return threadState.lastErrorLocation ? threadState.lastErrorLocation : "";
}

void sdfgrtClearError(void) {
  threadState.lastError = 0;
  threadState.lastErrorName = nullptr;
  threadState.lastErrorLocation = nullptr;
  threadState.lastErrorText[0] = '\0';
}
