//===- StreamOperations.cpp - Memory operations on the caller's stream ----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Allocation, free, copy and memset of dense memory, and the stream
// synchronization that generated code asks for: all on the stream they are
// given, stream-ordered where the vendor allows. The allocations a program
// call makes are tracked until they are freed, so that a failed call frees
// them before it returns.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/StreamOperations.h"
#include "Core/StreamPool.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <mutex>
#include <unordered_set>
#include <vector>

using namespace sdfgrt;

namespace {

/// A stream-ordered (or managed) allocation that the current program call
/// made and has not freed: what a failed call frees before it returns.
struct CallTransient {
  void *pointer;
  void *stream;
};
// Not in ThreadState: only allocations and frees touch it.
thread_local std::vector<CallTransient> callTransients;

/// Hooks the transients into the end of every outermost call (below).
void registerTransientHooks();

/// Remembers `pointer`, allocated on `stream`, until it is freed or the
/// outermost program call ends.
void trackTransient(void *pointer, void *stream) {
  if (threadState.callDepth == 0)
    return;
  registerTransientHooks();
  callTransients.push_back({pointer, stream});
}

/// Forgets `pointer` (freed); the newest first, as frees usually mirror the
/// allocations.
void untrackTransient(void *pointer) {
  for (auto it = callTransients.rbegin(); it != callTransients.rend(); ++it) {
    if (it->pointer == pointer) {
      callTransients.erase(std::next(it).base());
      return;
    }
  }
}

/// Host-shared (managed) allocations, which are freed differently: managed
/// memory has no stream-ordered allocator.
struct ManagedAllocations {
  std::mutex mutex;
  std::unordered_set<void *> pointers;
  std::atomic<size_t> count{0};

  void add(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    pointers.insert(ptr);
    count.store(pointers.size(), std::memory_order_release);
  }
  /// Whether `ptr` is one (and forgets it); lock-free while there is none.
  bool remove(void *ptr) {
    if (count.load(std::memory_order_acquire) == 0)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    bool found = pointers.erase(ptr) != 0;
    count.store(pointers.size(), std::memory_order_release);
    return found;
  }
};

ManagedAllocations &managedAllocations() {
  static ManagedAllocations *instance = new ManagedAllocations;
  return *instance;
}

/// Managed allocation and free are not stream operations and a graph
/// capture cannot record them, so they are refused while `stream` is
/// being captured (nothing done, error -1).
bool managedRefusedWhileCapturing(const Symbols &symbols, Stream stream,
                                  const char *what) {
  return refusedWhileCapturing(
      symbols, stream,
      "%s: host-shared (managed) memory is not stream-ordered and cannot be "
      "allocated or freed while the stream is being captured into a graph",
      what);
}

/// Frees `ptr`: stream-ordered on `stream`, or, for managed memory, after
/// the host waited for `stream`.
void freeOnStream(const Symbols &symbols, void *ptr, Stream s) {
  if (managedAllocations().remove(ptr)) {
    // Work queued on the stream may still use the memory, and managed
    // memory has no stream-ordered free: the host waits for the stream
    // (never the device) first.
    if (managedRefusedWhileCapturing(symbols, s, "mgpuMemFree")) {
      managedAllocations().add(ptr);
      return;
    }
    if (SDFGRT_CALL(symbols, StreamSynchronize, s))
      SDFGRT_CALL(symbols, MemFree, reinterpret_cast<vendor::DevicePtr>(ptr));
    return;
  }
  SDFGRT_CALL(symbols, MemFreeAsync, reinterpret_cast<vendor::DevicePtr>(ptr),
              s);
}

/// Frees, on its own stream, every allocation the failed program call made
/// and did not free.
void freeCallTransients() {
  // The call has failed (its later operations are skipped), but these frees
  // run.
  if (callTransients.empty())
    return;
  withoutRecordingFailures([] {
    const Symbols *symbols = vendorSymbols();
    for (auto it = callTransients.rbegin();
         symbols && it != callTransients.rend(); ++it) {
      void *ptr = it->pointer;
      inStreamContext(*symbols, it->stream,
                      [&](const Symbols &symbols, Stream s, Context) {
                        freeOnStream(symbols, ptr, s);
                      });
    }
  });
  callTransients.clear();
}

/// Forgets the allocations of the program call that ends or begins.
void forgetCallTransients() { callTransients.clear(); }

/// Makes each allocation of the failed program call be freed on the stream
/// its stream was forked from, transitively (forkRoot), instead of its own:
/// after the forks join, that stream is ordered after every slot.
void moveCallTransientsToForkRoots() {
  for (CallTransient &transient : callTransients)
    transient.stream = forkRoot(transient.stream);
}

/// Hooks the transients into the end of every outermost call, once per
/// process, before the first one is tracked. A failed call's slots join
/// the streams they came from first (the stream pool's hook); the frees
/// then go on the stream each allocation's slot was forked from
/// (transitively: the caller's), ordered after every slot that may still
/// use the memory, not only after its own. (The negative control frees
/// first, on the allocation's own stream.)
void registerTransientHooks() {
  static const bool registered = [] {
    registerCallHook(CallPhase::Begin, &forgetCallTransients);
    if constexpr (kNegativeControl) {
      registerCallHook(CallPhase::FailedBeforeJoin, &freeCallTransients);
    } else {
      registerCallHook(CallPhase::FailedBeforeJoin,
                       &moveCallTransientsToForkRoots);
      registerCallHook(CallPhase::FailedAfterJoin, &freeCallTransients);
    }
    registerCallHook(CallPhase::End, &forgetCallTransients);
    return true;
  }();
  (void)registered;
}

} // namespace

