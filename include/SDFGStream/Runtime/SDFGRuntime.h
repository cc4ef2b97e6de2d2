/*===- SDFGRuntime.h - C ABI of the SDFGStream GPU runtime --------*- C -*-===*\
|*                                                                            *|
|* Part of the SDFGStream project.                                            *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Compiled programs call this runtime for every GPU operation, always with   *|
|* the stream the caller passed to the program (`void *`: a cudaStream_t or   *|
|* hipStream_t; 0 is the legacy default stream), or with a stream forked from *|
|* it for the program's other stream slots (sdfgrtForkStreams: the only       *|
|* streams the runtime creates, once per thread and context). The runtime     *|
|* never synchronizes the device or context, and never aborts: the            *|
|* first failure of a program call is recorded and returned by the program,   *|
|* which leaves at once; what the call allocated is freed (later GPU          *|
|* operations of the call are skipped, where host code still runs).           *|
|*                                                                            *|
|* Two groups of entry points:                                                *|
|*  - mgpu*: the ABI that MLIR's gpu-to-llvm lowering and the gpu.module      *|
|*    translation emit calls to (only the stream-honouring subset: there is   *|
|*    deliberately no mgpuStreamCreate/Destroy or event API, so code that     *|
|*    would create streams does not link); the sparse ones over cuSPARSE /    *|
|*    hipSPARSE, opened lazily like the driver;                               *|
|*  - sdfgrt*: SDFGStream's own (call status, error text, op locations,       *|
|*    stream ordering for the host API, timers).                              *|
|*                                                                            *|
|* RuntimeEntries.def lists every entry point declared here; keep the two in  *|
|* step (sdfg-verify-stream-discipline rejects calls to anything else).       *|
|*                                                                            *|
|* A program library made by sdfg-compile links the static runtime and        *|
|* exports all of these: it has its own copy of the runtime state (errors,    *|
|* timers), which the host reaches through the library (HostAPI.h).          *|
|*                                                                            *|
|* Two builds implement it, libsdfgstream_runtime_cuda (CUDA driver API) and  *|
|* libsdfgstream_runtime_hip, each also as a static library. Neither links    *|
|* the vendor library: libcuda.so.1 (or libamdhip64.so, .so.6, .so.5), or     *|
|* the file that SDFGRT_CUDA_LIBRARY (SDFGRT_HIP_LIBRARY) names, is opened at *|
|* the first GPU operation; if it cannot be used, every GPU operation fails   *|
|* with that reason. Loading the runtime or registering modules does no GPU   *|
|* work.                                                                      *|
|*                                                                            *|
|* Error codes are the vendor's (CUresult, hipError_t), or -1 for a failure   *|
|* the runtime detects itself: vendor library missing or lacking a symbol, a  *|
|* refused request (host memory during capture, cluster launch on HIP), a null*|
|* kernel handle, an unknown timed program.                                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SDFGSTREAM_RUNTIME_SDFGRUNTIME_H
#define SDFGSTREAM_RUNTIME_SDFGRUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define SDFGRT_EXPORT __declspec(dllexport)
#else
#define SDFGRT_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*\
|* Program calls and errors                                                   *|
\*===----------------------------------------------------------------------===*/

/* Marks the start of a program call on this thread. Calls nest (a program
 * calling a nested program); the outermost one clears the recorded error. */
SDFGRT_EXPORT void sdfgrtBeginCall(void);

/* Marks the end of a program call; returns 0, or the error code of the first
 * failure recorded since the outermost sdfgrtBeginCall. An inner end does not
 * clear it: the enclosing call fails too. The outermost end of a failed call
 * joins every stream the call forked (sdfgrtForkStreams) back onto the
 * stream it was forked from, then frees every allocation of mgpuMemAlloc
 * that the call made and did not free, stream-ordered on the stream its
 * slot was forked from (the caller's), after every slot that may still use
 * it. */
SDFGRT_EXPORT int32_t sdfgrtEndCall(void);

/* The current program call's status: 0, or the code of its first failure
 * (0 outside a program call). Generated code asks after every operation
 * that can fail and, on a failure, leaves the program at once. */
SDFGRT_EXPORT int32_t sdfgrtCallStatus(void);

