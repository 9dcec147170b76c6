// The CUDA toolkit as the exercise runner's GPU path uses it, both opened at run time (dlopen)
// so that the runner starts where neither is installed: the driver API (Driver) and NVRTC
// (Nvrtc), and compiling a learner's file with NVRTC for the device (compile). Built only where
// the toolkit was found; used inside the exercise runner only.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/texts/messages.hpp"

// Set by lessons/engine/exercise_runner/CMakeLists.txt: NVRTC of the toolkit this build was
// configured with.
#ifndef RLAB_NVRTC_LIBRARY
#define RLAB_NVRTC_LIBRARY "libnvrtc.so"
#endif
#ifndef RLAB_CUDA_MAJOR
#define RLAB_CUDA_MAJOR "13"
#endif

namespace rlab::exercise {

// The driver API. Each function is asked of the driver by the version whose prototype we call
// through: asking for "this toolkit's version" is wrong where a toolkit changed a prototype
// (CUDA 13's cuCtxSynchronize takes a context, and the old call then passes garbage).
struct Driver {
// clang-format off
#define RLAB_DRIVER_FUNCTIONS(X) \
  X(cuInit, 2000) \
  X(cuDeviceGet, 2000) \
  X(cuDeviceGetAttribute, 2000) \
  X(cuDeviceGetName, 2000) \
  X(cuDevicePrimaryCtxRetain, 7000) \
  X(cuCtxSetCurrent, 4000) \
  X(cuCtxSynchronize, 2000) \
  X(cuModuleLoadData, 2000) \
  X(cuModuleGetFunction, 2000) \
  X(cuFuncGetAttribute, 2020) \
  X(cuMemAlloc, 3020) \
  X(cuMemFree, 3020) \
  X(cuMemcpyHtoD, 3020) \
  X(cuMemcpyDtoH, 3020) \
  X(cuMemcpyDtoD, 3020) \
  X(cuMemsetD32, 3020) \
  X(cuLaunchKernel, 4000) \
  X(cuEventCreate, 2000) \
  X(cuEventRecord, 2000) \
  X(cuEventSynchronize, 2000) \
  X(cuEventElapsedTime, 2000) \
  X(cuEventDestroy, 4000) \
  X(cuGetErrorName, 6000) \
  X(cuGetErrorString, 6000)
// clang-format on
#define RLAB_DECLARE(name, version) PFN_##name##_v##version name = nullptr;
  RLAB_DRIVER_FUNCTIONS(RLAB_DECLARE)
#undef RLAB_DECLARE

  // Empty when every function was found; else why not.
  Message open() {
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return Message("runner.no-driver", {{"library", "libcuda.so.1"}});
    using GetProc =
        CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
    const auto getProc = reinterpret_cast<GetProc>(dlsym(library, "cuGetProcAddress_v2"));
    if (!getProc) return Message("runner.driver-before-12");
    std::string missing;
#define RLAB_FIND(name, version)                                                     \
  {                                                                                  \
    void* f = nullptr;                                                               \
    CUdriverProcAddressQueryResult found{};                                          \
    if (getProc(#name, &f, version, CU_GET_PROC_ADDRESS_DEFAULT, &found) != 0 || !f) \
      missing += std::string(missing.empty() ? "" : ", ") + #name;                   \
    name = reinterpret_cast<decltype(name)>(f);                                      \
  }
    RLAB_DRIVER_FUNCTIONS(RLAB_FIND)
#undef RLAB_FIND
    if (!missing.empty()) return Message("runner.driver-lacks", {{"functions", missing}});
    return {};
  }

  std::string words(CUresult r) const {
    const char *name = nullptr, *text = nullptr;
    if (cuGetErrorName) cuGetErrorName(r, &name);
    if (cuGetErrorString) cuGetErrorString(r, &text);
    return std::string(name ? name : "CUDA error " + std::to_string(int(r))) + " (" +
           (text ? text : "no description") + ")";
  }

  // Throws one sentence naming what failed.
  void check(CUresult r, const char* what) const {
    if (r != CUDA_SUCCESS)
      throw GpuUnavailable(Message("runner.call-failed", {{"call", what}, {"error", words(r)}}));
  }
};
#undef RLAB_DRIVER_FUNCTIONS

struct Nvrtc {
#define RLAB_NVRTC_FUNCTIONS(X) \
  X(nvrtcCreateProgram)         \
  X(nvrtcAddNameExpression)     \
  X(nvrtcCompileProgram)        \
  X(nvrtcGetProgramLogSize)     \
  X(nvrtcGetProgramLog)         \
  X(nvrtcGetLoweredName)        \
  X(nvrtcGetCUBINSize)          \
  X(nvrtcGetCUBIN)              \
  X(nvrtcGetPTXSize)            \
  X(nvrtcGetPTX)                \
  X(nvrtcDestroyProgram)        \
  X(nvrtcGetErrorString) X(nvrtcGetNumSupportedArchs) X(nvrtcGetSupportedArchs)
#define RLAB_DECLARE(name) decltype(&::name) name = nullptr;
  RLAB_NVRTC_FUNCTIONS(RLAB_DECLARE)
#undef RLAB_DECLARE

  Message open() {
    void* library = dlopen(RLAB_NVRTC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libnvrtc.so." RLAB_CUDA_MAJOR, RTLD_NOW | RTLD_LOCAL);
    if (!library) return Message("runner.no-nvrtc", {{"library", RLAB_NVRTC_LIBRARY}});
    std::string missing;
#define RLAB_FIND(name)                                           \
  name = reinterpret_cast<decltype(name)>(dlsym(library, #name)); \
  if (!name) missing += std::string(missing.empty() ? "" : ", ") + #name;
    RLAB_NVRTC_FUNCTIONS(RLAB_FIND)
#undef RLAB_FIND
    return missing.empty() ? Message() : Message("runner.nvrtc-lacks", {{"functions", missing}});
  }
};
#undef RLAB_NVRTC_FUNCTIONS

struct Compiled {
  bool ok = false;
  std::string image;    // CUBIN for the device, or PTX where NVRTC does not know it yet
  std::string lowered;  // the kernel's mangled name
  std::vector<std::string> reportLines;  // @diagnostic ...
};

// The learner's file, compiled by NVRTC for compute capability `arch` (sm_XY as XY): machine
// code where NVRTC knows the architecture, else PTX for the driver; errors as @diagnostic lines.
Compiled compile(const Nvrtc& nv, const Exercise& e, const std::string& path, int arch);

// The file's text; ParamError where it cannot be read.
std::string readFile(const std::string& path);

}  // namespace rlab::exercise
