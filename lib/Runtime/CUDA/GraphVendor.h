//===- GraphVendor.h - CUDA graphs for graph mode ---------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What graph mode (GraphCache.cpp) needs of CUDA: the parameter sizes of a
// kernel, so that its arguments can be kept until the graph is built, and
// graphs built node by node (not captured: a node's handle is what an
// in-place update of the instantiated graph names), instantiated, launched
// on the caller's stream and updated node by node.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CUDA_CUDAGRAPHVENDOR_H
#define SDFGSTREAM_LIB_RUNTIME_CUDA_CUDAGRAPHVENDOR_H

#include <cstdint>
#include <vector>

namespace sdfgrt {
namespace vendor {

constexpr bool kHasGraphs = true;
using Graph = CUgraph;
using GraphExec = CUgraphExec;
using GraphNode = CUgraphNode;

/// The byte sizes of the `count` parameters of `function`; false, with
/// nothing recorded, where the driver cannot tell (cuFuncGetParamInfo is
/// CUDA 12.4 and later): graph mode then runs the launch eagerly.
inline bool kernelParamSizes(const Symbols &symbols, Function function,
                             size_t count, std::vector<uint32_t> &sizes) {
  if (!symbols.FuncGetParamInfo)
    return false;
  sizes.clear();
  for (size_t i = 0; i < count; ++i) {
    size_t offset = 0, size = 0;
    if (symbols.FuncGetParamInfo(function, i, &offset, &size) != CUDA_SUCCESS)
      return false;
    sizes.push_back(static_cast<uint32_t>(size));
  }
  return true;
}

/// The most threads a block of `function` may have (its launch bounds and
/// registers); the device's 1024 where the driver cannot tell.
inline int kernelMaxThreadsPerBlock(const Symbols &symbols, Function function) {
  int value = 0;
  if (!symbols.FuncGetAttribute ||
      symbols.FuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                               function) != CUDA_SUCCESS ||
      value <= 0)
    return 1024;
  return value;
}

/// Whether the device takes a launch of `function` in this shape; one it
/// refuses is left to an eager launch, which fails the call there.
inline bool launchShapeIsValid(int maxThreads, const unsigned (&grid)[3],
                               const unsigned (&block)[3]) {
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  return grid[0] && grid[1] && grid[2] && threads && block[0] <= 1024 &&
         block[1] <= 1024 && block[2] <= 64 && grid[0] <= 0x7fffffffu &&
         grid[1] <= 65535 && grid[2] <= 65535 &&
         threads <= uint64_t(maxThreads);
}

/// A kernel node: the function in the graph's context, its launch shape and
/// its arguments (pointers to each parameter's bytes).
struct KernelNode {
  Function function;
  unsigned grid[3], block[3], smem;
  void **params;
};

inline CUDA_KERNEL_NODE_PARAMS kernelNodeParams(const KernelNode &kernel) {
  CUDA_KERNEL_NODE_PARAMS params = {};
  params.func = kernel.function;
  params.gridDimX = kernel.grid[0];
  params.gridDimY = kernel.grid[1];
  params.gridDimZ = kernel.grid[2];
  params.blockDimX = kernel.block[0];
  params.blockDimY = kernel.block[1];
  params.blockDimZ = kernel.block[2];
  params.sharedMemBytes = kernel.smem;
  params.kernelParams = kernel.params;
  return params;
}

/// A dense copy between any two unified addresses, as cuMemcpyAsync does.
inline CUDA_MEMCPY3D copyNodeParams(void *dst, const void *src, size_t bytes) {
  CUDA_MEMCPY3D copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.srcDevice = reinterpret_cast<DevicePtr>(src);
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstDevice = reinterpret_cast<DevicePtr>(dst);
  copy.WidthInBytes = bytes;
  copy.Height = 1;
  copy.Depth = 1;
  return copy;
}

inline CUDA_MEMSET_NODE_PARAMS setNodeParams(void *dst, uint32_t value,
                                             unsigned elementSize,
                                             size_t count) {
  CUDA_MEMSET_NODE_PARAMS set = {};
  set.dst = reinterpret_cast<DevicePtr>(dst);
  set.value = value;
  set.elementSize = elementSize;
  set.width = count;
  set.height = 1;
  return set;
}

inline bool createGraph(const Symbols &symbols, Graph &graph) {
  return SDFGRT_CALL(symbols, GraphCreate, &graph, 0);
}

/// Adds a node after `after` (none if null): the graph is one chain, in
/// the order the operations were enqueued, as on a stream.
inline bool addKernelNode(const Symbols &symbols, Graph graph, GraphNode after,
                          const KernelNode &kernel, GraphNode &node) {
  CUDA_KERNEL_NODE_PARAMS params = kernelNodeParams(kernel);
  return SDFGRT_CALL(symbols, GraphAddKernelNode, &node, graph,
                     after ? &after : nullptr, after ? 1 : 0, &params);
}

inline bool addCopyNode(const Symbols &symbols, Graph graph, GraphNode after,
                        void *dst, const void *src, size_t bytes,
                        Context context, GraphNode &node) {
  CUDA_MEMCPY3D copy = copyNodeParams(dst, src, bytes);
  return SDFGRT_CALL(symbols, GraphAddMemcpyNode, &node, graph,
                     after ? &after : nullptr, after ? 1 : 0, &copy, context);
}

inline bool addSetNode(const Symbols &symbols, Graph graph, GraphNode after,
                       void *dst, uint32_t value, unsigned elementSize,
                       size_t count, Context context, GraphNode &node) {
  CUDA_MEMSET_NODE_PARAMS set = setNodeParams(dst, value, elementSize, count);
  return SDFGRT_CALL(symbols, GraphAddMemsetNode, &node, graph,
                     after ? &after : nullptr, after ? 1 : 0, &set, context);
}

inline bool instantiateGraph(const Symbols &symbols, Graph graph,
                             GraphExec &exec) {
  return SDFGRT_CALL(symbols, GraphInstantiate, &exec, graph, 0);
}

/// Launches `exec` on `stream`. CUDA orders each launch of one executable
/// graph after its earlier launches, on any stream.
inline bool launchGraph(const Symbols &symbols, GraphExec exec, Stream stream) {
  return SDFGRT_CALL(symbols, GraphLaunch, exec, stream);
}

/// In-place updates of one node of `exec`, for its later launches (launches
/// already enqueued keep what they had).
inline bool updateKernelNode(const Symbols &symbols, GraphExec exec,
                             GraphNode node, const KernelNode &kernel) {
  CUDA_KERNEL_NODE_PARAMS params = kernelNodeParams(kernel);
  return SDFGRT_CALL(symbols, GraphExecKernelNodeSetParams, exec, node,
                     &params);
}

inline bool updateCopyNode(const Symbols &symbols, GraphExec exec,
                           GraphNode node, void *dst, const void *src,
                           size_t bytes, Context context) {
  CUDA_MEMCPY3D copy = copyNodeParams(dst, src, bytes);
  return SDFGRT_CALL(symbols, GraphExecMemcpyNodeSetParams, exec, node, &copy,
                     context);
}

inline bool updateSetNode(const Symbols &symbols, GraphExec exec,
                          GraphNode node, void *dst, uint32_t value,
                          unsigned elementSize, size_t count,
                          Context context) {
  CUDA_MEMSET_NODE_PARAMS set = setNodeParams(dst, value, elementSize, count);
  return SDFGRT_CALL(symbols, GraphExecMemsetNodeSetParams, exec, node, &set,
                     context);
}

/// Destroys what exists of a graph and its executable form; an executable
/// graph still running is freed when it completes.
inline void destroyGraph(const Symbols &symbols, Graph graph,
                         GraphExec exec) {
  if (exec)
    SDFGRT_CALL(symbols, GraphExecDestroy, exec);
  if (graph)
    SDFGRT_CALL(symbols, GraphDestroy, graph);
}

} // namespace vendor
} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CUDA_CUDAGRAPHVENDOR_H