/* Records the source location ("file:line:col") of the operation about to
 * run; it is part of the error text if that operation fails. The string
 * must outlive the call (generated code passes a constant). */
SDFGRT_EXPORT void sdfgrtSetLocation(const char *location);

/* Text of the last error on this thread, naming the failed vendor call, the
 * vendor's error name and message, and the operation's location, e.g.
 * "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid argument) at
 * prog.mlir:12:5"; "" if none. Some failures add what the driver said
 * before the location: a module that fails to load, the driver's error log
 * (the JIT compiler's or linker's messages, on one line, at most 639 bytes),
 * a stream the driver does not know, the handle ("cuStreamGetCtx failed:
 * CUDA_ERROR_INVALID_HANDLE (invalid resource handle): 0x5581... is not a
 * stream the driver knows (...)"). A later success does not clear it; the next
 * outermost sdfgrtBeginCall does. Valid until the next call into the runtime
 * on this thread. Outside a program call every operation runs and records
 * its own failure. */
SDFGRT_EXPORT const char *sdfgrtGetLastError(void);

/* Error code of the last error on this thread (0 if none). */
SDFGRT_EXPORT int32_t sdfgrtGetLastErrorCode(void);

/* The vendor's name of the last error's code on this thread
 * ("CUDA_ERROR_INVALID_VALUE", "hipErrorInvalidValue"), "SDFGRT_FAILURE" for
 * a failure the runtime detects itself, "" if none or unnamed. Cleared as
 * sdfgrtGetLastError is; the string stays valid. */
SDFGRT_EXPORT const char *sdfgrtGetLastErrorName(void);

/* The source location ("file:line:col") of the operation whose failure is
 * the last error on this thread, "" if none or unknown. */
SDFGRT_EXPORT const char *sdfgrtGetLastErrorLocation(void);

/* Forgets the last error of this thread (a program call in progress stays
 * failed). */
SDFGRT_EXPORT void sdfgrtClearError(void);

/*===----------------------------------------------------------------------===*\
|* Graph mode                                                                 *|
\*===----------------------------------------------------------------------===*/

/* sdfgrtBeginCall for a program compiled in graph mode (`graph-mode`): the
 * outermost such call records its GPU work instead of enqueuing it, and at
 * each point where the host needs it (a host sync, an operation graph mode
 * does not record, the end of the call) launches it on the caller's stream
 * as one CUDA graph. The graph of each such segment is cached per program,
 * context and position in the call: a later call that records the same
 * operations launches the cached graph; one whose operations differ only in
 * their arguments (buffers, sizes, scalars) updates the cached graph's nodes
 * in place; one of another shape builds the segment's graph again. `program`
 * is the program's name, a constant string. The call runs eagerly, as with
 * sdfgrtBeginCall, when graph mode is off for the program
 * (sdfgrtSetGraphMode), when the caller's stream is being captured (the work
 * goes into the caller's graph), when another thread is in a call of the same
 * program, and on HIP. */
SDFGRT_EXPORT void sdfgrtBeginGraphCall(const char *program);

/* In a graph-mode call, launches what the call has recorded and not
 * launched yet; nothing otherwise. Generated code calls it before code
 * that leaves the runtime (a call of an external function, which may
 * enqueue its own work on the stream or read memory the recorded work
 * writes), so that such code sees the work before it done or queued. */
SDFGRT_EXPORT void sdfgrtFlushGraphWork(void);

/* Sets the graph mode of the calls of `program` that begin after it, or of
 * every program if `program` is NULL (which also forgets the per-program
 * settings): 0 off (eager), 1 on (the default: a segment whose arguments
 * changed updates its graph's nodes in place), 2 on, but such a segment
 * builds its graph again (what the benchmarks compare updating with); any
 * other value is 0. Only programs compiled in graph mode are affected. */
SDFGRT_EXPORT void sdfgrtSetGraphMode(const char *program, int32_t mode);

/* The most programs whose graphs the runtime keeps per context (default
 * 16, at least 1): when a new one is needed, the least recently used one not
 * in a call is released. Each program keeps its executable graphs and, for
 * its transients, one buffer per allocation it makes in a call (taken from
 * the device's current stream-ordered pool, on the caller's stream, and
 * kept across calls). */
SDFGRT_EXPORT void sdfgrtSetGraphCacheLimit(int32_t programsPerContext);

