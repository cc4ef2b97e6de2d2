//===- Runtime.cpp - GPU runtime on the caller's stream, CUDA and HIP -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The one implementation of include/SDFGStream/Runtime/SDFGRuntime.h. It is
// compiled once per vendor (-DSDFGRT_VENDOR_CUDA, -DSDFGRT_VENDOR_HIP)
// against that vendor's description, which supplies the types, the symbol
// table and the few operations whose signatures differ.
//
// Nothing happens when the library is loaded or a module is registered: the
// vendor library is opened at the first GPU operation, and a module is
// loaded in a context when a kernel of it is first launched there. The
// vendor library is never linked, so one binary runs on machines with or
// without a GPU and reports a missing driver as an error.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#if defined(SDFGRT_VENDOR_CUDA)
#include "CUDA/CudaVendor.h"
#elif defined(SDFGRT_VENDOR_HIP)
#include "HIP/HipVendor.h"
#else
#error "compile with -DSDFGRT_VENDOR_CUDA or -DSDFGRT_VENDOR_HIP"
#endif

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

using namespace sdfgrt;
using vendor::Context;
using vendor::kNoContext;
using vendor::Stream;
using vendor::Symbols;

namespace {

//===----------------------------------------------------------------------===//
// Per-thread call and error state
//===----------------------------------------------------------------------===//

// A POD, so the thread_local needs no constructor or guard on each access.
struct ThreadState {
  int32_t callDepth;
  int32_t callError; // first failure since the outermost sdfgrtBeginCall
  int32_t lastError;
  bool operationFailed; // the running entry point has recorded its failure
  const char *location;
  char lastErrorText[1024];
  Counters counters;
};
thread_local ThreadState state;

void recordV(int32_t code, const char *format, va_list args) {
  // An operation's first failure is the cause; later ones in the same
  // operation (restoring the context after a failed launch) are not news.
  if (state.operationFailed)
    return;
  state.operationFailed = true;
  state.lastError = code;
  if (state.callDepth > 0 && state.callError == 0)
    state.callError = code;
  char *text = state.lastErrorText;
  size_t size = sizeof(state.lastErrorText);
  int used = vsnprintf(text, size, format, args);
  if (used >= 0 && static_cast<size_t>(used) < size)
    snprintf(text + used, size - used, " at %s",
             state.location ? state.location : "unknown location");
}

void record(int32_t code, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
void record(int32_t code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(code, format, args);
  va_end(args);
}

/// Starts an entry point that may do GPU work. False when an earlier
/// operation of the current program call failed: the rest of the call is
/// skipped, so the first failure is the one reported.
bool startOperation() {
  if (state.callDepth > 0 && state.callError != 0)
    return false;
  state.operationFailed = false;
  ++state.counters.operations;
  return true;
}

//===----------------------------------------------------------------------===//
// The vendor library
//===----------------------------------------------------------------------===//

constexpr const char *kVendorFailureFormat = "%s failed: %s (%s)";

enum class LibraryState { Unopened, Ready, Failed };

struct Library {
  std::mutex mutex;
  std::atomic<LibraryState> state{LibraryState::Unopened};
  Symbols symbols;
  Context defaultContext = kNoContext;
  // Why the library cannot be used; every later operation reports it.
  int32_t failureCode = 0;
  std::string failure;

  bool fail(int32_t code, const char *format, ...)
      __attribute__((format(printf, 3, 4))) {
    char text[sizeof(ThreadState::lastErrorText)];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    failureCode = code;
    failure = text;
    return false;
  }
};

// Never destroyed: generated code unloads its modules from global
// destructors, which may run after this library's own.
Library &library() {
  static Library *instance = new Library;
  return *instance;
}

template <typename Fn>
void resolve(void *handle, Fn &fn, const char *name, bool required,
             const char *&missing) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!fn && required && !missing)
    missing = name;
}

