//===- GraphRecording.cpp - Graph mode: recording a call's GPU work -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// A graph-mode call (sdfgrtBeginGraphCall) records the kernel launches,
// dense copies and memsets and the allocations and frees of its program,
// instead of enqueuing them, until something needs them to have run: an
// operation graph mode does not record (it calls startOperation, which
// launches the recording first), a host sync (the same), or the end of the
// call. Each such run of recorded operations is one segment, numbered in the
// call; GraphCache.cpp launches it as a graph. A call whose operations go
// to more than one stream, or any stream graph mode cannot use (a default
// stream, one the call forked, one being captured), runs eagerly from there
// on: the operations are the same, only not cached. A stream of another
// context than the current one records in its own context.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "GraphMode/GraphMode.h"

#include <cstring>
#include <mutex>

using namespace sdfgrt;

namespace {

/// Launches what the graph-mode call recorded so far (threadState.
/// graphPending); false on a failure (recorded). The core runs it before
/// any operation graph mode does not record (registerPendingWorkFlush).
bool flushGraphSegment();

/// At the end of the outermost call (a graph-mode call's), before its
/// failure clean-up: launches what is left unless the call failed, and
/// records nothing from then on.
void stopGraphRecording();

/// At the end of the outermost call, after its failure clean-up and joins
/// (one that held a program's graphs): gives the program's graphs back,
/// with an event after everything the call enqueued on the stream it
/// recorded for.
void checkInGraphCall();

/// The graph-mode call of the calling thread.
struct GraphCall {
  const char *program = nullptr;
  // Set at the first recorded operation.
  const Symbols *symbols = nullptr;
  ProgramGraphs *graphs = nullptr;
  Stream stream{};
  Context context = kNoContext;
  bool switchContext = false; // the thread's current context is another
  size_t segment = 0;     // number of the segment being recorded
  size_t allocations = 0; // allocations made in the call so far
  bool rebuild = false;   // build changed segments again, never update
  bool countedEager = false; // counted in sdfgrtGraphStats::eagerCalls
  RecordedOps recorded;

  /// Forgets the call, keeping the recording's memory for the next one (a
  /// replayed call then allocates nothing).
  void reset() {
    RecordedOps kept = std::move(recorded);
    kept.clear();
    *this = GraphCall{};
    recorded = std::move(kept);
  }
};
thread_local GraphCall graphCall;

/// Graph mode is off for the rest of the call; it goes on eagerly.
void stopRecording() {
  if (threadState.graphCall)
    countEagerGraphCall();
  threadState.graphCall = false;
}

/// Makes `rawStream` the stream the call records for, at its first
/// operation (taking the program's graphs), or checks that it is that
/// stream. False if the call must go on eagerly (graph mode stopped), or on
/// a failure (recorded).
bool attach(void *rawStream) {
  Stream stream = static_cast<Stream>(rawStream);
  if (graphCall.graphs) {
    if (stream == graphCall.stream)
      return true;
    // A second stream (concurrent slots): what was recorded runs, the rest
    // of the call eagerly.
    if (threadState.graphPending)
      flushGraphSegment();
    stopRecording();
    return false;
  }
  // A stream the call forked (a concurrent slot) is no stream the program's
  // done event could follow all of the call's work on: eagerly.
  if (isCallForkSlot(rawStream)) {
    stopRecording();
    return false;
  }
  const Symbols *symbols = vendorSymbols();
  Context current = kNoContext, context = kNoContext;
  bool capturing = false, held = false;
  ContextRef ref;
  if (vendor::kHasGraphs && symbols &&
      reinterpret_cast<uintptr_t>(rawStream) > 2 &&
      vendor::currentContext(*symbols, current) &&
      vendor::streamContext(*symbols, stream, context) &&
      identify(*symbols, context, ref))
    inContext(*symbols, context, current, [&] {
      held = isCapturing(*symbols, stream, capturing) && !capturing &&
             checkOutProgram(*symbols, graphCall.program, ref, stream,
                             graphCall.graphs) &&
             graphCall.graphs;
    });
  if (!held) {
    // Eagerly, as without graph mode (a caller's capture records the
    // operations); a failure above is the call's.
    stopRecording();
    return false;
  }
  threadState.graphHeld = true;
  graphCall.symbols = symbols;
  graphCall.stream = stream;
  graphCall.context = context;
  graphCall.switchContext = context != current;
  return true;
}

/// Runs `body` in the call's context: the stream's, made current for it
/// when the thread's current context is another one (as onStream does).
template <typename Body> bool inCallContext(Body &&body) {
  if (!graphCall.switchContext) {
    body();
    return true;
  }
  Context current = kNoContext;
  return vendor::currentContext(*graphCall.symbols, current) &&
         inContext(*graphCall.symbols, graphCall.context, current, body);
}

GraphOp &appendOp(GraphOp::Kind kind) {
  graphCall.recorded.ops.push_back(GraphOp{});
  GraphOp &op = graphCall.recorded.ops.back();
  op.kind = kind;
  threadState.graphPending = true;
  return op;
}

} // namespace

