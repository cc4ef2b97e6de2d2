//===- GraphCache.cpp - Graph mode: each program's graphs and buffers -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What graph mode keeps per program and context: for each segment of a call
// (GraphRecording.cpp) the executable graph built for it (GraphSegments.cpp
// builds, updates and launches it), and the program's transient buffers,
// one per allocation of a call, kept across calls so that the graphs'
// addresses stay valid; at most a limit of programs per context, the least
// recently used one released first.
//
// Ordering: CUDA orders each launch of one executable graph after the
// earlier ones, on any stream, but the buffers are also used by eager
// operations; so the end of each call is marked by an event, which the next
// call waits for when it runs on another stream, and so does the release of
// the buffers. One thread at a time holds a program's graphs; a call of the
// same program on another thread meanwhile runs eagerly.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "GraphMode/GraphMode.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

using namespace sdfgrt;

namespace {

/// Allocations past this many in one call are ordinary transients.
constexpr size_t kMaxBuffersPerProgram = 256;

struct GraphCache {
  std::mutex mutex; // guards everything here and each program's busy flag
  std::vector<std::unique_ptr<ProgramGraphs>> programs;
  uint64_t clock = 0;
  size_t limit = 16; // programs per context
};

GraphCache &graphCache() {
  static GraphCache *instance = new GraphCache;
  return *instance;
}

/// Releases everything of `graphs` (not held by a call): its buffers are
/// freed on `stream`, of its context, after its last call. Where `stream`
/// cannot be ordered after that call, the buffers are left allocated (a
/// leak, never a free under running work).
void releaseProgram(const Symbols &symbols, ProgramGraphs &graphs,
                    Stream stream) {
  bool ordered = !graphs.doneRecorded ||
                 SDFGRT_CALL(symbols, StreamWaitEvent, stream, graphs.done, 0);
  for (const ProgramBuffer &buffer : graphs.buffers) {
    if (!ordered || !buffer.pointer)
      continue;
    SDFGRT_CALL(symbols, MemFreeAsync,
                reinterpret_cast<vendor::DevicePtr>(buffer.pointer), stream);
    graphStatistics().bufferBytes -= static_cast<int64_t>(buffer.bytes);
  }
  graphs.buffers.clear();
  for (SegmentGraph &segment : graphs.segments)
    dropSegment(symbols, segment);
  releaseEvent(symbols, graphs.context, EventKind::Ordering, graphs.done,
               /*mayBePending=*/true);
}

} // namespace

bool sdfgrt::checkOutProgram(const Symbols &symbols, const char *program,
                             const ContextRef &context, Stream stream,
                             ProgramGraphs *&graphs) {
  GraphCache &cache = graphCache();
  graphs = nullptr;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    size_t inContext = 0;
    ProgramGraphs *oldest = nullptr;
    for (auto &entry : cache.programs) {
      if (entry->context.id != context.id)
        continue;
      if (entry->program == program) {
        if (entry->busy)
          return true;
        graphs = entry.get();
        break;
      }
      ++inContext;
      if (!entry->busy && (!oldest || entry->lastUse < oldest->lastUse))
        oldest = entry.get();
    }
    if (!graphs) {
      if (inContext >= cache.limit && oldest) {
        // Another program's clean-up: its failures are not this call's.
        withoutRecordingFailures(
            [&] { releaseProgram(symbols, *oldest, stream); });
        cache.programs.erase(std::find_if(
            cache.programs.begin(), cache.programs.end(),
            [&](const auto &entry) { return entry.get() == oldest; }));
      }
      auto created = std::make_unique<ProgramGraphs>();
      created->program = program;
      created->context = context;
      if (!acquireEvent(symbols, context, EventKind::Ordering, created->done))
        return false;
      graphs = created.get();
      cache.programs.push_back(std::move(created));
    }
    graphs->busy = true;
    graphs->lastUse = ++cache.clock;
  }
  // The buffers were last used by the program's last call, maybe on another
  // stream. Always waited for: a handle equal to the last stream's may be a
  // new stream (the old one destroyed while its work still runs, and its
  // handle reused), and on the same stream the wait costs nothing on the
  // GPU.
  if (graphs->doneRecorded &&
      !SDFGRT_CALL(symbols, StreamWaitEvent, stream, graphs->done, 0)) {
    checkInProgram(symbols, *graphs, stream);
    graphs = nullptr;
    return false;
  }
  return true;
}

