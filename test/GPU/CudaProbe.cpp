//===- CudaProbe.cpp - Is there a usable CUDA GPU here? -------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// lit's `cuda` feature comes from this probe: exit 0 only if the CUDA driver
// loads, initializes and reports at least one device. It needs no CUDA
// headers or libraries to build, so it runs (and says no) everywhere.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <dlfcn.h>

int main() {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    std::printf("no CUDA driver: %s\n", dlerror());
    return 1;
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  auto init = reinterpret_cast<InitFn>(dlsym(driver, "cuInit"));
  auto count = reinterpret_cast<CountFn>(dlsym(driver, "cuDeviceGetCount"));
  int devices = 0;
  if (!init || !count || init(0) != 0 || count(&devices) != 0 || !devices) {
    std::printf("CUDA driver present, but no usable device\n");
    return 1;
  }
  std::printf("%d CUDA device(s)\n", devices);
  return 0;
}
