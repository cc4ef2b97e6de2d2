#===- Instrumentation.cmake - Sanitizer and fuzzer builds ---------------===#
#
# Part of the SDFGStream project.
#
#===----------------------------------------------------------------------===#
#
# Options for separate, instrumented build trees (scripts/sanitize.sh
# and scripts/fuzz.sh share one, build-asan, so CI compiles it once):
#
#   SDFGSTREAM_ENABLE_SANITIZERS  AddressSanitizer + UndefinedBehaviorSanitizer
#                                 on everything this project compiles; any
#                                 UBSan report aborts the process.
#   SDFGSTREAM_ENABLE_FUZZER      libFuzzer coverage hooks on everything and
#                                 the harness fuzz/sdfg-fuzz (clang only).
#
# and a third, alone in its own tree (scripts/tsan.sh, build-tsan):
#
#   SDFGSTREAM_ENABLE_TSAN        ThreadSanitizer on everything.
#
# Debian's libMLIR.so and libLLVM.so stay uninstrumented: findings and
# coverage come from SDFGStream's own code (and the MLIR headers it
# inlines).
#
#===----------------------------------------------------------------------===#

option(SDFGSTREAM_ENABLE_SANITIZERS
  "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(SDFGSTREAM_ENABLE_FUZZER
  "Build the libFuzzer harness fuzz/sdfg-fuzz (needs clang)" OFF)
option(SDFGSTREAM_ENABLE_TSAN
  "Build with ThreadSanitizer (not with the other sanitizers)" OFF)

if(SDFGSTREAM_ENABLE_TSAN AND
   (SDFGSTREAM_ENABLE_SANITIZERS OR SDFGSTREAM_ENABLE_FUZZER))
  message(FATAL_ERROR "SDFGSTREAM_ENABLE_TSAN excludes "
    "SDFGSTREAM_ENABLE_SANITIZERS and SDFGSTREAM_ENABLE_FUZZER (ThreadSanitizer "
    "does not combine with AddressSanitizer)")
endif()

if(SDFGSTREAM_ENABLE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

if(SDFGSTREAM_ENABLE_SANITIZERS)
  # vptr needs RTTI, which LLVM and this project build without; function
  # needs type hashes in front of callees, which the uninstrumented MLIR
  # libraries lack.
  add_compile_options(-fsanitize=address,undefined
    -fno-sanitize=vptr,function -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

if(SDFGSTREAM_ENABLE_SANITIZERS OR SDFGSTREAM_ENABLE_FUZZER OR
   SDFGSTREAM_ENABLE_TSAN)
  # clang links the sanitizer and coverage runtimes into executables only;
  # a shared library (the runtimes, the fake CUDA driver) takes __asan_* and
  # __sancov_* from the executable that loads it. So no -z defs here, as in
  # LLVM's own sanitizer builds (HandleLLVMOptions, LLVM_USE_SANITIZER).
  string(REPLACE "-Wl,-z,defs" "" CMAKE_SHARED_LINKER_FLAGS
    "${CMAKE_SHARED_LINKER_FLAGS}")
endif()

if(SDFGSTREAM_ENABLE_FUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SDFGSTREAM_ENABLE_FUZZER needs clang "
      "(-DCMAKE_CXX_COMPILER=clang++-22), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
