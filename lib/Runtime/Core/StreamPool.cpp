//===- StreamPool.cpp - The streams of a program's other slots --*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A program compiled for concurrency inside a call has several stream slots:
// slot 0 is the caller's stream, the others run on streams the runtime
// keeps, forked from the caller's at the program's entry (sdfgrtForkStreams)
// and joined back before it returns. Creating a stream costs more than a
// small program call, and a stream of an ongoing capture cannot be
// destroyed, so these streams are created once and never destroyed.
//
// Each context has a pool of them, and each thread holds an exclusive lease
// of the pool's streams: a stream that waited on an event of a capturing
// stream belongs to that capture until it ends, so a stream two threads
// shared could pull one thread's work into the other's graph. A thread that
// exits gives its lease back to the pool's idle streams, where another
// thread takes it up; a stream is only used for a fork if it is not being
// captured, or is being captured into the caller's capture.
//
// The generated joins of a failed call are skipped with the rest of it, so
// the forks of a program call are logged and the outermost failed call
// joins them back (joinCallForks): the caller's later work stays ordered
// after everything the call enqueued.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/StreamPool.h"
#include "Core/Devices.h"
#include "Core/VendorLibrary.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

using namespace sdfgrt;

namespace {

/// The streams the runtime created in one context, by the driver's id of it:
/// how many, and those no thread leases.
struct ContextStreams {
  uint64_t contextId;
  int64_t created;
  std::vector<Stream> idle;
};

class StreamPool {
public:
  /// An idle stream of the context; false if none is idle.
  bool takeIdle(uint64_t contextId, Stream &stream) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<Stream> &idle = of(contextId).idle;
    if (idle.empty())
      return false;
    stream = idle.back();
    idle.pop_back();
    return true;
  }

  void countCreated(uint64_t contextId) {
    std::lock_guard<std::mutex> lock(mutex);
    ++of(contextId).created;
  }

  /// Makes `streams`, leased in `leaseGeneration`, idle again, unless the
  /// pool was forgotten since.
  void giveBack(uint64_t leaseGeneration, uint64_t contextId,
                const std::vector<Stream> &streams) {
    std::lock_guard<std::mutex> lock(mutex);
    if (leaseGeneration != generation.load(std::memory_order_relaxed))
      return;
    std::vector<Stream> &idle = of(contextId).idle;
    idle.insert(idle.end(), streams.begin(), streams.end());
  }

  /// Changes whenever the pool is forgotten, so that leases taken before
  /// are dropped.
  uint64_t currentGeneration() const {
    return generation.load(std::memory_order_acquire);
  }

  StreamPoolCounts counts(uint64_t contextId) {
    std::lock_guard<std::mutex> lock(mutex);
    const ContextStreams &streams = of(contextId);
    return {streams.created, static_cast<int64_t>(streams.idle.size()), 0};
  }

  /// Forgets every stream without destroying it (the test's fake driver
  /// forgets them too).
  void forget() {
    std::lock_guard<std::mutex> lock(mutex);
    contexts.clear();
    generation.fetch_add(1, std::memory_order_release);
  }

private:
  ContextStreams &of(uint64_t contextId) {
    for (ContextStreams &streams : contexts)
      if (streams.contextId == contextId)
        return streams;
    contexts.push_back({contextId, 0, {}});
    return contexts.back();
  }

  std::mutex mutex;
  std::vector<ContextStreams> contexts;
  std::atomic<uint64_t> generation{1};
};

/// Never destroyed: threads give their leases back when they exit, which
/// may be after static destructors ran.
StreamPool &streamPool() {
  static StreamPool *instance = new StreamPool;
  return *instance;
}

/// The calling thread's leases, one per context: the streams only this
/// thread forks onto, in the order it took them.
class Leases {
public:
  Leases() = default;
  Leases(const Leases &) = delete;
  Leases &operator=(const Leases &) = delete;

  /// No driver call: the streams only become idle.
  ~Leases() {
    for (const Lease &lease : leases)
      streamPool().giveBack(generation, lease.contextId, lease.streams);
  }

