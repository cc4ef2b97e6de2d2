//===- FakeCudaDriver.h - A CUDA driver without a GPU -----------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A stand-in for libcuda.so.1 that the runtime under test dlopens (through
// SDFGRT_CUDA_LIBRARY). It implements the driver entry points the runtime
// resolves, compiled against cuda.h so that its symbols carry the same
// versioned names, works on host memory, and is strict where the real driver
// may be lenient: every module, function, stream and event operation must
// be made with the right context current. It records what it was asked to
// do.
//
// Events live on a timeline that the test controls: a record stamps the
// event with Driver::now (milliseconds) and, unless the test says
// otherwise, completes it at once; cuEventElapsedTime answers the
// difference of two stamps, cuEventQuery whether the event completed.
// Streams keep their order: cuEventSynchronize completes the event and
// every event recorded before it on the same stream.
//
// Captures are in global mode and set by the test (capturing, captureId);
// as in the driver, a stream that waits on an event recorded in a capture
// joins that capture (until endCapture), one of another capture must not
// wait on it, and no stream may be created while any stream captures unless
// the creating thread exchanged its capture mode to relaxed.
//
// A context can be destroyed and a new one created under the same handle
// (recreateContext), as the real driver may reuse a freed handle: the new
// context gets a new id (cuCtxGetId), and the old one's streams, modules,
// functions and events are invalid handles in it.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVER_H
#define SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVER_H

#include <cuda.h>

#include <map>
#include <string>
#include <vector>

struct CUctx_st {
  int id;
  int device;
  unsigned long long driverId; // cuCtxGetId; new for every recreation
};
struct CUstream_st {
  CUcontext context;
  unsigned long long contextId; // the driverId of its context
  bool capturing; // set by the test: "being captured into a graph"
  unsigned long long captureId = 0; // of the capture, while capturing
  unsigned flags = 0;               // cuStreamCreate's
};
struct CUevent_st {
  CUcontext context;
  unsigned long long contextId;
  unsigned flags;
  bool recorded;
  CUstream stream; // of the last record
  double time;     // Driver::now at the last record
  long sequence;   // of the last record, in the order of all records
  bool complete;
  bool destroyed;
  bool captured = false; // the last record was in a capture: captureId's
  unsigned long long captureId = 0;
};
struct CUmod_st {
  CUcontext context;
  unsigned long long contextId;
  const void *image;
  int jitOptimizationLevel; // -1: no CU_JIT_OPTIMIZATION_LEVEL option
};
struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
struct CUfunc_st {
  CUmodule module;
  std::string name;
  int maxDynamicSharedBytes;
  bool nonPortableClusterSize;
};

