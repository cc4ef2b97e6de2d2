//===- Modules.h - Kernels loaded per context -------------------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The modules that generated code registers (mgpuModuleLoad) and the
// kernels in them, loaded in a context when first launched there
// (Modules.cpp): what graph mode needs to put a kernel into a graph.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_LIB_RUNTIME_CORE_MODULES_H
#define SDFGSTREAM_LIB_RUNTIME_CORE_MODULES_H

#include "Core/VendorLibrary.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sdfgrt {

/// The vendor function of the FunctionRecord `function` in `context` (the
/// current one), loading its module there first if needed (Modules.cpp).
bool resolveKernel(const Symbols &symbols, void *function, Context context,
                   vendor::Function &handle);

/// The parameter sizes of the FunctionRecord `function`, which takes
/// `count` parameters, asked of the driver once (in `context`, current);
/// null if the driver cannot tell, or on a failure (recorded).
const std::vector<uint32_t> *kernelParamSizes(const Symbols &symbols,
                                              void *function, Context context,
                                              size_t count,
                                              int *maxThreads = nullptr);

/// Forgets the loaded module count and every cached function handle.
void forgetModulesForTesting();
} // namespace sdfgrt

#endif // SDFGSTREAM_LIB_RUNTIME_CORE_MODULES_H