/* Releases the graphs and transient buffers of every program of the
 * context of `stream` that no thread is calling: the buffers are freed on
 * `stream` after the programs' last calls. Returns 0 or the error code. */
SDFGRT_EXPORT int32_t sdfgrtReleaseGraphs(void *stream);

/* Process-wide counts of what graph mode did. */
typedef struct sdfgrtGraphStats {
  int64_t builds;       /* segment graphs built and instantiated */
  int64_t updates;      /* launches after updating nodes in place */
  int64_t nodesUpdated; /* nodes updated in place */
  int64_t replays;      /* launches of a cached graph as it was */
  int64_t eagerCalls;   /* graph-mode calls that ran eagerly (in part) */
  int64_t programs;     /* programs whose graphs are kept now */
  int64_t bufferBytes;  /* bytes of transient buffers kept now */
} sdfgrtGraphStats;
SDFGRT_EXPORT void sdfgrtGetGraphStats(sdfgrtGraphStats *stats);

/* Number of (module, context) loads performed so far (unloading does not
 * decrease it): kernels are loaded lazily, in the context of the stream that
 * first launches them (HIP: its device), once per module and context. A
 * context is told apart by the driver's id of it (cuCtxGetId, CUDA 12.0 and
 * later), so a context created with the handle of a destroyed one loads its
 * modules (and gets its events) anew; with older drivers, and on HIP (the
 * device ordinal: hipDeviceReset is not noticed), the handle is the key. */
SDFGRT_EXPORT int64_t sdfgrtLoadedModuleCount(void);

/*===----------------------------------------------------------------------===*\
|* Operations on the caller's stream (MLIR gpu runtime ABI)                   *|
\*===----------------------------------------------------------------------===*/

/* Registers a kernel binary (cubin/fatbin/hsaco); no GPU work happens until a
 * kernel of it is launched. `data` must stay valid until the module is
 * unloaded. Loads (cuModuleLoadDataEx / hipModuleLoadDataEx) pass an error
 * log buffer: a failed load's error text includes the driver's log. */
SDFGRT_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
/* Registers a PTX/ISA module to be JIT-compiled lazily with `optLevel`. */
SDFGRT_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
/* Unloads the module from every context it was loaded in that still exists
 * (a destroyed context took its modules with it); no GPU work if it never
 * was loaded. */
SDFGRT_EXPORT void mgpuModuleUnload(void *module);
/* Returns the runtime's handle of kernel `name`, the same one for the same
 * module and name, without any vendor call (generated code calls it before
 * every launch); NULL for a NULL module or name. */
SDFGRT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);

/* Every operation below runs on `stream`, made current with its context for
 * the duration of the call when it is not already (CUDA: pushed and popped;
 * HIP: the stream's device set and restored). Stream handles 0 (legacy
 * default stream), 1 (CU_STREAM_LEGACY) and 2 (CU_STREAM_PER_THREAD,
 * hipStreamPerThread) are passed on unchanged and belong to the current
 * context; with no current CUDA context, device 0's primary context is
 * retained (once, for the process) and used. Any other handle is checked by
 * the driver first (CUDA: cuStreamGetCtx; HIP: hipStreamGetDevice, ROCm 5.6
 * and later): one it never created, or one of a destroyed context, fails the
 * operation before any work. The driver cannot tell a handle that a new
 * stream reuses from the destroyed stream's, nor does HIP without
 * hipStreamGetDevice check at all; the CUDA driver may also crash on a
 * pointer that was never a stream rather than answer an error. */

/* Launches on `stream`; the kernel's module is loaded first in the stream's
 * context if needed. CUDA: more than 48 KiB of dynamic shared memory is
 * opted into (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) first. */
SDFGRT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                    intptr_t gridY, intptr_t gridZ,
                                    intptr_t blockX, intptr_t blockY,
                                    intptr_t blockZ, int32_t smem,
                                    void *stream, void **params, void **extra,
                                    size_t paramsCount);
/* CUDA: cuLaunchKernelEx with the cluster shape (clusters of more than 8
 * blocks are opted into). HIP has no clusters: fails with -1. */
SDFGRT_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra, size_t paramsCount);

/* Blocks the host until `stream` is idle. */
SDFGRT_EXPORT void mgpuStreamSynchronize(void *stream);

