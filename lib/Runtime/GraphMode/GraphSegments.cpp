//===- GraphSegments.cpp - Graph mode: a segment's graph ------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What graph mode does with one recorded segment (GraphRecording.cpp) and
// the graph its program keeps for it (GraphCache.cpp): launch the graph as
// it is when the segment's operations are those it was built for; update
// the nodes whose arguments changed, in place, when it has the same nodes
// (cuGraphExec*NodeSetParams: cheaper than building, and launches already
// enqueued keep what they had); otherwise build it again: one chain of
// nodes, in the order the operations were enqueued, as on a stream. Graphs
// are built node by node rather than captured, because a node's handle is
// what an in-place update names.
//
// An executable graph updated in place launches slower than one as built:
// on the H200 (driver 580), with another stream running, its device time
// was 33.4 us against 26.0 us for the same 10-node chain instantiated
// afresh, and stays so for every later launch (docs/benchmarks.md, "Graph
// mode on the H200"). So a segment whose arguments settle again after an update (its
// graph then launched unchanged a few times in a row) is built afresh once;
// arguments that keep changing keep the cheaper in-place updates.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "GraphMode/GraphMode.h"

#include <algorithm>
#include <vector>

using namespace sdfgrt;

namespace {

/// Segments past this many in one call run eagerly (a program that loops
/// over host syncs): the cache stays bounded.
constexpr size_t kMaxSegmentsPerProgram = 64;

/// Unchanged launches of an updated graph after which it is built afresh
/// (once: about 46 us of host time for the benchmark's 10 nodes, against
/// about 7 us of device time saved on each later launch). Arguments that
/// alternate between a few sets never get here: they keep updating.
constexpr uint32_t kUnchangedLaunchesBeforeFreshBuild = 3;

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
    ++graphStatistics().builds;
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

/// Whether `segment`'s graph, updated in place and since launched unchanged
/// often enough, is to be built afresh for `ops`, the same arguments again.
bool settledAfterUpdate(const SegmentGraph &segment, const RecordedOps &ops) {
  return segment.updatedInPlace &&
         segment.unchangedLaunches >= kUnchangedLaunchesBeforeFreshBuild &&
         sameArguments(segment.recorded, ops);
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

void sdfgrt::dropSegment(const Symbols &symbols, SegmentGraph &segment) {
  if constexpr (vendor::kHasGraphs)
    vendor::destroyGraph(symbols, segment.graph, segment.exec);
  segment = SegmentGraph{};
}

bool sdfgrt::launchSegment(const Symbols &symbols, ProgramGraphs &graphs,
                           size_t index, const RecordedOps &ops,
                           Stream stream, Context context, bool rebuild) {
  if (index >= kMaxSegmentsPerProgram) {
    countEagerGraphCall();
    return runEagerly(symbols, ops, stream, context);
  }
  if (graphs.segments.size() <= index)
    graphs.segments.resize(index + 1);
  SegmentGraph &segment = graphs.segments[index];
  if (segment.eagerOnly) {
    countEagerGraphCall();
    return runEagerly(symbols, ops, stream, context);
  }
  // Graph mode never fails a call that would succeed eagerly: an update the
  // driver refuses builds the graph again, and a graph it cannot build (a
  // memory kind its copy nodes do not take, no memory to instantiate) or
  // launch runs the segment eagerly, now and in later calls, which report
  // any failure of the operations themselves.
  bool ready = false;
  if (sameNodes(segment, ops) &&
      (!rebuild || sameArguments(segment.recorded, ops)) &&
      !settledAfterUpdate(segment, ops)) {
    size_t updated = 0;
    withoutRecordingFailures([&] {
      ready = updateSegment(symbols, ops, context, segment, updated);
    });
    if (ready && updated) {
      ++graphStatistics().updates;
      graphStatistics().nodesUpdated += static_cast<int64_t>(updated);
      segment.updatedInPlace = true;
      segment.unchangedLaunches = 0;
    } else if (ready) {
      ++graphStatistics().replays;
      ++segment.unchangedLaunches;
    }
  }
  if (!ready) {
    dropSegment(symbols, segment);
    withoutRecordingFailures(
        [&] { ready = buildSegment(symbols, ops, context, segment); });
    if (!ready) {
      dropSegment(symbols, segment);
      segment.eagerOnly = true;
      countEagerGraphCall();
      return runEagerly(symbols, ops, stream, context);
    }
  }
  bool launched = false;
  if constexpr (vendor::kHasGraphs)
    withoutRecordingFailures([&] {
      launched = ready && vendor::launchGraph(symbols, segment.exec, stream);
    });
  if (launched)
    return true;
  // A launch the driver refuses (no memory for it, say) enqueued nothing:
  // no graph that may be broken stays, and the segment runs eagerly, now
  // and in later calls, whose operations report their own failures (a
  // sticky error fails them too).
  dropSegment(symbols, segment);
  segment.eagerOnly = true;
  countEagerGraphCall();
  return runEagerly(symbols, ops, stream, context);
}

