//===- StateScopes.cpp - Map scopes and order of a state's nodes ----------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "StateScopes.h"
#include "ProgramEmitter.h"

#include <queue>

using namespace mlir;
using namespace mlir::sdfg::dace;

FailureOr<StateScopes>
mlir::sdfg::dace::analyzeScopes(ProgramEmitter &e, const ControlFlowBlock &block) {
  const State &state = block.state;
  size_t count = state.nodes.size();
  StateScopes scopes;
  scopes.parent.assign(count, -1);
  scopes.exitOf.assign(count, -1);

  // Kahn's algorithm, the smallest file index first.
  std::vector<size_t> inDegree(count, 0);
  std::vector<std::vector<size_t>> successors(count);
  std::vector<std::vector<size_t>> predecessors(count);
  for (const StateEdge &edge : state.edges) {
    size_t src = state.byId.at(edge.src), dst = state.byId.at(edge.dst);
    successors[src].push_back(dst);
    predecessors[dst].push_back(src);
    ++inDegree[dst];
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < count; ++i)
    if (inDegree[i] == 0)
      ready.push(i);
  while (!ready.empty()) {
    size_t next = ready.top();
    ready.pop();
    scopes.order.push_back(next);
    for (size_t successor : successors[next])
      if (--inDegree[successor] == 0)
        ready.push(successor);
  }
  if (scopes.order.size() != count) {
    e.error(block.path) << "the dataflow of state '" << block.label
                        << "' has a cycle";
    return failure();
  }

  for (size_t i : scopes.order) {
    const Node &node = state.nodes[i];
    if (predecessors[i].empty())
      continue;
    size_t src = predecessors[i].front();
    const Node &source = state.nodes[src];
    // The scope the source's outputs are in.
    int64_t scope = source.kind == Node::Kind::MapEntry ? int64_t(src)
                    : source.kind == Node::Kind::MapExit
                        ? scopes.parent[src]
                        : scopes.parent[src];
    if (node.kind != Node::Kind::MapExit) {
      scopes.parent[i] = scope;
      continue;
    }
    // A MapExit closes the scope its inputs are in.
    if (scope < 0 || scopes.exitOf[scope] >= 0) {
      e.error(node.path) << "MapExit '" << node.label << "' (node " << node.id
                         << ") closes no open map";
      return failure();
    }
    scopes.exitOf[scope] = i;
    scopes.parent[i] = scopes.parent[scope];
  }

  // The innermost scope holding every access node of a transient that is
  // used only inside maps.
  llvm::StringMap<std::vector<int64_t>> accesses;
  for (size_t i = 0; i < count; ++i)
    if (state.nodes[i].kind == Node::Kind::Access)
      accesses[state.nodes[i].data].push_back(scopes.parent[i]);
  auto ancestors = [&](int64_t scope) {
    std::vector<int64_t> chain;
    for (; scope >= 0; scope = scopes.parent[scope])
      chain.insert(chain.begin(), scope);
    return chain;
  };
  for (auto &[name, parents] : accesses) {
    if (llvm::is_contained(parents, -1))
      continue;
    std::vector<int64_t> common = ancestors(parents.front());
    for (int64_t parent : parents) {
      std::vector<int64_t> chain = ancestors(parent);
      size_t same = 0;
      while (same < common.size() && same < chain.size() &&
             common[same] == chain[same])
        ++same;
      common.resize(same);
    }
    scopes.homes[name] = common.empty() ? -1 : common.back();
  }
  return scopes;
}