/// Opens the vendor library, fills the symbol table and initializes the
/// API, once per process (under the library's lock). The library stays
/// loaded; a failure is kept and not retried.
bool openLibrary(Library &lib) {
  const char *override = getenv(vendor::kLibraryEnvironmentVariable);
  std::string tried, error;
  void *handle = nullptr;
  const char *opened = nullptr;
  auto tryOpen = [&](const char *name) {
    ++state.counters.libraryOpens;
    tried.append(tried.empty() ? "" : ", ").append(name);
    if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      opened = name;
    else if (error.empty())
      error = dlerror();
    return handle != nullptr;
  };
  if (override) {
    tryOpen(override);
  } else {
    for (const char *name : vendor::kLibraryNames)
      if (tryOpen(name))
        break;
  }
  if (!handle)
    return lib.fail(kRuntimeFailure, "%s could not be loaded: %s%s%s%s",
                    tried.c_str(), error.c_str(),
                    override ? "" : " (to use another path, set ",
                    override ? "" : vendor::kLibraryEnvironmentVariable,
                    override ? "" : ")");

  Symbols &symbols = lib.symbols;
  const char *missing = nullptr;
#define SDFGRT_SYMBOL(role, function)                                          \
  resolve(handle, symbols.role, SDFGRT_STRINGIFY(function), true, missing);
#define SDFGRT_OPTIONAL_SYMBOL(role, function)                                 \
  resolve(handle, symbols.role, SDFGRT_STRINGIFY(function), false, missing);
#define SDFGRT_SYMBOL_TYPED(role, function, type) SDFGRT_SYMBOL(role, function)
#include SDFGRT_VENDOR_SYMBOLS
#undef SDFGRT_SYMBOL_TYPED
#undef SDFGRT_OPTIONAL_SYMBOL
#undef SDFGRT_SYMBOL
  if (missing)
    return lib.fail(kRuntimeFailure, "%s could not be resolved in %s", missing,
                    opened);

  ++state.counters.vendorCalls;
  vendor::Result result = symbols.Init(0);
  if (result != vendor::kSuccess)
    return lib.fail(result, kVendorFailureFormat, Symbols::InitName,
                    vendor::errorName(symbols, result),
                    vendor::errorString(symbols, result));
  return true;
}

