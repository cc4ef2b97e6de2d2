//===- GraphMode.h - What graph mode's files share --------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Graph mode sits above Core and is reached only through what it registers
// there: GraphRecording.cpp turns the GPU operations of a graph-mode call
// into recorded segments (the calling thread's state; the work the entry
// points offer through Core's dispatch, offerWork; the end-of-call hooks),
// GraphSegments.cpp builds a segment's graph, and GraphCache.cpp keeps what
// each program's segments became (executable graphs per program, context
// and segment, the program's transient buffers) and updates and launches
// them. This header is the interface between them.
//
// Why the runtime and not a capture of the caller's stream: a capture would
// enqueue every operation again on each call (the host cost graph mode is
// there to save) and would give the transients new addresses in each graph;
// recording costs a copy of each operation's arguments, and the transients
// are the program's own buffers, the same in every call.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_GRAPHMODE_GRAPHMODE_H
#define SDFGSTREAM_LIB_RUNTIME_GRAPHMODE_GRAPHMODE_H

#include "Core/Events.h"
#include "Core/Modules.h"
#include "Core/StreamOperations.h"
#include "Core/StreamPool.h"
#include "Core/VendorLibrary.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sdfgrt {

/// One recorded GPU operation of a segment.
struct GraphOp {
  enum class Kind : uint8_t { Kernel, Copy, Set };
  Kind kind;
  // Kernel: the FunctionRecord, the launch shape, the parameter sizes (the
  // FunctionRecord's, so comparing the pointers compares the layouts) and
  // where the argument bytes are in RecordedOps::arguments.
  void *function;
  unsigned grid[3], block[3], smem;
  const std::vector<uint32_t> *paramSizes;
  uint32_t argumentsBegin, argumentsBytes;
  // Copy (dst, src, bytes, and the driver's ids of the allocations they
  // are in: memory freed and allocated again at the same address is another
  // mapping, which a copy node fixes when it is built) and set (dst, value,
  // elementSize, count).
  void *dst;
  const void *src;
  size_t bytes;
  uint64_t dstBuffer, srcBuffer;
  uint32_t value;
  unsigned elementSize;
  size_t count;

  /// Whether a graph built for `other` has a node that can take this op's
  /// arguments in place: the same kind and, for kernels, the same function.
  bool sameNode(const GraphOp &other) const {
    return kind == other.kind && function == other.function &&
           paramSizes == other.paramSizes;
  }
};

/// The operations of one segment, in the order they were enqueued.
struct RecordedOps {
  std::vector<GraphOp> ops;
  std::vector<char> arguments;

  bool empty() const { return ops.empty(); }
  void clear() {
    ops.clear();
    arguments.clear();
  }
  /// Whether op `i` of this and of `other` would run the same work
  /// (`sameNode` and the same arguments).
  bool sameOp(size_t i, const RecordedOps &other) const {
    const GraphOp &a = ops[i], &b = other.ops[i];
    if (!a.sameNode(b))
      return false;
    switch (a.kind) {
    case GraphOp::Kind::Kernel:
      return std::memcmp(a.grid, b.grid, sizeof(a.grid)) == 0 &&
             std::memcmp(a.block, b.block, sizeof(a.block)) == 0 &&
             a.smem == b.smem && a.argumentsBytes == b.argumentsBytes &&
             // (A kernel without parameters has no bytes to compare, and
             // memcmp must not see the null data of an empty vector.)
             (a.argumentsBytes == 0 ||
              std::memcmp(arguments.data() + a.argumentsBegin,
                          other.arguments.data() + b.argumentsBegin,
                          a.argumentsBytes) == 0);
    case GraphOp::Kind::Copy:
      return a.dst == b.dst && a.src == b.src && a.bytes == b.bytes &&
             a.dstBuffer == b.dstBuffer && a.srcBuffer == b.srcBuffer;
    case GraphOp::Kind::Set:
      return a.dst == b.dst && a.value == b.value &&
             a.elementSize == b.elementSize && a.count == b.count;
    }
    return false;
  }
};

