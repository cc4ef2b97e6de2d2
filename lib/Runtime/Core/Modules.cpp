//===- Modules.cpp - Modules, functions and kernel launches -----*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A registered module (mgpuModuleLoad*) is only a record of its image: it is
// loaded in a context when a kernel of it is first launched there, and a
// function handle (mgpuModuleGetFunction) is looked up in each context its
// module is loaded in; both are kept per context (PerContextCache). The
// launches run on the caller's stream.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/Modules.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

using namespace sdfgrt;

namespace {

struct FunctionRecord;

/// A module loaded in a context.
struct LoadedModule {
  Context context;
  vendor::Module module;
};

/// A registered kernel binary (or PTX/ISA for the JIT variant) and the
/// contexts it has been loaded in, by context id.
struct ModuleRecord {
  ModuleRecord(const void *data, int jitOptimizationLevel)
      : data(data), jitOptimizationLevel(jitOptimizationLevel) {}
  const void *data;
  int jitOptimizationLevel; // -1: a binary
  PerContextCache<uint64_t, LoadedModule> loaded;
  std::mutex mutex; // guards functions
  std::unordered_map<std::string_view, std::unique_ptr<FunctionRecord>>
      functions;
};

/// The handle mgpuModuleGetFunction returns: a kernel by name, looked up in
/// each context its module is loaded in (by context id).
struct FunctionRecord {
  FunctionRecord(ModuleRecord &module, const char *name)
      : module(module), name(name) {}
  ModuleRecord &module;
  std::string name;
  PerContextCache<uint64_t, vendor::Function> resolved;
  // Its parameters' sizes (graph mode), the same in every context: asked
  // of the driver once (under the module's lock).
  enum class Layout { Unknown, Known, Unavailable };
  std::atomic<Layout> layout{Layout::Unknown};
  std::vector<uint32_t> paramSizes;
  // The most threads a block may have (asked with the sizes).
  int maxThreadsPerBlock = 1024;
};

std::atomic<int64_t> loadedModuleCount{0};

// Bumped by every unload, so cached function handles of a freed module
// (whose address may be reused) never answer again.
std::atomic<uint64_t> moduleGeneration{1};

// mgpuModuleGetFunction runs before every launch of generated code, always
// with the same constant name string; this per-thread cache, keyed by the
// module and the name's address, answers it without lock or hashing.
struct FunctionCacheEntry {
  const void *module;
  const char *name;
  FunctionRecord *function;
  uint64_t generation;
};
// Slots of the cache, picked by the name's address; two names that share
// one only cost a lookup under the module's lock.
constexpr size_t kFunctionCacheEntries = 16;
thread_local FunctionCacheEntry functionCache[kFunctionCacheEntries];

/// Bytes of a failed load's error log that its error text keeps (the text
/// has room for 1023 bytes, the vendor's words and the location included).
constexpr size_t kModuleLoadLogBytes = 640;

/// The log on one line, without trailing white space.
const char *logLine(char *log) {
  size_t length = strlen(log);
  while (length > 0 && isspace(static_cast<unsigned char>(log[length - 1])))
    log[--length] = '\0';
  std::replace_if(
      log, log + length, [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return log;
}

bool loadModule(const Symbols &symbols, ModuleRecord &module,
                const ContextRef &context, vendor::Module &handle) {
  LoadedModule found{};
  bool ok = module.loaded.get(context.id, found, [&](LoadedModule &loaded) {
    // Why a load failed (the JIT compiler's or the linker's errors, an image
    // for another architecture) is only in the driver's error log.
    char log[kModuleLoadLogBytes] = {};
    vendor::JitOption options[] = {vendor::kJitErrorLogBuffer,
                                   vendor::kJitErrorLogBufferSize,
                                   vendor::kJitOptimizationLevel};
    void *values[] = {
        log, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof(log))),
        reinterpret_cast<void *>(
            static_cast<intptr_t>(module.jitOptimizationLevel))};
    unsigned count = module.jitOptimizationLevel < 0 ? 2 : 3;
    vendor::Result result = symbols.ModuleLoadDataEx(
        &loaded.module, module.data, count, options, values);
    log[sizeof(log) - 1] = '\0';
    if (!vendor::check(Symbols::ModuleLoadDataExName, result, logLine(log)))
      return false;
    loaded.context = context.handle;
    loadedModuleCount.fetch_add(1, std::memory_order_relaxed);
    return true;
  });
  handle = found.module;
  return ok;
}

/// The vendor function of `function` in `context` (the current one),
/// loading its module there first if needed.
bool resolveFunction(const Symbols &symbols, void *function, Context context,
                     vendor::Function &handle) {
  auto *record = static_cast<FunctionRecord *>(function);
  if (!record) {
    recordFailure("no kernel to launch: mgpuModuleGetFunction was given a "
                  "null module or name");
    return false;
  }
  ContextRef ref;
  if (!identify(symbols, context, ref))
    return false;
  return record->resolved.get(ref.id, handle, [&](vendor::Function &found) {
    vendor::Module module;
    return loadModule(symbols, record->module, ref, module) &&
           SDFGRT_CALL(symbols, ModuleGetFunction, &found, module,
                       record->name.c_str());
  });
}

} // namespace

bool sdfgrt::resolveKernel(const Symbols &symbols, void *function,
                           Context context, vendor::Function &handle) {
  return resolveFunction(symbols, function, context, handle);
}