/// The vendor symbol table, opening the library at the first operation;
/// null (with the reason recorded) if the library cannot be used.
const Symbols *vendorSymbols() {
  Library &lib = library();
  if (lib.state.load(std::memory_order_acquire) != LibraryState::Ready) {
    std::lock_guard<std::mutex> lock(lib.mutex);
    if (lib.state.load(std::memory_order_relaxed) == LibraryState::Unopened)
      lib.state.store(openLibrary(lib) ? LibraryState::Ready
                                       : LibraryState::Failed,
                      std::memory_order_release);
    if (lib.state.load(std::memory_order_relaxed) == LibraryState::Failed) {
      record(lib.failureCode, "%s", lib.failure.c_str());
      return nullptr;
    }
  }
  return &lib.symbols;
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

/// Chooses (once) the context of default-stream work on a thread that has
/// no current context; see vendor::defaultContext.
bool chooseDefaultContext(const Symbols &symbols, Context &context) {
  Library &lib = library();
  std::lock_guard<std::mutex> lock(lib.mutex);
  if (lib.defaultContext == kNoContext) {
    Context chosen = kNoContext;
    if (!vendor::defaultContext(symbols, chosen))
      return false;
    lib.defaultContext = chosen;
  }
  context = lib.defaultContext;
  return true;
}

/// Runs `body` with `context` current. The caller's thread normally has the
/// stream's context current already; only otherwise is it switched, and
/// restored afterwards.
template <typename Body>
void inContext(const Symbols &symbols, Context context, Context current,
               Body &&body) {
  if (context == current)
    return body();
  if (!vendor::enterContext(symbols, context))
    return;
  body();
  vendor::leaveContext(symbols, current);
}

/// Runs `body(symbols, stream, context)` for an operation on `rawStream`, in
/// the stream's context, unless the operation is skipped or the vendor
/// library is unusable.
template <typename Body> void onStream(void *rawStream, Body &&body) {
  const Symbols *symbols = startOperation() ? vendorSymbols() : nullptr;
  if (!symbols)
    return;
  Stream stream = static_cast<Stream>(rawStream);
  Context current = kNoContext, context = kNoContext;
  if (!vendor::currentContext(*symbols, current))
    return;
  // 0 (legacy default stream), 1 (CU_STREAM_LEGACY) and 2
  // (CU_STREAM_PER_THREAD, hipStreamPerThread) are handles of the current
  // context's default streams; they are passed on unchanged.
  if (reinterpret_cast<uintptr_t>(rawStream) <= 2)
    context = current;
  else if (!vendor::streamContext(*symbols, stream, context))
    return;
  if (context == kNoContext && !chooseDefaultContext(*symbols, context))
    return;
  inContext(*symbols, context, current,
            [&] { body(*symbols, stream, context); });
}

//===----------------------------------------------------------------------===//
// Modules and functions
//===----------------------------------------------------------------------===//

struct FunctionRecord;

/// A registered kernel binary (or PTX/ISA for the JIT variant) and the
/// contexts it has been loaded in.
struct ModuleRecord {
  ModuleRecord(const void *data, int jitOptimizationLevel)
      : data(data), jitOptimizationLevel(jitOptimizationLevel) {}
  const void *data;
  int jitOptimizationLevel; // -1: a binary
  PerContextCache<Context, vendor::Module> loaded;
  std::mutex mutex; // guards functions
  std::unordered_map<std::string_view, std::unique_ptr<FunctionRecord>>
      functions;
};

/// The handle mgpuModuleGetFunction returns: a kernel by name, looked up in
/// each context its module is loaded in.
struct FunctionRecord {
  FunctionRecord(ModuleRecord &module, const char *name)
      : module(module), name(name) {}
  ModuleRecord &module;
  std::string name;
  PerContextCache<Context, vendor::Function> resolved;
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
thread_local FunctionCacheEntry functionCache[16];

bool loadModule(const Symbols &symbols, ModuleRecord &module, Context context,
                vendor::Module &handle) {
  return module.loaded.get(context, handle, [&](vendor::Module &loaded) {
    bool ok;
    if (module.jitOptimizationLevel < 0) {
      ok = SDFGRT_CALL(symbols, ModuleLoadData, &loaded, module.data);
    } else {
      vendor::JitOption option = vendor::kJitOptimizationLevel;
      void *value = reinterpret_cast<void *>(
          static_cast<intptr_t>(module.jitOptimizationLevel));
      ok = SDFGRT_CALL(symbols, ModuleLoadDataEx, &loaded, module.data, 1,
                       &option, &value);
    }
    if (ok)
      loadedModuleCount.fetch_add(1, std::memory_order_relaxed);
    return ok;
  });
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
  return record->resolved.get(context, handle, [&](vendor::Function &found) {
    vendor::Module module;
    return loadModule(symbols, record->module, context, module) &&
           SDFGRT_CALL(symbols, ModuleGetFunction, &found, module,
                       record->name.c_str());
  });
}

} // namespace

bool sdfgrt::vendor::check(const char *function, Result result) {
  ++state.counters.vendorCalls;
  if (result == kSuccess)
    return true;
  const Symbols &symbols = library().symbols;
  record(static_cast<int32_t>(result), kVendorFailureFormat, function,
         errorName(symbols, result), errorString(symbols, result));
  return false;
}

void sdfgrt::recordFailure(const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(kRuntimeFailure, format, args);
  va_end(args);
}

//===----------------------------------------------------------------------===//
// C ABI: program calls and errors
//===----------------------------------------------------------------------===//

void sdfgrtBeginCall(void) {
  if (state.callDepth++ > 0)
    return;
  state.callError = 0;
  state.lastError = 0;
  state.lastErrorText[0] = '\0';
  state.location = nullptr;
}

int32_t sdfgrtEndCall(void) {
  if (state.callDepth > 0)
    --state.callDepth;
  return state.callError;
}

void sdfgrtSetLocation(const char *location) { state.location = location; }

const char *sdfgrtGetLastError(void) { return state.lastErrorText; }

int32_t sdfgrtGetLastErrorCode(void) { return state.lastError; }

void sdfgrtClearError(void) {
  state.lastError = 0;
  state.lastErrorText[0] = '\0';
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
    record->loaded.forEach([&](Context context, vendor::Module handle) {
      inContext(*symbols, context, current,
                [&] { SDFGRT_CALL(*symbols, ModuleUnload, handle); });
    });
  delete record;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module || !name)
    return nullptr;
  uint64_t generation = moduleGeneration.load(std::memory_order_acquire);
  FunctionCacheEntry &entry =
      functionCache[(reinterpret_cast<uintptr_t>(name) >> 3) % 16];
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
// C ABI: operations on the caller's stream
//===----------------------------------------------------------------------===//

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
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
  const unsigned cluster[3] = {static_cast<unsigned>(clusterX),
                               static_cast<unsigned>(clusterY),
                               static_cast<unsigned>(clusterZ)};
  const unsigned grid[3] = {static_cast<unsigned>(gridX),
                            static_cast<unsigned>(gridY),
                            static_cast<unsigned>(gridZ)};
  const unsigned block[3] = {static_cast<unsigned>(blockX),
                             static_cast<unsigned>(blockY),
                             static_cast<unsigned>(blockZ)};
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
        vendor::launchClusterKernel(symbols, handle, cluster, grid, block, smem,
                                    s, params, extra);
    });
  }
}

