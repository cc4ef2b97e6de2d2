//===- FakeCudaGraphs.cpp - CUDA graphs of the fake driver ----------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The graph entry points of the fake driver, as graph mode uses them: graphs
// built node by node (kernel nodes keep their argument bytes, which needs
// the kernel's parameter sizes from Driver::kernelParams, as
// cuFuncGetParamInfo answers them), instantiated (an executable graph is a
// copy of the nodes), updated node by node (the copy only) and launched:
// a launch runs the nodes in order on the stream, as the stream's own
// operations would (kernel nodes become Launch records marked fromGraph).
// Strict where the real driver is: every node of a chain must depend on a
// node of the same graph, and a destroyed graph or executable graph is an
// invalid handle.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriverInternal.h"

#include <cstring>
#include <deque>

using namespace fakecuda;
using namespace fakecuda::internal;

struct CUgraphNode_st {
  enum class Kind { Kernel, Copy, Set } kind;
  CUgraph graph;
  CUgraphNode after; // the node it depends on, or null
  // Kernel.
  CUfunction function;
  unsigned grid[3], block[3], smem;
  std::vector<char> arguments;
  // Copy and set.
  CUdeviceptr dst, src;
  size_t bytes;
  unsigned value, elementSize;
  size_t width;
};

struct CUgraph_st {
  std::deque<CUgraphNode_st> nodes;
  bool destroyed = false;
};

struct CUgraphExec_st {
  CUgraph graph;
  std::vector<CUgraphNode_st> nodes; // the graph's, as instantiated/updated
  bool destroyed = false;
};