void sdfgrt::checkInProgram(const Symbols &symbols, ProgramGraphs &graphs,
                            Stream stream) {
  if (SDFGRT_CALL(symbols, EventRecord, graphs.done, stream)) {
    graphs.doneRecorded = true;
  }
  std::lock_guard<std::mutex> lock(graphCache().mutex);
  graphs.busy = false;
}

bool sdfgrt::programBuffer(const Symbols &symbols, ProgramGraphs &graphs,
                           size_t index, size_t bytes, Stream stream,
                           void *&pointer) {
  pointer = nullptr;
  if (index >= kMaxBuffersPerProgram)
    return false;
  if (index < graphs.buffers.size() && graphs.buffers[index].bytes >= bytes) {
    pointer = graphs.buffers[index].pointer;
    return true;
  }
  if (index < graphs.buffers.size() && graphs.buffers[index].pointer) {
    // Too small for this call: the graphs that use it are ordered before
    // this call on `stream`, so it can go. (Null: an earlier growth failed
    // after the free.)
    ProgramBuffer &old = graphs.buffers[index];
    if (!SDFGRT_CALL(symbols, MemFreeAsync,
                     reinterpret_cast<vendor::DevicePtr>(old.pointer), stream))
      return false;
    graphStatistics().bufferBytes -= static_cast<int64_t>(old.bytes);
    old = ProgramBuffer{nullptr, 0};
  }
  vendor::DevicePtr allocated{};
  if (!SDFGRT_CALL(symbols, MemAllocAsync, &allocated, bytes, stream))
    return false;
  pointer = reinterpret_cast<void *>(allocated);
  if (index < graphs.buffers.size())
    graphs.buffers[index] = ProgramBuffer{pointer, bytes};
  else
    graphs.buffers.push_back(ProgramBuffer{pointer, bytes});
  graphStatistics().bufferBytes += static_cast<int64_t>(bytes);
  return true;
}

bool sdfgrt::isProgramBuffer(const ProgramGraphs &graphs,
                             const void *pointer) {
  for (const ProgramBuffer &buffer : graphs.buffers)
    if (buffer.pointer == pointer)
      return true;
  return false;
}

GraphStatistics &sdfgrt::graphStatistics() {
  static GraphStatistics *instance = new GraphStatistics;
  return *instance;
}


void sdfgrt::forgetGraphsForTesting() {
  GraphCache &cache = graphCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    // Without driver calls: the fake driver forgets its graphs too.
    cache.programs.clear();
    cache.limit = 16;
  }
  GraphStatistics &stats = graphStatistics();
  for (std::atomic<int64_t> *count :
       {&stats.builds, &stats.updates, &stats.nodesUpdated, &stats.replays,
        &stats.eagerCalls, &stats.bufferBytes})
    count->store(0);
  forgetGraphCallForTesting();
}

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

void sdfgrtSetGraphCacheLimit(int32_t programsPerContext) {
  GraphCache &cache = graphCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.limit = static_cast<size_t>(std::max<int32_t>(programsPerContext, 1));
}

int32_t sdfgrtReleaseGraphs(void *stream) {
  bool started = startHostOperation();
  const Symbols *symbols = started ? vendorSymbols() : nullptr;
  if (symbols)
    inStreamContext(*symbols, stream, [&](const Symbols &symbols, Stream s,
                                          Context context) {
      // A capture would record the frees into the caller's graph, where
      // they cannot free memory that is no graph allocation.
      if (refusedWhileCapturing(symbols, s,
                                "sdfgrtReleaseGraphs: the stream is "
                                "capturing a graph; release the graphs on "
                                "a stream that is not capturing"))
        return;
      ContextRef ref;
      if (!identify(symbols, context, ref))
        return;
      GraphCache &cache = graphCache();
      std::lock_guard<std::mutex> lock(cache.mutex);
      auto &programs = cache.programs;
      for (auto it = programs.begin(); it != programs.end();) {
        if ((*it)->context.id != ref.id || (*it)->busy) {
          ++it;
          continue;
        }
        releaseProgram(symbols, **it, s);
        it = programs.erase(it);
      }
    });
  return operationStatus(started);
}

void sdfgrtGetGraphStats(sdfgrtGraphStats *stats) {
  if (!stats)
    return;
  GraphStatistics &counts = graphStatistics();
  stats->builds = counts.builds.load();
  stats->updates = counts.updates.load();
  stats->nodesUpdated = counts.nodesUpdated.load();
  stats->replays = counts.replays.load();
  stats->eagerCalls = counts.eagerCalls.load();
  stats->bufferBytes = counts.bufferBytes.load();
  GraphCache &cache = graphCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  stats->programs = static_cast<int64_t>(cache.programs.size());
}