void mgpuStreamSynchronize(void *stream) {
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, StreamSynchronize, s);
  });
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared) {
    if (startOperation())
      recordFailure("mgpuMemAlloc: host-shared (managed) memory cannot be "
                    "allocated in stream order; refused");
    return nullptr;
  }
  void *result = nullptr;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    vendor::DevicePtr ptr{};
    if (SDFGRT_CALL(symbols, MemAllocAsync, &ptr, sizeBytes, s))
      result = reinterpret_cast<void *>(ptr);
  });
  return result;
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, MemFreeAsync, reinterpret_cast<vendor::DevicePtr>(ptr),
                s);
  });
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes == 0 || dst == src)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    auto to = reinterpret_cast<uintptr_t>(dst);
    auto from = reinterpret_cast<uintptr_t>(src);
    if (to + sizeBytes <= from || from + sizeBytes <= to) {
      vendor::memcpyAsync(symbols, dst, src, sizeBytes, s);
      return;
    }
    // Overlapping ranges (a shift within one buffer): vendor copies are not
    // memmoves, so copy through a stream-ordered temporary.
    vendor::DevicePtr staging{};
    if (!SDFGRT_CALL(symbols, MemAllocAsync, &staging, sizeBytes, s))
      return;
    void *temporary = reinterpret_cast<void *>(staging);
    if (vendor::memcpyAsync(symbols, temporary, src, sizeBytes, s))
      vendor::memcpyAsync(symbols, dst, temporary, sizeBytes, s);
    SDFGRT_CALL(symbols, MemFreeAsync, staging, s);
  });
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  if (count == 0)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, MemsetD32Async,
                reinterpret_cast<vendor::DevicePtr>(dst), value, count, s);
  });
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  if (count == 0)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, MemsetD16Async,
                reinterpret_cast<vendor::DevicePtr>(dst), value, count, s);
  });
}

void sdfgrtMemset8(void *dst, uint8_t value, size_t count, void *stream) {
  if (count == 0)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream s, Context) {
    SDFGRT_CALL(symbols, MemsetD8Async,
                reinterpret_cast<vendor::DevicePtr>(dst), value, count, s);
  });
}

//===----------------------------------------------------------------------===//
// Test hooks
//===----------------------------------------------------------------------===//

Counters sdfgrt::countersForTesting() { return state.counters; }

void sdfgrt::resetForTesting() {
  Library &lib = library();
  {
    std::lock_guard<std::mutex> lock(lib.mutex);
    lib.state.store(LibraryState::Unopened, std::memory_order_release);
    lib.symbols = Symbols();
    lib.defaultContext = kNoContext;
    lib.failureCode = 0;
    lib.failure.clear();
  }
  loadedModuleCount.store(0);
  moduleGeneration.fetch_add(1);
  state = ThreadState();
}

const char *sdfgrt::libraryEnvironmentVariableForTesting() {
  return vendor::kLibraryEnvironmentVariable;
}

std::vector<const char *> sdfgrt::libraryNamesForTesting() {
  return {std::begin(vendor::kLibraryNames), std::end(vendor::kLibraryNames)};
}
