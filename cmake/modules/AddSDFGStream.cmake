#===- AddSDFGStream.cmake - Declare what SDFGStream installs ------------===#
#
# Part of the SDFGStream project.
#
#===----------------------------------------------------------------------===#
#
# Libraries are declared with MLIR's helpers, but those would put them into
# MLIR's export set (MLIRTargets), which an out-of-tree project never
# installs. These wrappers install them into SDFGStream's own export set,
# SDFGStreamTargets, which cmake/modules/CMakeLists.txt installs next to
# SDFGStreamConfig.cmake with the namespace SDFGStream:: (as CIRCT does with
# add_circt_library and CIRCTTargets).
#
# The exported name drops the project prefix: SDFGStreamTransforms is
# SDFGStream::Transforms, sdfgstream_runtime_cuda is
# SDFGStream::runtime_cuda, sdfg-opt is SDFGStream::sdfg-opt. The same
# names exist in the build tree as aliases.
#
#===----------------------------------------------------------------------===#

include(GNUInstallDirs)

set(SDFGSTREAM_INSTALL_LIBDIR "lib${LLVM_LIBDIR_SUFFIX}")
set(SDFGSTREAM_INSTALL_PACKAGE_DIR "${SDFGSTREAM_INSTALL_LIBDIR}/cmake/sdfgstream")

# sdfgstream_install_targets(target...)
#   Installs libraries and tools and adds them to SDFGStreamTargets.
function(sdfgstream_install_targets)
  foreach(target ${ARGN})
    string(REGEX REPLACE "^(SDFGStream|sdfgstream_)" "" export_name "${target}")
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      add_executable(SDFGStream::${export_name} ALIAS ${target})
      # add_llvm_executable's install RPATH only has $ORIGIN/../lib; libMLIR
      # and libLLVM stay where the MLIR we were built with has them.
      set_property(TARGET ${target} APPEND PROPERTY
        INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
    else()
      add_library(SDFGStream::${export_name} ALIAS ${target})
    endif()
  endforeach()
  install(TARGETS ${ARGN}
    EXPORT SDFGStreamTargets
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
    LIBRARY DESTINATION "${SDFGSTREAM_INSTALL_LIBDIR}"
    ARCHIVE DESTINATION "${SDFGSTREAM_INSTALL_LIBDIR}"
    INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  set_property(GLOBAL APPEND PROPERTY SDFGSTREAM_EXPORTS ${ARGN})
endfunction()

# add_sdfgstream_library(name ...): add_mlir_library, installed and exported.
function(add_sdfgstream_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  sdfgstream_install_targets(${name})
  set_property(GLOBAL APPEND PROPERTY SDFGSTREAM_COMPILER_LIBS ${name})
endfunction()

# add_sdfgstream_dialect_library(name ...): add_mlir_dialect_library,
# installed and exported.
function(add_sdfgstream_dialect_library name)
  add_mlir_dialect_library(${ARGV} DISABLE_INSTALL)
  sdfgstream_install_targets(${name})
  set_property(GLOBAL APPEND PROPERTY SDFGSTREAM_COMPILER_LIBS ${name})
endfunction()