/* Stream-ordered allocation from the memory pool current for the stream's
 * device (cuMemAllocAsync/hipMallocAsync), so a pool the caller set is used;
 * NULL on failure and, without any call, for 0 bytes.
 * Host-shared (gpu.alloc host_shared): managed memory attached globally
 * (cuMemAllocManaged/hipMallocManaged) in the stream's context. It is not
 * stream-ordered: usable at once by the host and any stream; while the
 * stream is being captured into a graph it is refused (NULL, error -1). */
SDFGRT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                 bool isHostShared);
/* Stream-ordered free (cuMemFreeAsync/hipFreeAsync); NULL is ignored. A
 * host-shared allocation has no stream-ordered free: the host waits for
 * `stream` (never the device), then frees it (cuMemFree/hipFree, which the
 * vendor may synchronize further); refused (-1, kept allocated) while the
 * stream is being captured. */
SDFGRT_EXPORT void mgpuMemFree(void *ptr, void *stream);

/* Copies in either direction (unified addressing), as memmove: overlapping
 * ranges go through a stream-ordered temporary. The memsets set `count`
 * elements. Nothing to do for 0 bytes or elements. */
SDFGRT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                              void *stream);
SDFGRT_EXPORT void mgpuMemset32(void *dst, uint32_t value, size_t count,
                                void *stream);
SDFGRT_EXPORT void mgpuMemset16(void *dst, uint16_t value, size_t count,
                                void *stream);
SDFGRT_EXPORT void sdfgrtMemset8(void *dst, uint8_t value, size_t count,
                                 void *stream);

/* Copies between two views of one shape given by MLIR memref descriptors
 * (StridedMemRefType: allocated and aligned pointers, offset, `rank` sizes,
 * `rank` strides, in elements of `elementSize` bytes), each from its
 * aligned pointer plus offset. Dimensions dense in both views merge; the
 * rest becomes 2D copies (cuMemcpy2DAsync / hipMemcpy2DAsync), one per
 * index of the dimensions beyond the two innermost. Overlapping views go
 * through a stream-ordered temporary. Fails (-1) for a zero or negative
 * stride or overlapping rows. Emitted for a gpu.memcpy of a view that is
 * not provably dense. */
SDFGRT_EXPORT void sdfgrtMemcpyStrided(int64_t rank, void *dstDescriptor,
                                       void *srcDescriptor,
                                       int64_t elementSize, void *stream);
/* Sets every element of the view `dstDescriptor` (as above) to the low
 * `elementSize` bytes (1, 2, 4 or 8) of `value`. A dense view is set in
 * place (64-bit elements: one element as two 32-bit words, then doubling
 * device copies); any other view gets a stream-ordered temporary set that
 * way and copied into it. Emitted for 64-bit gpu.memset and for one of a
 * view that is not provably dense. */
SDFGRT_EXPORT void sdfgrtMemsetStrided(int64_t rank, void *dstDescriptor,
                                       int64_t elementSize, uint64_t value,
                                       void *stream);

/*===----------------------------------------------------------------------===*\
|* Host memory and the default device (MLIR gpu runtime ABI)                  *|
\*===----------------------------------------------------------------------===*/

/* Page-lock host memory for every context/device (cuMemHostRegister /
 * hipHostRegister with the portable flag), and release it. These take no
 * stream and are not stream-ordered: while a stream is being captured into
 * a graph in global or thread-local mode (which forbids them and would be
 * invalidated) they fail with -1 and a text saying so, without calling the
 * vendor. Nothing is done for NULL or 0 bytes. */
SDFGRT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
SDFGRT_EXPORT void mgpuMemHostUnregister(void *ptr);
/* gpu.host_register / gpu.host_unregister: the unranked memref (rank and
 * a pointer to its ranked descriptor, as above) covers the bytes from its
 * first element (aligned pointer plus offset) to one past its last. */
SDFGRT_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                             int64_t elementSizeBytes);
SDFGRT_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                               void *descriptor,
                                               int64_t elementSizeBytes);