namespace fakecuda {

struct Launch {
  std::string kernel;
  CUstream stream;
  CUcontext context; // current during the launch
  unsigned grid[3], block[3], cluster[3], smem;
  // The argument bytes, for a kernel whose parameter sizes the test gave
  // (Driver::kernelParams).
  std::vector<char> arguments;
  bool fromGraph = false; // a kernel node of a launched graph
};

// Records, waits and graph launches share one count (`order`), so a test
// can tell which came first.
struct EventRecord {
  CUevent event;
  CUstream stream;
  long order;
};

struct StreamWait {
  CUstream stream;
  CUevent event;
  CUstream eventStream; // where the event was last recorded
  long order;
};

/// An allocation cuPointerGetAttributes knows about.
struct Allocation {
  size_t size;
  int device;
  bool managed;
  uint64_t id = 0; // CU_POINTER_ATTRIBUTE_BUFFER_ID (0: none given)
};

/// A cuTensorMapEncodeTiled call, dimensions innermost first.
struct TensorMapRequest {
  CUtensorMapDataType dataType;
  unsigned rank;
  void *address;
  std::vector<unsigned long long> dims, strides;
  std::vector<unsigned> box;
};

struct Driver {
  // Calls by the name written in cuda.h (cuCtxPushCurrent, not *_v2).
  std::map<std::string, int> calls;
  // Makes every call of `failingCall` return `failure`.
  std::string failingCall;
  CUresult failure = CUDA_SUCCESS;
  // What a failing cuModuleLoadDataEx writes into the caller's error log
  // buffer (CU_JIT_ERROR_LOG_BUFFER), truncated to its size.
  std::string moduleLoadErrorLog;
  CUresult initResult = CUDA_SUCCESS;
  bool initialized = false;
  std::vector<CUmodule> loaded;   // in load order, never freed
  std::vector<CUmodule> unloaded; // in unload order
  std::vector<Launch> launches;
  CUstream lastMemoryStream = nullptr;
  // The GPU timeline, in milliseconds: what the next event record stamps.
  double now = 0;
  // Whether an event completes when recorded; if not, it stays "not ready"
  // until it or a later event of its stream is synchronized, or
  // completeEvents().
  bool eventsCompleteWhenRecorded = true;
  std::vector<CUevent> events; // in creation order, never freed
  std::vector<EventRecord> records;
  std::vector<StreamWait> waits;
  long nextOrder = 0;                   // of the next record, wait or free
  // Stream-ordered frees, in order.
  struct AsyncFree {
    CUdeviceptr pointer;
    CUstream stream;
    long order;
  };
  std::vector<AsyncFree> asyncFrees;
  std::vector<CUstream> createdStreams; // by cuStreamCreate, in order
  // Memory by base address: cuMemAllocAsync adds the stream's device's;
  // tests add their own (other devices, managed memory).
  std::map<uintptr_t, Allocation> allocations;
  // Host memory registered (cuMemHostRegister) by base address.
  struct HostRegistration {
    size_t size;
    unsigned flags;
    uint64_t id = 0; // CU_POINTER_ATTRIBUTE_BUFFER_ID
  };
  std::map<uintptr_t, HostRegistration> registeredHostMemory;
  uint64_t nextBufferId = 1; // of the next allocation or registration
  std::vector<TensorMapRequest> tensorMaps;
  // Graphs (FakeCudaGraphs.cpp): the parameter sizes of each kernel by name,
  // which cuFuncGetParamInfo answers (a kernel not listed has none it can
  // tell: CUDA_ERROR_INVALID_VALUE), and what was done with graphs.
  std::map<std::string, std::vector<size_t>> kernelParams;
  // The most threads a block of each kernel may have, by name
  // (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: its launch bounds, its
  // registers); 1024 for a kernel not listed. A launch past it, or past the
  // device's block and grid limits, fails with CUDA_ERROR_INVALID_VALUE.
  std::map<std::string, int> maxThreadsPerBlock;
  int graphsLive = 0;     // created and not destroyed
  int graphExecsLive = 0; // instantiated and not destroyed
  int graphLaunches = 0;
  std::vector<long> graphLaunchOrders; // `order` of each cuGraphLaunch

  int count(const std::string &call) const {
    auto it = calls.find(call);
    return it == calls.end() ? 0 : it->second;
  }
  int totalCalls() const;
};

/// The driver's state; the test and the runtime see the same instance.
Driver &driver();
/// Forgets everything, including the calling thread's current contexts.
void reset();
/// Distinct contexts: 0 and 2 are the primary contexts of devices 0 and 1;
/// 0 and 1 are on device 0, 2 and 3 on device 1.
CUcontext context(int id);
/// A new stream of `context`, as the test's caller would have made it
/// (not counted as a driver call).
CUstream createStream(CUcontext context);
/// Ends capture `id`: every stream in it stops capturing.
void endCapture(unsigned long long id);
/// The calling thread's capture mode (cuThreadExchangeStreamCaptureMode);
/// global unless exchanged.
CUstreamCaptureMode threadCaptureMode();
/// Destroys context `id` and creates a new one under the same handle and on
/// the same device, with a new cuCtxGetId id; returns the handle.
CUcontext recreateContext(int id);
/// The calling thread's current context (null: none).
CUcontext currentContext();
/// Completes every recorded event, as the GPU catching up would.
void completeEvents();
/// Events created and not destroyed.
int liveEvents();

} // namespace fakecuda

#endif // SDFGSTREAM_UNITTESTS_RUNTIME_FAKECUDADRIVER_H
