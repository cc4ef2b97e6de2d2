//===- GraphCache.cpp - Graph mode: each program's graphs and buffers -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What graph mode keeps per program and context: for each segment of a call
// (GraphRecording.cpp) the executable graph built for it, with the
// operations it was built or last updated for, and the program's transient
// buffers, one per allocation of a call, kept across calls so that the
// graphs' addresses stay valid. A segment whose operations are those of its
// graph launches it as it is; one with the same nodes but other arguments
// updates those nodes in place first (cuGraphExec*NodeSetParams: cheaper
// than building, and launches in flight keep what they had); any other is
// built again.
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

#include "GraphShared.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

using namespace sdfgrt;

namespace {

/// Segments past this many in one call run eagerly (a program that loops
/// over host syncs): the cache stays bounded.
constexpr size_t kMaxSegmentsPerProgram = 64;
/// Allocations past this many in one call are ordinary transients.
constexpr size_t kMaxBuffersPerProgram = 256;

struct SegmentGraph {
  RecordedOps recorded; // what `exec` runs now
  vendor::Graph graph{};
  vendor::GraphExec exec{};
  std::vector<vendor::GraphNode> nodes;
};

struct Buffer {
  void *pointer;
  size_t bytes;
};

struct Statistics {
  std::atomic<int64_t> builds{0}, updates{0}, nodesUpdated{0}, replays{0},
      eagerCalls{0}, bufferBytes{0};
};

Statistics &statistics() {
  static Statistics *instance = new Statistics;
  return *instance;
}

} // namespace

struct sdfgrt::ProgramGraphs {
  const char *program;
  ContextRef context;
  std::vector<SegmentGraph> segments;
  std::vector<Buffer> buffers;
  vendor::Event done{}; // recorded at the end of each call
  bool doneRecorded = false;
  Stream lastStream{};
  bool busy = false; // a thread's call holds it
  uint64_t lastUse = 0;
};

