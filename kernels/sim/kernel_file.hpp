// What a kernel file compiled on its own (a learner's exercise) sees after the shim: the macros
// nvcc defines that would break a host header included after them, which the lessons' own
// translation units do include (Boost tells nvcc apart by __CUDACC__).
#pragma once

#include "kernels/sim/shim.hpp"

// CUDA's __noinline__ is no macro here: libstdc++ (g++ 14's headers, for one) writes
// __attribute__((__noinline__)), which a macro of that name would break in every header the
// learner includes after it. The exercise compiler writes the learner's __noinline__ as this
// name instead, as long as the word, so the compiler's columns stay the learner's.
#define __rlab_noinl __attribute__((noinline))
// Differs: the simulator compiles device code only, as sm_90 sees it (it offers the functions
// sm_90 has, such as __reduce_add_sync), so `#if __CUDA_ARCH__ >= 800` takes the device's path.
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