namespace {

// Never freed (reachable, so leak checkers stay quiet).
// Never destroyed, as the driver's other state (FakeCudaDriver.cpp).
std::deque<CUgraph_st> &graphs = *new std::deque<CUgraph_st>();
std::deque<CUgraphExec_st> &execs = *new std::deque<CUgraphExec_st>();

CUresult checkGraph(CUgraph graph) {
  return graph && !graph->destroyed ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/// Adds `node` to `graph` after `dependencies` (at most one, of `graph`).
CUresult addNode(CUgraphNode *added, CUgraph graph,
                 const CUgraphNode *dependencies, size_t count,
                 CUgraphNode_st node) {
  if (CUresult result = checkGraph(graph))
    return result;
  if (count > 1 || (count == 1 && (!dependencies || !dependencies[0] ||
                                   dependencies[0]->graph != graph)))
    return CUDA_ERROR_INVALID_VALUE;
  node.graph = graph;
  node.after = count ? dependencies[0] : nullptr;
  graph->nodes.push_back(std::move(node));
  *added = &graph->nodes.back();
  return CUDA_SUCCESS;
}

/// A kernel node's fields from `params`; false if the kernel's parameter
/// sizes are unknown (the real driver always knows them).
bool kernelNode(const CUDA_KERNEL_NODE_PARAMS &params, CUgraphNode_st &node) {
  if (!params.func)
    return false;
  auto layout = driver().kernelParams.find(params.func->name);
  if (layout == driver().kernelParams.end() ||
      (!params.kernelParams && !layout->second.empty()))
    return false;
  node.kind = CUgraphNode_st::Kind::Kernel;
  node.function = params.func;
  node.grid[0] = params.gridDimX;
  node.grid[1] = params.gridDimY;
  node.grid[2] = params.gridDimZ;
  node.block[0] = params.blockDimX;
  node.block[1] = params.blockDimY;
  node.block[2] = params.blockDimZ;
  node.smem = params.sharedMemBytes;
  node.arguments.clear();
  for (size_t i = 0; i < layout->second.size(); ++i) {
    const char *bytes = static_cast<const char *>(params.kernelParams[i]);
    node.arguments.insert(node.arguments.end(), bytes,
                          bytes + layout->second[i]);
  }
  return true;
}

/// A copy node's fields: what graph mode builds (a dense 1-D copy between
/// unified addresses).
bool copyNode(const CUDA_MEMCPY3D &copy, CUgraphNode_st &node) {
  if (copy.srcMemoryType != CU_MEMORYTYPE_UNIFIED ||
      copy.dstMemoryType != CU_MEMORYTYPE_UNIFIED || copy.Height != 1 ||
      copy.Depth != 1)
    return false;
  node.kind = CUgraphNode_st::Kind::Copy;
  node.dst = copy.dstDevice;
  node.src = copy.srcDevice;
  node.bytes = copy.WidthInBytes;
  return true;
}

bool setNode(const CUDA_MEMSET_NODE_PARAMS &set, CUgraphNode_st &node) {
  if (set.height != 1 || (set.elementSize != 1 && set.elementSize != 2 &&
                          set.elementSize != 4))
    return false;
  node.kind = CUgraphNode_st::Kind::Set;
  node.dst = set.dst;
  node.value = set.value;
  node.elementSize = set.elementSize;
  node.width = set.width;
  return true;
}

/// Adds the node that `params` describe (`make` fills it in; false: not a
/// node graph mode builds) after `dependencies`.
template <typename Params>
CUresult addNodeFrom(CUgraphNode *node, CUgraph graph,
                     const CUgraphNode *dependencies, size_t count,
                     const Params *params,
                     bool (*make)(const Params &, CUgraphNode_st &)) {
  CUgraphNode_st added{};
  if (!params || !make(*params, added))
    return CUDA_ERROR_INVALID_VALUE;
  return addNode(node, graph, dependencies, count, std::move(added));
}

/// The executable graph's copy of `node`, or null.
CUgraphNode_st *execNode(CUgraphExec exec, CUgraphNode node) {
  if (!exec || exec->destroyed || !node || node->graph != exec->graph)
    return nullptr;
  for (size_t i = 0; i < exec->graph->nodes.size(); ++i)
    if (&exec->graph->nodes[i] == node)
      return &exec->nodes[i];
  return nullptr;
}

template <typename T> void fillWith(CUdeviceptr dst, unsigned value, size_t n) {
  T *data = reinterpret_cast<T *>(dst);
  for (size_t i = 0; i < n; ++i)
    data[i] = static_cast<T>(value);
}

} // namespace

CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
                            size_t *paramOffset, size_t *paramSize) {
  ENTER("cuFuncGetParamInfo");
  auto layout = driver().kernelParams.find(func->name);
  if (layout == driver().kernelParams.end() ||
      paramIndex >= layout->second.size())
    return CUDA_ERROR_INVALID_VALUE;
  size_t offset = 0;
  for (size_t i = 0; i < paramIndex; ++i)
    offset += layout->second[i];
  *paramOffset = offset;
  *paramSize = layout->second[paramIndex];
  return CUDA_SUCCESS;
}

CUresult cuGraphCreate(CUgraph *graph, unsigned int flags) {
  ENTER("cuGraphCreate");
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  graphs.emplace_back();
  *graph = &graphs.back();
  ++driver().graphsLive;
  return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph graph) {
  ENTER("cuGraphDestroy");
  if (CUresult result = checkGraph(graph))
    return result;
  graph->destroyed = true;
  --driver().graphsLive;
  return CUDA_SUCCESS;
}

CUresult cuGraphAddKernelNode(CUgraphNode *node, CUgraph graph,
                              const CUgraphNode *dependencies, size_t count,
                              const CUDA_KERNEL_NODE_PARAMS *params) {
  ENTER("cuGraphAddKernelNode");
  return addNodeFrom(node, graph, dependencies, count, params, kernelNode);
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *node, CUgraph graph,
                              const CUgraphNode *dependencies, size_t count,
                              const CUDA_MEMCPY3D *copy, CUcontext) {
  ENTER("cuGraphAddMemcpyNode");
  return addNodeFrom(node, graph, dependencies, count, copy, copyNode);
}