  std::vector<Stream> &of(uint64_t contextId) {
    uint64_t current = streamPool().currentGeneration();
    if (generation != current) {
      leases.clear();
      generation = current;
    }
    for (Lease &lease : leases)
      if (lease.contextId == contextId)
        return lease.streams;
    leases.push_back({contextId, {}});
    return leases.back().streams;
  }

private:
  struct Lease {
    uint64_t contextId;
    std::vector<Stream> streams;
  };
  uint64_t generation = 0;
  std::vector<Lease> leases;
};
// Not in ThreadState, which must stay a POD: this one has a destructor.
thread_local Leases threadLeases;

/// Adds a stream of `context` (current) to `lease`: an idle one, else a new
/// one. A capture in global mode forbids creating a stream on any thread
/// that has not relaxed its capture mode, so the calling thread's mode is
/// relaxed for the creation and restored afterwards.
bool growLease(const Symbols &symbols, const ContextRef &context,
               std::vector<Stream> &lease) {
  Stream stream{};
  if (streamPool().takeIdle(context.id, stream)) {
    lease.push_back(stream);
    return true;
  }
  vendor::CaptureMode mode = vendor::kCaptureModeRelaxed;
  if (!SDFGRT_CALL(symbols, ThreadExchangeStreamCaptureMode, &mode))
    return false;
  bool created =
      SDFGRT_CALL(symbols, StreamCreate, &stream, vendor::kPoolStreamFlags);
  bool restored = SDFGRT_CALL(symbols, ThreadExchangeStreamCaptureMode, &mode);
  if (created) {
    streamPool().countCreated(context.id);
    lease.push_back(stream);
  }
  return created && restored;
}

/// Finds `count` streams of the calling thread's lease for `context`
/// (current) that a fork from `caller` may use, growing the lease where it
/// has too few: not `caller` (a nested program called on a slot stream of
/// its caller), pairwise distinct, and each not being captured or being
/// captured into the caller's capture. Writes them to `streams` unless it
/// is null.
bool leaseStreams(const Symbols &symbols, Stream caller,
                  const ContextRef &context, size_t count, void **streams) {
  bool callerCapturing = false;
  uint64_t callerCapture = 0;
  if (!vendor::captureState(symbols, caller, callerCapturing, callerCapture))
    return false;
  std::vector<Stream> &lease = threadLeases.of(context.id);
  size_t found = 0;
  for (size_t i = 0; found < count; ++i) {
    if (i == lease.size() && !growLease(symbols, context, lease))
      return false;
    Stream stream = lease[i];
    if (stream == caller)
      continue;
    bool capturing = false;
    uint64_t capture = 0;
    if (!vendor::captureState(symbols, stream, capturing, capture))
      return false;
    if (capturing && !(callerCapturing && capture == callerCapture))
      continue;
    if (streams)
      streams[found] = stream;
    ++found;
  }
  return true;
}

/// Whether `count` is a number of stream slots; records the failure of
/// `entry` if not.
bool validSlotCount(const char *entry, int32_t count) {
  if (count >= 1 && count <= kMaxStreamSlots)
    return true;
  recordFailure("%s: %d stream slots, but a program has 1 to %d", entry, count,
                kMaxStreamSlots);
  return false;
}

/// A fork of the current program call: `slot` was ordered after `caller`.
struct Fork {
  void *caller;
  void *slot;
};
// Each (caller, slot) pair once, in the order of its first fork. Past
// kMaxCallForks pairs (a lease only grows beyond a program's slots under
// captures) a fork is not logged, and not joined if the call fails.
constexpr size_t kMaxCallForks = 4 * kMaxStreamSlots;
thread_local std::vector<Fork> callForks;

