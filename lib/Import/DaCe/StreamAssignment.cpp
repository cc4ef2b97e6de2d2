//===- StreamAssignment.cpp - DaCe's CUDA streams as stream slots ---------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The same numbering as dace/codegen/targets/cuda.py::CUDACodeGen.
// _compute_cudastreams, per state: every source node that is not an access
// node opens a stream; a depth-first walk over the edges (in file order,
// dace/sdfg/graph.py::dfs_edges) gives a node's first successor its stream
// and each further one a new stream; an edge from a node without a stream
// opens one; nothing inside a GPU scope opens one. With
// max_concurrent_streams N > 0 the numbers wrap modulo N, with -1 everything
// is on one stream. DaCe then joins the streams with events and syncs the
// host at the state's end; here the numbers become sdfg.stream_slot and the
// stream passes order the slots by what each one reads and writes.
//
//===----------------------------------------------------------------------===//

#include "ProgramEmitter.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::sdfg::dace;

int64_t mlir::sdfg::dace::assignStreams(
    const SDFGModel &, const State &state, int64_t maxConcurrentStreams,
    llvm::DenseMap<int64_t, int64_t> &slots) {
  if (maxConcurrentStreams < 0)
    return 1;
  auto increment = [&](int64_t stream) {
    return maxConcurrentStreams > 0 ? (stream + 1) % maxConcurrentStreams
                                    : stream + 1;
  };
  size_t count = state.nodes.size();
  std::vector<std::vector<const StateEdge *>> outEdges(count);
  std::vector<size_t> inDegree(count, 0);
  for (const StateEdge &edge : state.edges) {
    outEdges[state.byId.at(edge.src)].push_back(&edge);
    ++inDegree[state.byId.at(edge.dst)];
  }
  // Nodes inside a GPU_Device scope: the walk below does not open streams
  // there. A node is inside when a GPU map entry reaches it before its exit.
  std::vector<bool> childPath(count, false);
  llvm::DenseMap<int64_t, int64_t> stream;
  int64_t maxStreams = 0;
  std::vector<size_t> sources;
  for (size_t i = 0; i < count; ++i)
    if (inDegree[i] == 0)
      sources.push_back(i);
  for (size_t i : sources) {
    const Node &node = state.nodes[i];
    if (node.kind == Node::Kind::Access)
      continue;
    stream[node.id] = maxStreams;
    maxStreams = increment(maxStreams);
  }
  // Depth-first over the edges from the sources, yielding every edge.
  llvm::DenseSet<size_t> visited;
  for (size_t start : sources) {
    if (!visited.insert(start).second)
      continue;
    std::vector<std::pair<size_t, size_t>> stack{{start, 0}};
    while (!stack.empty()) {
      auto &[current, next] = stack.back();
      if (next >= outEdges[current].size()) {
        stack.pop_back();
        continue;
      }
      const StateEdge *edge = outEdges[current][next++];
      size_t dst = state.byId.at(edge->dst);
      size_t src = current;
      bool pushed = visited.insert(dst).second;
      const Node &dstNode = state.nodes[dst];
      const Node &srcNode = state.nodes[src];
      if (!stream.count(dstNode.id)) {
        int64_t assigned;
        if (stream.count(srcNode.id)) {
          assigned = stream[srcNode.id];
          if (childPath[src]) {
            assigned = maxStreams;
            maxStreams = increment(maxStreams);
          }
          childPath[src] = true;
          // No new streams inside GPU scopes.
          if (srcNode.kind == Node::Kind::MapEntry &&
              srcNode.schedule == Schedule::GPUDevice)
            childPath[src] = false;
        } else {
          assigned = maxStreams;
          maxStreams = increment(maxStreams);
        }
        stream[dstNode.id] = assigned;
      }
      if (pushed)
        stack.push_back({dst, 0});
    }
  }
  for (auto [id, value] : stream)
    slots[id] = value;
  return maxConcurrentStreams == 0 ? maxStreams : maxConcurrentStreams;
}
