//===- SDFGToLLVM.h - Host lowering of the sdfg dialect ---------*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The pieces of convert-sdfg-to-llvm for another compiler's own lowering:
// type conversions, patterns, and the sdfg dialect's
// ConvertToLLVMPatternInterface, so that a `convert-to-llvm` lowers the
// stream ops of a program that went through sdfg-add-external-gpu-stream.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_CONVERSION_SDFGTOLLVM_SDFGTOLLVM_H
#define SDFGSTREAM_CONVERSION_SDFGTOLLVM_SDFGTOLLVM_H

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class RewritePatternSet;

namespace sdfg {

/// `!sdfg.stream` and `!sdfg.timer` become `!llvm.ptr`.
void populateSDFGToLLVMTypeConversions(LLVMTypeConverter &converter);

/// Memrefs in a GPU memory space (`#gpu.address_space<...>` or a number)
/// become plain pointers, which is what the runtime takes. For a host-only
/// conversion (convert-sdfg-to-llvm uses it): kernels keep their address
/// spaces. Without it, host GPU buffers need a numbered memory space (an
/// `#gpu.address_space` memref has no LLVM type upstream).
void populateGpuHostMemorySpaceConversions(LLVMTypeConverter &converter);

/// The sdfg ops (`init_streams`, `stream_token`, `sync`, `stream_wait`,
/// `check_device`, `timer_begin`/`timer_end`) and SDFGStream's lowerings of
/// `gpu.memcpy`, `gpu.memset`, `gpu.alloc` and `gpu.dealloc` on the op's
/// stream, which take precedence over upstream's (view offsets, strides,
/// 8/64-bit elements, numbered memory spaces, host-shared memory).
/// Upstream's gpu-to-llvm patterns lower the rest (launches, host
/// registration) with the stream the op depends on.
void populateSDFGToLLVMConversionPatterns(LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Attaches ConvertToLLVMPatternInterface to the sdfg dialect, so that
/// `convert-to-llvm` lowers a program's host code: the stream and timer
/// types, the patterns above, and upstream's gpu-to-llvm patterns for the
/// other host gpu ops (upstream gives the gpu dialect no interface of its
/// own). Run `sdfg-record-locations` first for error texts that name the
/// op's location. Host GPU buffers need a numbered memory space or none
/// (see populateGpuHostMemorySpaceConversions).
void registerConvertSDFGToLLVMInterface(DialectRegistry &registry);

} // namespace sdfg
} // namespace mlir

#endif // SDFGSTREAM_CONVERSION_SDFGTOLLVM_SDFGTOLLVM_H
