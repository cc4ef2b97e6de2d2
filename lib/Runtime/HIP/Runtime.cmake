# The HIP runtime (sdfgstream_runtime_hip): the HIP runtime API and
# hipSPARSE, both dlopen'ed at run time, so only their headers are needed
# here (Debian: libamdhip64-dev, libhipsparse-dev).
set(SDFGSTREAM_HIP_INCLUDE_DIR "/usr/include" CACHE PATH
  "Directory holding hip/hip_runtime_api.h")

if(EXISTS "${SDFGSTREAM_HIP_INCLUDE_DIR}/hip/hip_runtime_api.h" AND
   EXISTS "${SDFGSTREAM_HIP_INCLUDE_DIR}/hipsparse/hipsparse.h")
  add_sdfgstream_runtime("${SDFGSTREAM_HIP_INCLUDE_DIR}" __HIP_PLATFORM_AMD__)
else()
  message(STATUS "SDFGStream: not building the HIP runtime: no "
    "hip/hip_runtime_api.h or hipsparse/hipsparse.h (Debian: "
    "libhipsparse-dev) in SDFGSTREAM_HIP_INCLUDE_DIR "
    "(${SDFGSTREAM_HIP_INCLUDE_DIR})")
endif()