CUresult cuGraphAddMemsetNode(CUgraphNode *node, CUgraph graph,
                              const CUgraphNode *dependencies, size_t count,
                              const CUDA_MEMSET_NODE_PARAMS *set, CUcontext) {
  ENTER("cuGraphAddMemsetNode");
  return addNodeFrom(node, graph, dependencies, count, set, setNode);
}

CUresult cuGraphInstantiate(CUgraphExec *exec, CUgraph graph,
                            unsigned long long) {
  ENTER("cuGraphInstantiate");
  if (CUresult result = checkGraph(graph))
    return result;
  execs.push_back(CUgraphExec_st{graph, {}, false});
  execs.back().nodes.assign(graph->nodes.begin(), graph->nodes.end());
  *exec = &execs.back();
  ++driver().graphExecsLive;
  return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  ENTER("cuGraphExecDestroy");
  if (!exec || exec->destroyed)
    return CUDA_ERROR_INVALID_HANDLE;
  exec->destroyed = true;
  --driver().graphExecsLive;
  return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  ENTER("cuGraphLaunch");
  if (!exec || exec->destroyed)
    return CUDA_ERROR_INVALID_HANDLE;
  if (CUresult result = checkStream(stream))
    return result;
  ++driver().graphLaunches;
  driver().graphLaunchOrders.push_back(driver().nextOrder++);
  for (const CUgraphNode_st &node : exec->nodes) {
    switch (node.kind) {
    case CUgraphNode_st::Kind::Kernel: {
      std::vector<void *> params;
      std::vector<char> arguments = node.arguments;
      const std::vector<size_t> &sizes = driver().kernelParams[node.function->name];
      size_t offset = 0;
      for (size_t size : sizes) {
        params.push_back(arguments.data() + offset);
        offset += size;
      }
      const unsigned cluster[3] = {1, 1, 1};
      if (CUresult result = launch(node.function, node.grid, node.block,
                                   cluster, node.smem, stream, params.data()))
        return result;
      driver().launches.back().fromGraph = true;
      break;
    }
    case CUgraphNode_st::Kind::Copy:
      std::memcpy(reinterpret_cast<void *>(node.dst),
                  reinterpret_cast<const void *>(node.src), node.bytes);
      break;
    case CUgraphNode_st::Kind::Set:
      if (node.elementSize == 1)
        fillWith<uint8_t>(node.dst, node.value, node.width);
      else if (node.elementSize == 2)
        fillWith<uint16_t>(node.dst, node.value, node.width);
      else
        fillWith<uint32_t>(node.dst, node.value, node.width);
      break;
    }
  }
  driver().lastMemoryStream = stream;
  return CUDA_SUCCESS;
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_KERNEL_NODE_PARAMS *params) {
  ENTER("cuGraphExecKernelNodeSetParams");
  CUgraphNode_st *target = execNode(exec, node);
  if (!target || target->kind != CUgraphNode_st::Kind::Kernel || !params ||
      params->func != target->function)
    return CUDA_ERROR_INVALID_VALUE;
  CUgraphNode_st updated = *target;
  if (!kernelNode(*params, updated))
    return CUDA_ERROR_INVALID_VALUE;
  *target = std::move(updated);
  return CUDA_SUCCESS;
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_MEMCPY3D *copy, CUcontext) {
  ENTER("cuGraphExecMemcpyNodeSetParams");
  CUgraphNode_st *target = execNode(exec, node);
  if (!target || target->kind != CUgraphNode_st::Kind::Copy || !copy)
    return CUDA_ERROR_INVALID_VALUE;
  return copyNode(*copy, *target) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_MEMSET_NODE_PARAMS *set,
                                        CUcontext) {
  ENTER("cuGraphExecMemsetNodeSetParams");
  CUgraphNode_st *target = execNode(exec, node);
  if (!target || target->kind != CUgraphNode_st::Kind::Set || !set)
    return CUDA_ERROR_INVALID_VALUE;
  return setNode(*set, *target) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