const std::vector<uint32_t> *
sdfgrt::kernelParamSizes(const Symbols &symbols, void *function,
                         Context context, size_t count, int *maxThreads) {
  using Layout = FunctionRecord::Layout;
  auto *record = static_cast<FunctionRecord *>(function);
  if (record->layout.load(std::memory_order_acquire) == Layout::Unknown) {
    std::lock_guard<std::mutex> lock(record->module.mutex);
    if (record->layout.load(std::memory_order_relaxed) == Layout::Unknown) {
      vendor::Function handle;
      if (!resolveFunction(symbols, function, context, handle))
        return nullptr;
      bool known = false;
      if constexpr (vendor::kHasGraphs) {
        known =
            vendor::kernelParamSizes(symbols, handle, count, record->paramSizes);
        record->maxThreadsPerBlock =
            vendor::kernelMaxThreadsPerBlock(symbols, handle);
      }
      record->layout.store(known ? Layout::Known : Layout::Unavailable,
                           std::memory_order_release);
    }
  }
  if (record->layout.load(std::memory_order_acquire) != Layout::Known ||
      record->paramSizes.size() != count)
    return nullptr;
  if (maxThreads)
    *maxThreads = record->maxThreadsPerBlock;
  return &record->paramSizes;
}

void sdfgrt::forgetModulesForTesting() {
  loadedModuleCount.store(0);
  moduleGeneration.fetch_add(1);
}

int64_t sdfgrtLoadedModuleCount(void) {
  return loadedModuleCount.load(std::memory_order_relaxed);
}

//===----------------------------------------------------------------------===//
// C ABI: modules
//===----------------------------------------------------------------------===//

void *mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  return new ModuleRecord(data, -1);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return new ModuleRecord(data, optLevel < 0 ? 0 : optLevel);
}

void mgpuModuleUnload(void *module) {
  auto *record = static_cast<ModuleRecord *>(module);
  if (!record)
    return;
  moduleGeneration.fetch_add(1, std::memory_order_release);
  // A module that was never launched was never loaded: no vendor work.
  const Symbols *symbols = nullptr;
  Context current = kNoContext;
  if (!record->loaded.empty() && startOperation() &&
      (symbols = vendorSymbols()) && vendor::currentContext(*symbols, current))
    record->loaded.forEach([&](uint64_t id, const LoadedModule &loaded) {
      // A module of a destroyed context was unloaded with it.
      if (vendor::contextAlive(*symbols, loaded.context, id))
        inContext(*symbols, loaded.context, current,
                  [&] { SDFGRT_CALL(*symbols, ModuleUnload, loaded.module); });
    });
  delete record;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module || !name)
    return nullptr;
  uint64_t generation = moduleGeneration.load(std::memory_order_acquire);
  FunctionCacheEntry &entry =
      functionCache[(reinterpret_cast<uintptr_t>(name) >> 3) %
                    kFunctionCacheEntries];
  if (entry.module == module && entry.name == name &&
      entry.generation == generation)
    return entry.function;
  auto *record = static_cast<ModuleRecord *>(module);
  std::lock_guard<std::mutex> lock(record->mutex);
  auto it = record->functions.find(name);
  if (it == record->functions.end()) {
    auto function = std::make_unique<FunctionRecord>(*record, name);
    std::string_view key = function->name;
    it = record->functions.emplace(key, std::move(function)).first;
  }
  entry = {module, name, it->second.get(), generation};
  return entry.function;
}

//===----------------------------------------------------------------------===//
// C ABI: kernel launches on the caller's stream
//===----------------------------------------------------------------------===//

namespace {
/// A grid, block or cluster shape as the vendor APIs take it.
struct Dims {
  Dims(intptr_t x, intptr_t y, intptr_t z)
      : value{static_cast<unsigned>(x), static_cast<unsigned>(y),
              static_cast<unsigned>(z)} {}
  unsigned value[3];
};
} // namespace

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  if (!extra &&
      offerWork(StreamWork::Kind::Launch, stream, [&](StreamWork &work) {
        work.function = function;
        std::memcpy(work.grid, Dims(gridX, gridY, gridZ).value,
                    sizeof(work.grid));
        std::memcpy(work.block, Dims(blockX, blockY, blockZ).value,
                    sizeof(work.block));
        work.smem = static_cast<unsigned>(smem);
        work.params = params;
        work.paramCount = paramsCount;
      }))
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context context) {
    vendor::Function handle;
    if (resolveFunction(symbols, function, context, handle) &&
        vendor::allowDynamicSharedMemory(symbols, handle, smem))
      SDFGRT_CALL(symbols, LaunchKernel, handle, gridX, gridY, gridZ, blockX,
                  blockY, blockZ, smem, s, params, extra);
  });
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t /*paramsCount*/) {
  const Dims cluster(clusterX, clusterY, clusterZ), grid(gridX, gridY, gridZ),
      block(blockX, blockY, blockZ);
  if constexpr (!vendor::kHasClusterLaunch) {
    // Refused before any vendor work, like host-shared allocations.
    if (startOperation())
      recordFailure("mgpuLaunchClusterKernel: thread block clusters are not "
                    "supported by %s",
                    vendor::kName);
  } else {
    onStream(stream, [&](const Symbols &symbols, Stream s, Context context) {
      vendor::Function handle;
      if (resolveFunction(symbols, function, context, handle) &&
          vendor::allowDynamicSharedMemory(symbols, handle, smem))
        vendor::launchClusterKernel(symbols, handle, cluster.value, grid.value,
                                    block.value, smem,
                                    s, params, extra);
    });
  }
}
