# The GPU targets SDFGStream lowers to, one entry each, <Vendor>:<option>:<Runtime>:
#   <Vendor>   the GpuVendor enumerator; its target file under
#              lib/Pipelines/<Vendor>/ defines get<Vendor>TargetDescription()
#              and is listed in lib/Pipelines/CMakeLists.txt;
#   <option>   how options and tools name it: sdfg-lower-to-<option>,
#              sdfg-verify-kernel-targets vendor=<option>,
#              sdfg-compile --target <option>;
#   <Runtime>  its runtime folder lib/Runtime/<Runtime>/, whose Runtime.cmake
#              builds sdfgstream_runtime_<runtime> (<Runtime> in lower case).
# The list is the one place that names every vendor: it generates
# SDFGStream/Pipelines/Targets.def (the GpuVendor enumerators and the table of
# target descriptions), sdfg-compile's --target choices and the runtimes that
# lib/Runtime builds, as LLVM_TARGETS_TO_BUILD generates llvm/Config/Targets.def.
set(SDFGSTREAM_GPU_TARGETS "CUDA:cuda:CUDA" "ROCm:rocm:HIP")

# sdfgstream_gpu_target_fields(ENTRY VENDOR OPTION RUNTIME_FOLDER RUNTIME):
# the fields of one entry of SDFGSTREAM_GPU_TARGETS, RUNTIME in lower case.
function(sdfgstream_gpu_target_fields entry vendor option folder runtime)
  string(REPLACE ":" ";" fields "${entry}")
  list(LENGTH fields count)
  if(NOT count EQUAL 3)
    message(FATAL_ERROR "SDFGSTREAM_GPU_TARGETS: '${entry}' is not "
      "<Vendor>:<option>:<Runtime>")
  endif()
  list(GET fields 0 vendor_value)
  list(GET fields 1 option_value)
  list(GET fields 2 folder_value)
  string(TOLOWER "${folder_value}" runtime_value)
  set(${vendor} "${vendor_value}" PARENT_SCOPE)
  set(${option} "${option_value}" PARENT_SCOPE)
  set(${folder} "${folder_value}" PARENT_SCOPE)
  set(${runtime} "${runtime_value}" PARENT_SCOPE)
endfunction()