void sdfgrt::countEagerGraphCall() {
  if (graphCall.countedEager)
    return;
  graphCall.countedEager = true;
  ++graphStatistics().eagerCalls;
}

//===----------------------------------------------------------------------===//
// Taking the work that eager entry points offer (offerWork)
//===----------------------------------------------------------------------===//

namespace {

bool recordLaunch(void *function, const unsigned (&grid)[3],
                  const unsigned (&block)[3], unsigned smem, void *stream,
                  void **params, size_t count) {
  if (!startRecordedOperation())
    return true;
  if (!function || !attach(stream))
    return false;
  const std::vector<uint32_t> *sizes = nullptr;
  int maxThreads = 1024;
  inCallContext([&] {
    sizes = kernelParamSizes(*graphCall.symbols, function, graphCall.context,
                             count, &maxThreads);
  });
  if (!sizes) {
    if (threadState.operationFailed)
      return true;
    // The driver cannot tell the sizes: this launch, and the rest of the
    // call, eagerly.
    if (threadState.graphPending)
      flushGraphSegment();
    stopRecording();
    return false;
  }
  if constexpr (vendor::kHasGraphs && !kNegativeControl) {
    if (!vendor::launchShapeIsValid(maxThreads, grid, block)) {
      // A launch the device refuses (too many threads per block, a grid
      // past its limits) fails the call here, as it does eagerly, not when
      // the segment is launched: what was recorded goes first, then this
      // launch eagerly.
      if (threadState.graphPending)
        flushGraphSegment();
      return false;
    }
  }
  GraphOp &op = appendOp(GraphOp::Kind::Kernel);
  op.function = function;
  std::memcpy(op.grid, grid, sizeof(op.grid));
  std::memcpy(op.block, block, sizeof(op.block));
  op.smem = smem;
  op.paramSizes = sizes;
  std::vector<char> &arguments = graphCall.recorded.arguments;
  op.argumentsBegin = static_cast<uint32_t>(arguments.size());
  for (size_t i = 0; i < count; ++i) {
    const char *bytes = static_cast<const char *>(params[i]);
    arguments.insert(arguments.end(), bytes, bytes + (*sizes)[i]);
  }
  op.argumentsBytes =
      static_cast<uint32_t>(arguments.size()) - op.argumentsBegin;
  return true;
}

bool recordCopy(void *dst, const void *src, size_t bytes, void *stream) {
  if (!startRecordedOperation())
    return true;
  if (!attach(stream))
    return false;
  GraphOp &op = appendOp(GraphOp::Kind::Copy);
  op.dst = dst;
  op.src = src;
  op.bytes = bytes;
  op.dstBuffer = pointerBufferId(*graphCall.symbols, dst);
  op.srcBuffer = pointerBufferId(*graphCall.symbols, src);
  return true;
}

bool recordSet(void *dst, uint32_t value, unsigned elementSize, size_t count,
               void *stream) {
  if (!startRecordedOperation())
    return true;
  if (!attach(stream))
    return false;
  GraphOp &op = appendOp(GraphOp::Kind::Set);
  op.dst = dst;
  op.value = value;
  op.elementSize = elementSize;
  op.count = count;
  return true;
}

bool recordAlloc(size_t bytes, void *stream, void *&pointer) {
  if (!startRecordedOperation())
    return true;
  if (!attach(stream))
    return false;
  // Enqueued now, ahead of the recorded operations, which cannot use it.
  bool allocated = false;
  inCallContext([&] {
    allocated = programBuffer(*graphCall.symbols, *graphCall.graphs,
                              graphCall.allocations++, bytes,
                              graphCall.stream, pointer);
  });
  // Past the program's buffer limit (nothing recorded): an ordinary
  // transient, eagerly.
  return allocated || threadState.operationFailed;
}

bool recordFree(void *pointer) {
  if (!graphCall.graphs || !isProgramBuffer(*graphCall.graphs, pointer))
    return false;
  // The buffer stays the program's, for its next call (also once the call
  // went on eagerly).
  startRecordedOperation();
  return true;
}

bool flushGraphSegment() {
  threadState.graphPending = false;
  if (graphCall.recorded.empty())
    return true;
  bool launched = false;
  inCallContext([&] {
    launched = launchSegment(*graphCall.symbols, *graphCall.graphs,
                             graphCall.segment++, graphCall.recorded,
                             graphCall.stream, graphCall.context,
                             graphCall.rebuild);
  });
  graphCall.recorded.clear();
  return launched;
}

void stopGraphRecording() {
  if (!graphCall.program)
    return;
  if (threadState.graphPending) {
    if (startRecordedOperation())
      flushGraphSegment();
    threadState.graphPending = false;
  }
  threadState.graphCall = false;
}

void checkInGraphCall() {
  if (!graphCall.program)
    return;
  if (graphCall.graphs)
    withoutRecordingFailures([] {
      inCallContext([] {
        checkInProgram(*graphCall.symbols, *graphCall.graphs,
                       graphCall.stream);
      });
    });
  threadState.graphCall = false;
  threadState.graphHeld = false;
  graphCall.reset();
}

/// The interceptor of the core's dispatch: records what a graph-mode call
/// offers, as one graph node per operation.
bool recordWork(StreamWork &work) {
  switch (work.kind) {
  case StreamWork::Kind::Launch:
    return recordLaunch(work.function, work.grid, work.block, work.smem,
                        work.stream, work.params, work.paramCount);
  case StreamWork::Kind::Copy:
    return recordCopy(work.dst, work.src, work.bytes, work.stream);
  case StreamWork::Kind::Set:
    return recordSet(work.dst, work.value, work.elementSize, work.count,
                     work.stream);
  case StreamWork::Kind::Alloc:
    return recordAlloc(work.bytes, work.stream, work.allocated);
  case StreamWork::Kind::Free:
    return recordFree(work.dst);
  }
  return false;
}

/// Whether the outermost call that is ending recorded or held its
/// program's graphs (CallPhase::Closing decides it for CallPhase::Closed).
thread_local bool closingGraphCall = false;

void closeGraphCall() {
  closingGraphCall = threadState.graphCall || threadState.graphHeld;
  if (closingGraphCall)
    stopGraphRecording();
}

void closedGraphCall() {
  if (closingGraphCall)
    checkInGraphCall();
  closingGraphCall = false;
}

/// Hooks graph mode into the core, once per process, before the first
/// graph-mode call records anything.
void registerGraphMode() {
  static const bool registered = [] {
    registerPendingWorkFlush(&flushGraphSegment);
    registerWorkInterceptor(&recordWork);
    registerCallHook(CallPhase::Closing, &closeGraphCall);
    registerCallHook(CallPhase::Closed, &closedGraphCall);
    return true;
  }();
  (void)registered;
}

} // namespace

void sdfgrt::forgetGraphCallForTesting() {
  threadState.graphCall = false;
  threadState.graphPending = false;
  threadState.graphHeld = false;
  graphCall.reset();
}

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

void sdfgrtBeginGraphCall(const char *program) {
  bool outermost = threadState.callDepth == 0;
  sdfgrtBeginCall();
  if (!outermost || !program)
    return;
  int32_t mode = graphModeOf(program);
  registerGraphMode();
  graphCall.reset();
  graphCall.program = program;
  graphCall.rebuild = mode == kGraphModeRebuild;
  threadState.graphPending = false;
  threadState.graphCall = mode != kGraphModeOff;
}

void sdfgrtFlushGraphWork(void) {
  if (threadState.graphCall && threadState.graphPending)
    flushGraphSegment();
}