/// The executable graph of one segment (GraphSegments.cpp), with the
/// operations it runs now.
struct SegmentGraph {
  RecordedOps recorded;
  vendor::Graph graph{};
  vendor::GraphExec exec{};
  std::vector<vendor::GraphNode> nodes;
  bool eagerOnly = false; // its graph could not be built: run it eagerly
  bool updatedInPlace = false;  // some node was updated since it was built
  uint32_t unchangedLaunches = 0; // launches as it is since the last update
};

/// Destroys what exists of `segment`'s graph and forgets its operations
/// (and whether it runs eagerly).
void dropSegment(const Symbols &symbols, SegmentGraph &segment);

/// A transient buffer a program keeps across its calls.
struct ProgramBuffer {
  void *pointer;
  size_t bytes;
};

/// The graphs and transient buffers of one program in one context
/// (GraphCache.cpp); a thread's graph-mode call holds it from its first GPU
/// operation to its end.
struct ProgramGraphs {
  const char *program;
  ContextRef context;
  std::vector<SegmentGraph> segments;
  std::vector<ProgramBuffer> buffers;
  vendor::Event done{}; // recorded at the end of each call
  bool doneRecorded = false;
  bool busy = false; // a thread's call holds it (guarded by the cache)
  uint64_t lastUse = 0;
};

/// What graph mode did, process-wide (sdfgrtGetGraphStats).
struct GraphStatistics {
  std::atomic<int64_t> builds{0}, updates{0}, nodesUpdated{0}, replays{0},
      eagerCalls{0}, bufferBytes{0};
};
GraphStatistics &graphStatistics();

/// Takes `program`'s graphs in `context` (current) for the calling thread's
/// call on `stream`, making them if needed (and releasing the least recently
/// used program's beyond the limit); null, with nothing recorded, if another
/// thread holds them: that call runs eagerly. If the program's last call was
/// on another stream, `stream` waits for it first (its buffers are reused).
/// False on a vendor failure (recorded).
bool checkOutProgram(const Symbols &symbols, const char *program,
                     const ContextRef &context, Stream stream,
                     ProgramGraphs *&graphs);

/// Gives `graphs` back at the end of the call on `stream`: marks the end of
/// the call's work there, which the next call on another stream and the
/// release of the buffers wait for.
void checkInProgram(const Symbols &symbols, ProgramGraphs &graphs,
                    Stream stream);

/// The program's transient buffer number `index` of at least `bytes`,
/// allocated (or grown) on `stream`, which is the call's.
bool programBuffer(const Symbols &symbols, ProgramGraphs &graphs,
                   size_t index, size_t bytes, Stream stream, void *&pointer);

/// Whether `pointer` is one of the program's transient buffers (freeing it
/// in a call frees nothing: the buffer stays for the next call).
bool isProgramBuffer(const ProgramGraphs &graphs, const void *pointer);

/// Runs segment number `index` of the call, `ops`, on `stream` in
/// `context` (current): launches the cached graph, after updating the nodes
/// whose arguments changed (or, with `rebuild`, building it again if any
/// did), or builds it anew; a segment whose graph cannot be built runs
/// eagerly, then and in later calls. False on a failure of the launch or of
/// an eager operation (recorded; no graph that may be broken is kept).
bool launchSegment(const Symbols &symbols, ProgramGraphs &graphs,
                   size_t index, const RecordedOps &ops, Stream stream,
                   Context context, bool rebuild);

/// Counts the calling thread's graph-mode call as one that ran eagerly, in
/// part or whole (once per call; GraphRecording.cpp).
void countEagerGraphCall();

// sdfgrtSetGraphMode's modes.
inline constexpr int32_t kGraphModeOff = 0;
inline constexpr int32_t kGraphModeUpdate = 1;
inline constexpr int32_t kGraphModeRebuild = 2;

/// The graph mode that sdfgrtSetGraphMode gave `program`
/// (kGraphModeUpdate, kGraphModeRebuild or kGraphModeOff; GraphSettings.cpp).
int32_t graphModeOf(const char *program);

/// Forgets the calling thread's graph-mode call (GraphRecording.cpp).
void forgetGraphCallForTesting();

/// Forgets every program's graphs without destroying them (the test's fake
/// driver forgets them too).
void forgetGraphsForTesting();

} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_GRAPHMODE_GRAPHMODE_H