namespace {

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

void dropSegment(const Symbols &symbols, SegmentGraph &segment) {
  if constexpr (vendor::kHasGraphs)
    vendor::destroyGraph(symbols, segment.graph, segment.exec);
  segment = SegmentGraph{};
}

/// Releases everything of `graphs` (not held by a call): its buffers are
/// freed on `stream`, of its context, after its last call.
void releaseProgram(const Symbols &symbols, ProgramGraphs &graphs,
                    Stream stream) {
  if (graphs.doneRecorded)
    SDFGRT_CALL(symbols, StreamWaitEvent, stream, graphs.done, 0);
  for (const Buffer &buffer : graphs.buffers) {
    SDFGRT_CALL(symbols, MemFreeAsync,
                reinterpret_cast<vendor::DevicePtr>(buffer.pointer), stream);
    statistics().bufferBytes -= static_cast<int64_t>(buffer.bytes);
  }
  graphs.buffers.clear();
  for (SegmentGraph &segment : graphs.segments)
    dropSegment(symbols, segment);
  releaseEvent(symbols, graphs.context, EventKind::Ordering, graphs.done,
               /*mayBePending=*/true);
}

/// The kernel node of `op`, its arguments pointing into `ops.arguments`.
bool kernelNode(const Symbols &symbols, const GraphOp &op,
                const RecordedOps &ops, Context context,
                std::vector<void *> &arguments, vendor::KernelNode &node) {
  if (!resolveKernel(symbols, op.function, context, node.function) ||
      !vendor::allowDynamicSharedMemory(symbols, node.function,
                                        static_cast<int32_t>(op.smem)))
    return false;
  arguments.clear();
  const char *bytes = ops.arguments.data() + op.argumentsBegin;
  for (uint32_t size : *op.paramSizes) {
    arguments.push_back(const_cast<char *>(bytes));
    bytes += size;
  }
  std::copy(op.grid, op.grid + 3, node.grid);
  std::copy(op.block, op.block + 3, node.block);
  node.smem = op.smem;
  node.params = arguments.data();
  return true;
}

/// Builds and instantiates the graph of `ops`: one chain of nodes, in
/// their order.
bool buildSegment(const Symbols &symbols, const RecordedOps &ops,
                  Context context, SegmentGraph &segment) {
  if constexpr (!vendor::kHasGraphs) {
    return false;
  } else {
    if (!vendor::createGraph(symbols, segment.graph))
      return false;
    std::vector<void *> arguments;
    vendor::GraphNode last{};
    for (const GraphOp &op : ops.ops) {
      vendor::GraphNode node{};
      bool added = false;
      switch (op.kind) {
      case GraphOp::Kind::Kernel: {
        vendor::KernelNode kernel{};
        added = kernelNode(symbols, op, ops, context, arguments, kernel) &&
                vendor::addKernelNode(symbols, segment.graph, last, kernel,
                                      node);
        break;
      }
      case GraphOp::Kind::Copy:
        added = vendor::addCopyNode(symbols, segment.graph, last, op.dst,
                                    op.src, op.bytes, context, node);
        break;
      case GraphOp::Kind::Set:
        added = vendor::addSetNode(symbols, segment.graph, last, op.dst,
                                   op.value, op.elementSize, op.count, context,
                                   node);
        break;
      }
      if (!added)
        return false;
      segment.nodes.push_back(node);
      last = node;
    }
    if (!vendor::instantiateGraph(symbols, segment.graph, segment.exec))
      return false;
    segment.recorded = ops;
    ++statistics().builds;
    return true;
  }
}

/// Updates, in place, the nodes of `segment` whose operations in `ops`
/// differ; `segment` has the same nodes. Counts the nodes it updated.
bool updateSegment(const Symbols &symbols, const RecordedOps &ops,
                   Context context, SegmentGraph &segment, size_t &updated) {
  if constexpr (!vendor::kHasGraphs) {
    return false;
  } else {
    std::vector<void *> arguments;
    updated = 0;
    for (size_t i = 0; i < ops.ops.size(); ++i) {
      if (ops.sameOp(i, segment.recorded))
        continue;
      const GraphOp &op = ops.ops[i];
      vendor::GraphNode node = segment.nodes[i];
      bool done = false;
      switch (op.kind) {
      case GraphOp::Kind::Kernel: {
        vendor::KernelNode kernel{};
        done = kernelNode(symbols, op, ops, context, arguments, kernel) &&
               vendor::updateKernelNode(symbols, segment.exec, node, kernel);
        break;
      }
      case GraphOp::Kind::Copy:
        done = vendor::updateCopyNode(symbols, segment.exec, node, op.dst,
                                      op.src, op.bytes, context);
        break;
      case GraphOp::Kind::Set:
        done = vendor::updateSetNode(symbols, segment.exec, node, op.dst,
                                     op.value, op.elementSize, op.count,
                                     context);
        break;
      }
      if (!done)
        return false;
      ++updated;
    }
    if (updated)
      segment.recorded = ops;
    return true;
  }
}

/// Whether `segment`'s graph has a node for each operation of `ops` that
/// can take its arguments.
bool sameNodes(const SegmentGraph &segment, const RecordedOps &ops) {
  if (!segment.exec || segment.recorded.ops.size() != ops.ops.size())
    return false;
  for (size_t i = 0; i < ops.ops.size(); ++i)
    if (!ops.ops[i].sameNode(segment.recorded.ops[i]))
      return false;
  return true;
}

/// Whether every operation of `ops` is that of `recorded`.
bool sameArguments(const RecordedOps &recorded, const RecordedOps &ops) {
  for (size_t i = 0; i < ops.ops.size(); ++i)
    if (!ops.sameOp(i, recorded))
      return false;
  return true;
}

/// Runs `ops` eagerly on `stream`, as the entry points would have.
bool runEagerly(const Symbols &symbols, const RecordedOps &ops, Stream stream,
                Context context) {
  std::vector<void *> arguments;
  for (const GraphOp &op : ops.ops) {
    bool done = false;
    switch (op.kind) {
    case GraphOp::Kind::Kernel: {
      vendor::KernelNode kernel{};
      done = kernelNode(symbols, op, ops, context, arguments, kernel) &&
             SDFGRT_CALL(symbols, LaunchKernel, kernel.function,
                         kernel.grid[0], kernel.grid[1], kernel.grid[2],
                         kernel.block[0], kernel.block[1], kernel.block[2],
                         kernel.smem, stream, kernel.params, nullptr);
      break;
    }
    case GraphOp::Kind::Copy:
      done = vendor::memcpyAsync(symbols, op.dst, const_cast<void *>(op.src),
                                 op.bytes, stream);
      break;
    case GraphOp::Kind::Set:
      done = fillDense(symbols, static_cast<char *>(op.dst), op.elementSize,
                       op.value, op.count, stream);
      break;
    }
    if (!done)
      return false;
  }
  return true;
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
        releaseProgram(symbols, *oldest, stream);
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
  // The buffers were last used on another stream.
  if (graphs->doneRecorded && graphs->lastStream != stream &&
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
    graphs.lastStream = stream;
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
  if (index < graphs.buffers.size()) {
    // Too small for this call: the graphs that use it are ordered before
    // this call on `stream`, so it can go.
    Buffer &old = graphs.buffers[index];
    if (!SDFGRT_CALL(symbols, MemFreeAsync,
                     reinterpret_cast<vendor::DevicePtr>(old.pointer), stream))
      return false;
    statistics().bufferBytes -= static_cast<int64_t>(old.bytes);
    old = Buffer{nullptr, 0};
  }
  vendor::DevicePtr allocated{};
  if (!SDFGRT_CALL(symbols, MemAllocAsync, &allocated, bytes, stream))
    return false;
  pointer = reinterpret_cast<void *>(allocated);
  if (index < graphs.buffers.size())
    graphs.buffers[index] = Buffer{pointer, bytes};
  else
    graphs.buffers.push_back(Buffer{pointer, bytes});
  statistics().bufferBytes += static_cast<int64_t>(bytes);
  return true;
}

bool sdfgrt::isProgramBuffer(const ProgramGraphs &graphs,
                             const void *pointer) {
  for (const Buffer &buffer : graphs.buffers)
    if (buffer.pointer == pointer)
      return true;
  return false;
}

bool sdfgrt::launchSegment(const Symbols &symbols, ProgramGraphs &graphs,
                           size_t index, const RecordedOps &ops,
                           Stream stream, Context context, bool rebuild) {
  if (index >= kMaxSegmentsPerProgram) {
    if (index == kMaxSegmentsPerProgram)
      countEagerGraphCall();
    return runEagerly(symbols, ops, stream, context);
  }
  if (graphs.segments.size() <= index)
    graphs.segments.resize(index + 1);
  SegmentGraph &segment = graphs.segments[index];
  bool ready;
  if (sameNodes(segment, ops) &&
      (!rebuild || sameArguments(segment.recorded, ops))) {
    size_t updated = 0;
    ready = updateSegment(symbols, ops, context, segment, updated);
    if (ready && updated) {
      ++statistics().updates;
      statistics().nodesUpdated += static_cast<int64_t>(updated);
    } else if (ready) {
      ++statistics().replays;
    }
  } else {
    dropSegment(symbols, segment);
    ready = buildSegment(symbols, ops, context, segment);
  }
  if constexpr (vendor::kHasGraphs)
    if (ready && vendor::launchGraph(symbols, segment.exec, stream))
      return true;
  // No half-built or half-updated graph stays.
  dropSegment(symbols, segment);
  return false;
}

void sdfgrt::countEagerGraphCall() { ++statistics().eagerCalls; }

void sdfgrt::forgetGraphsForTesting() {
  GraphCache &cache = graphCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    for (auto &entry : cache.programs)
      entry.release(); // the fake driver forgets its graphs too
    cache.programs.clear();
    cache.limit = 16;
  }
  Statistics &stats = statistics();
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
  Statistics &counts = statistics();
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
