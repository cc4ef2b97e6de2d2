//===- GraphVendor.h - Graph mode on HIP: not available ---------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// Graph mode (GraphCache.cpp) keeps a kernel's arguments until it builds the
// graph, so it must know each parameter's size; CUDA reports them
// (cuFuncGetParamInfo), HIP 5.x has no such query. A graph-mode call on HIP
// therefore runs eagerly, exactly as without graph mode (kHasGraphs); the
// names below exist for the shared code's discarded `if constexpr`
// branches and are never defined.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_HIP_HIPGRAPHVENDOR_H
#define SDFGSTREAM_LIB_RUNTIME_HIP_HIPGRAPHVENDOR_H

#include <cstdint>
#include <vector>

namespace sdfgrt {
namespace vendor {

constexpr bool kHasGraphs = false;
using Graph = hipGraph_t;
using GraphExec = hipGraphExec_t;
using GraphNode = hipGraphNode_t;

struct KernelNode {
  Function function;
  unsigned grid[3], block[3], smem;
  void **params;
};

bool kernelParamSizes(const Symbols &symbols, Function function, size_t count,
                      std::vector<uint32_t> &sizes);
int kernelMaxThreadsPerBlock(const Symbols &symbols, Function function);
bool launchShapeIsValid(int maxThreads, const unsigned (&grid)[3],
                        const unsigned (&block)[3]);
bool createGraph(const Symbols &symbols, Graph &graph);
bool addKernelNode(const Symbols &symbols, Graph graph, GraphNode after,
                   const KernelNode &kernel, GraphNode &node);
bool addCopyNode(const Symbols &symbols, Graph graph, GraphNode after,
                 void *dst, const void *src, size_t bytes, Context context,
                 GraphNode &node);
bool addSetNode(const Symbols &symbols, Graph graph, GraphNode after, void *dst,
                uint32_t value, unsigned elementSize, size_t count,
                Context context, GraphNode &node);
bool instantiateGraph(const Symbols &symbols, Graph graph, GraphExec &exec);
bool launchGraph(const Symbols &symbols, GraphExec exec, Stream stream);
bool updateKernelNode(const Symbols &symbols, GraphExec exec, GraphNode node,
                      const KernelNode &kernel);
bool updateCopyNode(const Symbols &symbols, GraphExec exec, GraphNode node,
                    void *dst, const void *src, size_t bytes, Context context);
bool updateSetNode(const Symbols &symbols, GraphExec exec, GraphNode node,
                   void *dst, uint32_t value, unsigned elementSize,
                   size_t count, Context context);
void destroyGraph(const Symbols &symbols, Graph graph, GraphExec exec);

} // namespace vendor
} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_HIP_HIPGRAPHVENDOR_H