/* nvgpu.tma.create.descriptor (CUDA 12, cuTensorMapEncodeTiled): the TMA
 * descriptor of the memref view `descriptor` (rank 1-5, from its first
 * element) with the tile `boxDims` and the CUtensorMap* enums given, copied
 * to device memory of the current (or default) context for kernels to
 * read; the device pointer, or NULL on failure. Not stream-ordered (a
 * synchronous allocation and copy, made once per context and descriptor,
 * then reused): refused (-1) while a stream is being captured. HIP: -1. */
SDFGRT_EXPORT void *mgpuTensorMapEncodeTiledMemref(
    int64_t rank, void *descriptor, int64_t dataType, int64_t interleave,
    int64_t swizzle, int64_t l2Promotion, int64_t oobFill, int64_t *boxDims);

/* gpu.set_default_device. CUDA: the device whose primary context serves
 * default-stream work on a thread without a current context (0 until
 * set); fails if no such device exists. HIP: hipSetDevice. */
SDFGRT_EXPORT void mgpuSetDefaultDevice(int32_t device);

/*===----------------------------------------------------------------------===*\
|* Sparse matrices (MLIR gpu runtime ABI: the gpu dialect's sparse ops)       *|
\*===----------------------------------------------------------------------===*/

/* What gpu-to-llvm emits for gpu.create_dn_tensor, gpu.create_coo/_coo_aos/
 * _csr/_csc/_bsr, gpu.spmv, gpu.spmm, gpu.sddmm, gpu.spgemm_*,
 * gpu.spmat_get_size, gpu.set_csr_pointers and their destroy ops, with
 * upstream's wrappers' ABI: sizes are intptr_t; `itp`/`ptp` are
 * cusparseIndexType_t, `dtp`/`ctp` cudaDataType and `ma`/`mb`
 * cusparseOperation_t values (hipSPARSE has the same ones); dense matrices
 * are row-major; every operation computes with alpha = beta = 1 (y = A x +
 * y, C = A B + C, ...), as upstream's do.
 *
 * Over cuSPARSE (libcusparse.so.12) in the CUDA build, hipSPARSE
 * (libhipsparse.so, .so.1, .so.0) in the HIP one, or the file that
 * SDFGRT_CUSPARSE_LIBRARY (SDFGRT_HIPSPARSE_LIBRARY) names: opened at the
 * first sparse operation, never linked; if it cannot be used, every sparse
 * operation fails (-1) with that reason. A library failure returns the
 * library's status (cusparseStatus_t, hipsparseStatus_t) as the error
 * code, the text naming the call and the status, e.g. "cusparseSpMV
 * failed: CUSPARSE_STATUS_INVALID_VALUE (invalid value) at prog.mlir:7:3".
 * On failure, creations return NULL and buffer sizes 1.
 *
 * The descriptor operations (create, destroy, sizes, pointers) are host
 * work: they ignore `stream`. The others (buffer sizes, spmv, spmm, sddmm,
 * spgemm) run in the context of `stream` (see above) with the library
 * handle of that context and the calling thread, which is created at the
 * thread's first such operation in the context and kept (with it the
 * library's own set-up: make that first call outside a graph capture), and
 * set to `stream` (cusparseSetStream / hipsparseSetStream) before each
 * call. cuSPARSE's and hipSPARSE's rules then apply: SpGEMM's work
 * estimation and compute may make the host wait for `stream`.
 *
 * Not available: gpu.create_coo_aos on CUDA (cuSPARSE 12 has no AoS COO),
 * gpu.create_bsr on HIP (hipSPARSE has no generic BSR), and 2:4 structured
 * sparsity (gpu.create_2to4_spmat and the gpu.spmm, buffer size and
 * destroy ops on it, which upstream runs with cuSPARSELt): these fail (-1)
 * with a text naming the entry and the op. */
SDFGRT_EXPORT void *mgpuCreateDnVec(intptr_t size, void *values, int32_t dtp,
                                    void *stream);
SDFGRT_EXPORT void mgpuDestroyDnVec(void *vector, void *stream);
SDFGRT_EXPORT void *mgpuCreateDnMat(intptr_t rows, intptr_t cols,
                                    void *values, int32_t dtp, void *stream);
SDFGRT_EXPORT void mgpuDestroyDnMat(void *matrix, void *stream);
SDFGRT_EXPORT void *mgpuCreateCoo(intptr_t rows, intptr_t cols, intptr_t nnz,
                                  void *rowIdxs, void *colIdxs, void *values,
                                  int32_t itp, int32_t dtp, void *stream);
