// What a kernel file compiled on its own (a learner's exercise) sees after the shim: the macros
// nvcc defines that would break a host header included after them, which the lessons' own
// translation units do include (libstdc++ spells its attributes __noinline__, and Boost tells
// nvcc apart by __CUDACC__).
#pragma once

#include "kernels/sim/shim.hpp"

#define __noinline__ __attribute__((noinline))
// Differs: the simulator compiles device code only, as sm_90 sees it (it offers the functions
// sm_90 has, such as __reduce_add_sync), so `#if __CUDA_ARCH__ >= 800` takes the device's path.
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