/// Sets `count` dense elements of `elementSize` bytes to `value`. No
/// vendor sets 64-bit elements: one element is set as two 32-bit words,
/// then copied onto the next ones, doubling the set part each time
/// (log2(count) copies, all stream-ordered and capturable).
bool sdfgrt::fillDense(const Symbols &symbols, char *dst, int64_t elementSize,
                       uint64_t value, size_t count, Stream stream) {
  auto ptr = [](char *p) { return reinterpret_cast<vendor::DevicePtr>(p); };
  switch (elementSize) {
  case 1:
    return SDFGRT_CALL(symbols, MemsetD8Async, ptr(dst),
                       static_cast<uint8_t>(value), count, stream);
  case 2:
    return SDFGRT_CALL(symbols, MemsetD16Async, ptr(dst),
                       static_cast<uint16_t>(value), count, stream);
  case 4:
    return SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst),
                       static_cast<uint32_t>(value), count, stream);
  default:
    break;
  }
  auto low = static_cast<uint32_t>(value),
       high = static_cast<uint32_t>(value >> 32);
  if (low == high)
    return SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst), low, 2 * count,
                       stream);
  if (!SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst), low, 1, stream) ||
      !SDFGRT_CALL(symbols, MemsetD32Async, ptr(dst + 4), high, 1, stream))
    return false;
  for (size_t done = 1; done < count;) {
    size_t step = std::min(done, count - done);
    if (!vendor::memcpyAsync(symbols, dst + done * 8, dst, step * 8, stream))
      return false;
    done += step;
  }
  return true;
}

namespace {

/// A memset of `count` dense elements of `elementSize` bytes on `stream`.
void setDense(void *dst, int64_t elementSize, uint64_t value, size_t count,
              void *stream) {
  if (count == 0)
    return;
  // Graph mode records what one memset node does: 1-, 2- and 4-byte
  // elements (and 8-byte ones whose two halves are equal).
  bool halvesEqual = static_cast<uint32_t>(value) == (value >> 32);
  bool oneNode = elementSize <= 4 || (elementSize == 8 && halvesEqual);
  if (oneNode &&
      offerWork(StreamWork::Kind::Set, stream, [&](StreamWork &work) {
        work.dst = dst;
        work.value = static_cast<uint32_t>(value);
        work.elementSize =
            elementSize <= 4 ? static_cast<unsigned>(elementSize) : 4;
        work.count = elementSize <= 4 ? count : 2 * count;
      }))
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    fillDense(symbols, static_cast<char *>(dst), elementSize, value, count, s);
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// C ABI: operations on the caller's stream
//===----------------------------------------------------------------------===//

void mgpuStreamSynchronize(void *stream) {
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, StreamSynchronize, s);
  });
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  void *result = nullptr;
  if (!isHostShared &&
      offerWork(
          StreamWork::Kind::Alloc, stream,
          [&](StreamWork &work) { work.bytes = sizeBytes; }, &result))
    return result;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    if (isHostShared) {
      vendor::DevicePtr ptr{};
      if (!managedRefusedWhileCapturing(symbols, s, "mgpuMemAlloc") &&
          vendor::allocateManaged(symbols, ptr, sizeBytes)) {
        result = reinterpret_cast<void *>(ptr);
        managedAllocations().add(result);
      }
    } else {
      vendor::DevicePtr ptr{};
      if (SDFGRT_CALL(symbols, MemAllocAsync, &ptr, sizeBytes, s))
        result = reinterpret_cast<void *>(ptr);
    }
    if (result)
      trackTransient(result, stream);
  });
  return result;
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || offerWork(StreamWork::Kind::Free, stream,
                        [&](StreamWork &work) { work.dst = ptr; }))
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    freeOnStream(symbols, ptr, s);
    if (!threadState.operationFailed)
      untrackTransient(ptr);
  });
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes == 0 || dst == src)
    return;
  auto to = reinterpret_cast<uintptr_t>(dst);
  auto from = reinterpret_cast<uintptr_t>(src);
  bool disjoint = to + sizeBytes <= from || from + sizeBytes <= to;
  if (disjoint &&
      offerWork(StreamWork::Kind::Copy, stream, [&](StreamWork &work) {
        work.dst = dst;
        work.src = src;
        work.bytes = sizeBytes;
      }))
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    if (disjoint) {
      vendor::memcpyAsync(symbols, dst, src, sizeBytes, s);
      return;
    }
    // Overlapping ranges (a shift within one buffer): vendor copies are not
    // memmoves, so copy through a stream-ordered temporary.
    vendor::DevicePtr staging{};
    if (!SDFGRT_CALL(symbols, MemAllocAsync, &staging, sizeBytes, s))
      return;
    void *temporary = reinterpret_cast<void *>(staging);
    if (vendor::memcpyAsync(symbols, temporary, src, sizeBytes, s))
      vendor::memcpyAsync(symbols, dst, temporary, sizeBytes, s);
    SDFGRT_CALL(symbols, MemFreeAsync, staging, s);
  });
}

// The three dense memsets of the C ABI, one per element size, are one
// implementation (setDense).
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  setDense(dst, sizeof(value), value, count, stream);
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  setDense(dst, sizeof(value), value, count, stream);
}

void sdfgrtMemset8(void *dst, uint8_t value, size_t count, void *stream) {
  setDense(dst, sizeof(value), value, count, stream);
}