SDFGRT_EXPORT void *mgpuCreateCooAoS(intptr_t rows, intptr_t cols,
                                     intptr_t nnz, void *idxs, void *values,
                                     int32_t itp, int32_t dtp, void *stream);
SDFGRT_EXPORT void *mgpuCreateCsr(intptr_t rows, intptr_t cols, intptr_t nnz,
                                  void *rowPos, void *colIdxs, void *values,
                                  int32_t ptp, int32_t itp, int32_t dtp,
                                  void *stream);
SDFGRT_EXPORT void *mgpuCreateCsc(intptr_t rows, intptr_t cols, intptr_t nnz,
                                  void *colPos, void *rowIdxs, void *values,
                                  int32_t ptp, int32_t itp, int32_t dtp,
                                  void *stream);
/* Square blocks (rBlockSize == cBlockSize), each row-major. */
SDFGRT_EXPORT void *mgpuCreateBsr(intptr_t brows, intptr_t bcols,
                                  intptr_t bnnz, intptr_t rBlockSize,
                                  intptr_t cBlockSize, void *bRowPos,
                                  void *bColIdxs, void *values, int32_t ptp,
                                  int32_t itp, int32_t dtp, void *stream);
SDFGRT_EXPORT void mgpuDestroySpMat(void *matrix, void *stream);
/* Writes the matrix's rows, columns and non-zeros (int64_t each). */
SDFGRT_EXPORT void mgpuSpMatGetSize(void *matrix, void *rows, void *cols,
                                    void *nnz, void *stream);
SDFGRT_EXPORT void mgpuSetCsrPointers(void *matrix, void *positions,
                                      void *coordinates, void *values,
                                      void *stream);

/* Buffer sizes in bytes (never 0), then the operation with that buffer. */
SDFGRT_EXPORT intptr_t mgpuSpMVBufferSize(int32_t ma, void *a, void *x,
                                          void *y, int32_t ctp, void *stream);
SDFGRT_EXPORT void mgpuSpMV(int32_t ma, void *a, void *x, void *y,
                            int32_t ctp, void *buf, void *stream);
SDFGRT_EXPORT intptr_t mgpuSpMMBufferSize(int32_t ma, int32_t mb, void *a,
                                          void *b, void *c, int32_t ctp,
                                          void *stream);
SDFGRT_EXPORT void mgpuSpMM(int32_t ma, int32_t mb, void *a, void *b, void *c,
                            int32_t ctp, void *buf, void *stream);
SDFGRT_EXPORT intptr_t mgpuSDDMMBufferSize(int32_t ma, int32_t mb, void *a,
                                           void *b, void *c, int32_t ctp,
                                           void *stream);
SDFGRT_EXPORT void mgpuSDDMM(int32_t ma, int32_t mb, void *a, void *b,
                             void *c, int32_t ctp, void *buf, void *stream);

/* SpGEMM (C = A B): a descriptor, work estimation and compute (each called
 * with a buffer size and buffer; returns the size the step needs, the
 * pattern of cusparseSpGEMM_workEstimation / _compute), then the copy into
 * C after gpu.set_csr_pointers gave it storage. */
SDFGRT_EXPORT void *mgpuSpGEMMCreateDescr(void *stream);
SDFGRT_EXPORT void mgpuSpGEMMDestroyDescr(void *descr, void *stream);
SDFGRT_EXPORT intptr_t mgpuSpGEMMWorkEstimation(void *descr, int32_t ma,
                                                int32_t mb, void *a, void *b,
                                                void *c, int32_t ctp,
                                                intptr_t bs, void *buf,
                                                void *stream);
SDFGRT_EXPORT intptr_t mgpuSpGEMMCompute(void *descr, int32_t ma, int32_t mb,
                                         void *a, void *b, void *c,
                                         int32_t ctp, intptr_t bs, void *buf,
                                         void *stream);
SDFGRT_EXPORT void mgpuSpGEMMCopy(void *descr, int32_t ma, int32_t mb,
                                  void *a, void *b, void *c, int32_t ctp,
                                  void *stream);

/* 2:4 structured sparsity (cuSPARSELt upstream): always fail, see above. */
SDFGRT_EXPORT void mgpuCusparseLtCreate2To4SpMat(void *spmat, intptr_t rows,
                                                 intptr_t cols, void *values,
                                                 int32_t dtp, void *stream);
