# The CUDA runtime (sdfgstream_runtime_cuda): the driver API and cuSPARSE,
# both dlopen'ed at run time, so only their headers are needed here.
set(SDFGSTREAM_CUDA_INCLUDE_DIR "/usr/local/cuda/include" CACHE PATH
  "Directory holding the CUDA driver API header cuda.h")

if(EXISTS "${SDFGSTREAM_CUDA_INCLUDE_DIR}/cuda.h" AND
   EXISTS "${SDFGSTREAM_CUDA_INCLUDE_DIR}/cusparse.h")
  add_sdfgstream_runtime("${SDFGSTREAM_CUDA_INCLUDE_DIR}")
else()
  message(STATUS "SDFGStream: not building the CUDA runtime: no cuda.h or "
    "cusparse.h in "
    "SDFGSTREAM_CUDA_INCLUDE_DIR (${SDFGSTREAM_CUDA_INCLUDE_DIR})")
endif()