/// Orders, on the GPU, each stream the failed program call forked back onto
/// the stream it was forked from, the innermost forks first: the generated
/// joins were skipped with the rest of the call.
void joinCallForks() {
  // The call has failed and its generated joins were skipped; these run.
  if (callForks.empty())
    return;
  withoutRecordingFailures([] {
    // Innermost forks first: a slot stream of a nested program joins its
    // caller, itself a slot stream, before that one joins its own caller.
    const Symbols *symbols = vendorSymbols();
    for (auto it = callForks.rbegin(); symbols && it != callForks.rend(); ++it)
      orderAfter(*symbols, it->slot, &it->caller, 1);
  });
  callForks.clear();
}

/// Forgets the forks of the program call that ends or begins.
void forgetCallForks() { callForks.clear(); }

/// Hooks the forks into every outermost call, once per process, before the
/// first one is logged.
void registerForkHooks() {
  static const bool registered = [] {
    registerCallHook(CallPhase::Begin, &forgetCallForks);
    registerCallHook(CallPhase::FailedJoin, &joinCallForks);
    registerCallHook(CallPhase::End, &forgetCallForks);
    return true;
  }();
  (void)registered;
}

void logFork(void *caller, void *slot) {
  if (threadState.callDepth == 0)
    return;
  registerForkHooks();
  for (const Fork &fork : callForks)
    if (fork.caller == caller && fork.slot == slot)
      return;
  if (callForks.size() < kMaxCallForks)
    callForks.push_back({caller, slot});
}

} // namespace

void *sdfgrt::forkRoot(void *stream) {
  // Each step goes to a fork logged earlier than the slot's own (a slot is
  // forked from a stream the call already had), so this ends; the bound
  // guards against a log that says otherwise.
  for (size_t steps = 0; steps < callForks.size(); ++steps) {
    auto it = std::find_if(callForks.begin(), callForks.end(),
                           [&](const Fork &fork) { return fork.slot == stream; });
    if (it == callForks.end())
      break;
    stream = it->caller;
  }
  return stream;
}

bool sdfgrt::isCallForkSlot(void *stream) {
  for (const Fork &fork : callForks)
    if (fork.slot == stream)
      return true;
  return false;
}

void sdfgrt::forgetStreamPoolsForTesting() { streamPool().forget(); }

StreamPoolCounts sdfgrt::streamPoolForTesting(uint64_t contextId) {
  StreamPoolCounts counts = streamPool().counts(contextId);
  counts.leased = static_cast<int64_t>(threadLeases.of(contextId).size());
  return counts;
}

//===----------------------------------------------------------------------===//
// C ABI: the streams of a program call
//===----------------------------------------------------------------------===//

int32_t sdfgrtForkStreams(void *caller, int32_t count, void **slots) {
  auto unforked = [&] {
    for (int32_t k = 0; slots && k < count; ++k)
      slots[k] = caller;
  };
  unforked();
  bool started = startOperation();
  if (!started || !validSlotCount("sdfgrtForkStreams", count) || count == 1)
    return operationStatus(started);
  if (!slots) {
    recordFailure("sdfgrtForkStreams: no slots to fill");
    return operationStatus(started);
  }
  const Symbols *symbols = vendorSymbols();
  bool leased = false;
  if (symbols)
    inStreamContext(*symbols, caller,
                    [&](const Symbols &symbols, Stream s, Context context) {
                      ContextRef ref;
                      leased =
                          identify(symbols, context, ref) &&
                          leaseStreams(symbols, s, ref, count - 1, slots + 1);
                    });
  if (!leased || !orderAfter(*symbols, caller, slots + 1, count - 1)) {
    unforked();
    return operationStatus(started);
  }
  for (int32_t k = 1; k < count; ++k)
    logFork(caller, slots[k]);
  return 0;
}

int32_t sdfgrtReserveStreams(void *stream, int32_t count) {
  bool started = startHostOperation();
  if (!started || !validSlotCount("sdfgrtReserveStreams", count) || count == 1)
    return operationStatus(started);
  if (const Symbols *symbols = vendorSymbols())
    inStreamContext(*symbols, stream,
                    [&](const Symbols &symbols, Stream s, Context context) {
                      ContextRef ref;
                      if (identify(symbols, context, ref))
                        leaseStreams(symbols, s, ref, count - 1, nullptr);
                    });
  return operationStatus(started);
}