SDFGRT_EXPORT void mgpuCreateCuSparseLtDnMat(void *dnmat, intptr_t rows,
                                             intptr_t cols, void *values,
                                             int32_t dtp, void *stream);
SDFGRT_EXPORT void mgpuCuSparseLtSpMMBufferSize(void *bufferSizes, int32_t ma,
                                                int32_t mb, void *a, void *b,
                                                void *c, int32_t ctp,
                                                int32_t pruneFlag,
                                                void *stream);
SDFGRT_EXPORT void mgpuCuSparseLtSpMM(void *a, void *b, void *c,
                                      void *workspace, void *compressed,
                                      void *compressedBuffer, void *stream);
SDFGRT_EXPORT void mgpuDestroyCuSparseLtDnMat(void *dnmat, void *stream);
SDFGRT_EXPORT void mgpuDestroyCuSparseLtSpMat(void *spmat, void *stream);

/*===----------------------------------------------------------------------===*\
|* The stream slots of a program call (concurrency inside a call)             *|
\*===----------------------------------------------------------------------===*/

/* A program with `count` stream slots (1 to 1024) calls this once at its
 * entry: slots[0] becomes `caller`, every other slot a stream the runtime
 * keeps in the caller's context, ordered after the work enqueued on `caller`
 * so far (one event, timing disabled and pooled, recorded on `caller` and
 * waited for by each). Before it returns, the program joins each back
 * (sdfgrtStreamWaitStream(caller, slots[k])); where a failure skipped that,
 * the outermost sdfgrtEndCall of the failed call joins every stream the call
 * forked back onto the stream it was forked from, the innermost forks first,
 * before it frees the call's allocations.
 * The slot streams are pairwise distinct and never `caller` (a program
 * called on a slot stream of its caller gets others). They are
 * non-blocking, created only where the calling thread has too few and never
 * destroyed: each thread leases its own per context, because a stream that
 * waited on an event of a capturing stream joins that capture until it
 * ends; a thread that exits gives its streams back to the context's pool,
 * for other threads. A leased stream is used only while it is not being
 * captured, or is being captured into the caller's capture
 * (cuStreamGetCaptureInfo / hipStreamGetCaptureInfo; CUDA drivers older
 * than 12.3 cannot tell, and leave a capturing one out); streams are
 * created in relaxed capture mode (the thread's mode exchanged and
 * restored), which a capture in global mode allows. Forking and joining by
 * events is legal during a capture and gives the graph parallel branches.
 * An operation of the program call: skipped after an earlier failure of it.
 * On a failure, or skipped, every slot is `caller`. Returns 0 or the error
 * code (the call's, when skipped). */
SDFGRT_EXPORT int32_t sdfgrtForkStreams(void *caller, int32_t count,
                                        void **slots);

/*===----------------------------------------------------------------------===*\
|* Stream ordering and devices (used by the host API, HostAPI.h)              *|
\*===----------------------------------------------------------------------===*/

/* Makes `waiting` wait, on the GPU, for the work enqueued on `waitedOn` so
 * far: an event (timing disabled, pooled per context) is recorded on
 * `waitedOn` in its context, and `waiting` waits for it (cuStreamWaitEvent /
 * hipStreamWaitEvent) in its own. The host never waits; the streams may
 * belong to different contexts. Nothing is done when the handles are equal.
 * Returns 0 or the error code (text: sdfgrtGetLastError). */
SDFGRT_EXPORT int32_t sdfgrtStreamWaitStream(void *waiting, void *waitedOn);

/* Makes the calling thread hold at least count - 1 streams (count 1 to 1024)
 * that a fork from `stream` (sdfgrtForkStreams of a program with `count`
 * stream slots) can use, creating those it lacks, so that a caller can have
 * them created before it begins capturing `stream` into a graph. Returns 0
 * or the error code. */
SDFGRT_EXPORT int32_t sdfgrtReserveStreams(void *stream, int32_t count);

/* Writes the device ordinal of `stream` (CUDA: cuStreamGetCtx +
 * cuCtxGetDevice; HIP: hipStreamGetDevice); 0, 1 and 2 are the current
 * context's default streams, as for the operations below. Returns 0 or the
 * error code, and then writes -1. */
SDFGRT_EXPORT int32_t sdfgrtStreamDevice(void *stream, int32_t *device);

/* Fails the program call (error -1, "argument N is memory of device D, but
 * the stream belongs to device S") if `pointer` is device memory of another
 * device than `stream`'s, before any of its GPU work is enqueued; a kernel
 * would otherwise fault on the data or a copy read the wrong device.
 * Managed and host memory, unknown pointers and NULL pass. Emitted for each
 * GPU-memory argument by the `sdfg-check-argument-devices` pass (pipelines:
 * `check-devices=true`). One pointer-attribute query per argument and
 * call, no GPU work. */
SDFGRT_EXPORT void sdfgrtCheckDevicePointer(const void *pointer, void *stream,
                                            int32_t argument);

/*===----------------------------------------------------------------------===*\
|* Timers (emitted by sdfg-instrument-timers)                                 *|
\*===----------------------------------------------------------------------===*/

/* A timed call of a program records a begin and an end event (timing
 * enabled, pooled per context and reused: no event is created or destroyed
 * per call in steady state) on each of its streams, in the stream's context.
 * The call's time is from its earliest begin event to its latest end event
 * over its streams (events of one context are compared with
 * cuEventElapsedTime / hipEventElapsedTime; a call whose streams span
 * several contexts counts its longest span in one context). Its time is
 * added to its program's total when all its end events have completed; the
 * host never waits for that unless it asks (sdfgrtTimerQuery with `wait`).
 * A call is not counted when one of its streams was being captured into a
 * graph or a timer operation failed. A failed record is recorded like any
 * other operation's failure, so it fails the program call; a failure while
 * sdfgrtTimerBegin resolves earlier calls does not: the program's next
 * sdfgrtTimerQuery returns it. Calls nest: a timed program calling a timed
 * program has its own handle. Thread-safe; a thread waiting in
 * sdfgrtTimerQuery never blocks another thread's timed calls. */

/* Starts one timed call of `program` (a NUL-terminated name; the same text
 * accumulates into the same per-program total). First resolves, without
 * waiting, earlier calls of that program whose end events have completed
 * (oldest first, up to the first still running; skipped while another
 * thread resolves them). Returns the call's handle (never NULL; on failure,
 * or inside a program call that has failed, a handle that records
 * nothing). */
SDFGRT_EXPORT void *sdfgrtTimerBegin(const char *program);

/* Records the call's begin event on `stream` (once per distinct stream per
 * call; repeated streams are ignored). Skipped (nothing recorded, the call
 * is not timed) while `stream` is being captured into a graph. */
SDFGRT_EXPORT void sdfgrtTimerRecordBegin(void *call, void *stream);

/* Records the call's end event on `stream` (a stream that got a begin
 * event; recording again moves the end). Skipped, and the call not timed,
 * while `stream` is being captured. */
SDFGRT_EXPORT void sdfgrtTimerRecordEnd(void *call, void *stream);

/* Closes the call without waiting: it becomes pending until its end events
 * complete. The handle must not be used afterwards. */
SDFGRT_EXPORT void sdfgrtTimerEnd(void *call);

/* Accumulated GPU time of `program`: resolves pending calls whose events
 * completed; with wait != 0 first waits for the program's pending end
 * events (event synchronize: never a stream, context or device sync).
 * Writes total milliseconds, number of resolved calls, number still pending
 * (any pointer may be NULL; zeros for an unknown program). Returns 0 or the
 * error code: of a failure while resolving (here or, kept since, in
 * sdfgrtTimerBegin), or -1 with an error text for an unknown program (no
 * timed call began since the start or its last reset). */
SDFGRT_EXPORT int32_t sdfgrtTimerQuery(const char *program, int32_t wait,
                                       double *milliseconds, int64_t *calls,
                                       int64_t *pending);

/* Forgets the totals of `program` (NULL: of every program), which is
 * unknown again until its next timed call; pending calls, and calls in
 * flight when they end, are dropped after their events are released. */
SDFGRT_EXPORT void sdfgrtTimerReset(const char *program);

#ifdef __cplusplus
}
#endif

#endif /* SDFGSTREAM_RUNTIME_SDFGRUNTIME_H */
