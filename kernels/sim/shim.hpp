// CUDA for g++: include this, then a kernels/*.cuh file, and the same kernel source that nvcc
// compiles for the GPU runs on the simulator's fibers.
//
// This file and the ones it includes are the CUDA a kernel sees, and only that: every name is
// one CUDA offers, with CUDA's signature; kernels/sim/cuda_surface.def lists them, and declares
// the CUDA names the simulator does not offer so that a call to one is refused at its line.
// What they call is kernels/sim/detail/hooks.hpp, which a kernel never names. Where the
// simulator differs from CUDA, the line says so ("Differs:"). What each name becomes:
//   __global__ __device__ __host__   nothing: plain C++ functions
//   __shared__                       thread_local (static in a function): one copy per block,
//                                    because every thread of a block runs as a fiber on one
//                                    worker thread; the runtime fills it with kSharedPoisonByte
//                                    at each block start
//   extern __shared__                one buffer of the module that every such array starts at,
//                                    as big as the launch says (the exercise compiler defines it)
//   threadIdx blockIdx ...           the running fiber's coordinates
//   __syncthreads, warp operations   yield points: the scheduler decides who runs next
//   atomics                          plain read-modify-write (one thread runs at a time),
//                                    recorded in order when the launch asks for it
//   clock64()                        a logical clock: each reading is one tick
//   printf                           a yield point, as __nanosleep (printing delays a GPU
//                                    thread); kept in the launch's stats when it asks for them
//
// [SECTION] Qualifiers and coordinates
// [SECTION] printf and assert
// [SECTION] Barriers, block votes and fences
// [SECTION] Warp operations (warp_functions.hpp), atomics (atomics.hpp), device functions
//           (device_functions.hpp)
// [SECTION] What the simulator refuses
#pragma once

// Every standard header the shim needs, before any macro below: a kernel that includes one of
// them again gets nothing new, and the macros never reach a standard header.
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>  // CUDA needs no include for printf; the simulator's is below
#include <cstdlib>
#include <cstring>
#include <climits>
#include <cfloat>
#include <type_traits>

#include "kernels/sim/vector_types.hpp"

#define RLAB_SIM 1

#include "kernels/sim/detail/hooks.hpp"  // what the functions below call; not for kernels

// ============================================================================================
// [SECTION] Qualifiers and coordinates
// ============================================================================================

// Differs: a __global__ function is a plain function here, which host code could call.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
#define __align__(n) __attribute__((aligned(n)))
// Differs: no effect; the simulator has no registers to share out.
#define __launch_bounds__(...)
// Differs: a __shared__ variable declared in a __device__ helper rather than the kernel, or at
// namespace scope, is not poisoned at a block's start.
#define __shared__ thread_local
#define __restrict__ __restrict

// Differs: macros for the running fiber's coordinates, where CUDA has built-in variables.
#define threadIdx (static_cast<const uint3&>(::rlab::sim::detail::g_threadIdx))
#define blockIdx (static_cast<const uint3&>(::rlab::sim::detail::g_blockIdx))
#define blockDim (static_cast<const dim3&>(::rlab::sim::detail::g_blockDim))
#define gridDim (static_cast<const dim3&>(::rlab::sim::detail::g_gridDim))
// Differs: a constant here; CUDA's warpSize is a run-time variable, so `int a[warpSize];`
// compiles here and not under nvcc.
inline constexpr int warpSize = 32;

// ============================================================================================
// [SECTION] printf and assert
// ============================================================================================

// A failed device assertion ends the launch and names the thread, not the process.
#undef assert
#define assert(e) ((e) ? void(0) : ::rlab::sim::detail::failAssertion(#e, __FILE__, __LINE__))

// A kernel's printf: the text goes where the launch says (LaunchOptions::capturePrintf), and the
// thread then yields, so that the threads that print fall behind the others, as on a GPU.
// Differs: a function-like macro, so `std::printf(...)` after this header would not compile;
// host code that includes the shim uses std::cout or fprintf.
#define printf(...) ::rlab::sim::detail::kernelPrintf(__VA_ARGS__)

// ============================================================================================
// [SECTION] Barriers, block votes and fences
// ============================================================================================
// Differs, in every function below that takes `file` and `line`: those two are the simulator's,
// defaulted to the caller's place for its diagnostics; a kernel never passes them.

inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::rlab::sim::detail::barrier(file, line);
}
// The barrier that also counts: how many of the block's threads brought a non-zero predicate,
// whether all did, whether any did.
inline int __syncthreads_count(int predicate, const char* file = __builtin_FILE(),
                               int line = __builtin_LINE()) {
  return ::rlab::sim::detail::barrierVote(::rlab::sim::detail::BarrierVote::Count, predicate, file,
                                          line);
}
inline int __syncthreads_and(int predicate, const char* file = __builtin_FILE(),
                             int line = __builtin_LINE()) {
  return ::rlab::sim::detail::barrierVote(::rlab::sim::detail::BarrierVote::And, predicate, file,
                                          line);
}
inline int __syncthreads_or(int predicate, const char* file = __builtin_FILE(),
                            int line = __builtin_LINE()) {
  return ::rlab::sim::detail::barrierVote(::rlab::sim::detail::BarrierVote::Or, predicate, file,
                                          line);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
  ::rlab::sim::detail::warpCollective(::rlab::sim::detail::WarpOp::Sync, mask, 0, 0, 32, file,
                                      line);
}
// Differs: memory is always consistent on the simulator (one thread runs at a time); a fence
// matters to the race detector only, which honours a fence before an atomic as the release of
// what the thread wrote (the last-block ticket of CUDA's threadFenceReduction sample).
inline void __threadfence() {
  ::rlab::sim::detail::raceFence();
}
inline void __threadfence_block() {}
inline void __threadfence_system() {
  ::rlab::sim::detail::raceFence();
}
// Differs: no time passes; a pause lets other threads run, exactly what makes a missing barrier
// visible.
inline void __nanosleep(unsigned, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE()) {
  ::rlab::sim::detail::yieldPoint(file, line);
}
// ---- Thread block clusters (sm_90)
// --------------------------------------------------------------- Differs: __cluster_dims__ is
// taken from the launch: the simulator cannot read a kernel's attributes, so the launch says the
// cluster's shape (sim::LaunchOptions::cluster; the lessons' drivers and the exercise runner pass
// what the kernel declares). A launch without clusters is a grid of clusters of one block, as CUDA
// counts it.
#define __cluster_dims__(...)
inline unsigned __clusterDimIsSpecified() {
  const dim3& c = ::rlab::sim::detail::g_clusterDim;
  return c.x * c.y * c.z > 1;
}
inline dim3 __clusterDim() {
  return ::rlab::sim::detail::g_clusterDim;
}
inline dim3 __clusterRelativeBlockIdx() {
  const dim3& c = ::rlab::sim::detail::g_clusterDim;
  return dim3(blockIdx.x % c.x, blockIdx.y % c.y, blockIdx.z % c.z);
}
inline dim3 __clusterIdx() {
  const dim3& c = ::rlab::sim::detail::g_clusterDim;
  return dim3(blockIdx.x / c.x, blockIdx.y / c.y, blockIdx.z / c.z);
}
inline dim3 __clusterGridDimInClusters() {
  const dim3& c = ::rlab::sim::detail::g_clusterDim;
  return dim3(gridDim.x / c.x, gridDim.y / c.y, gridDim.z / c.z);
}
inline unsigned __clusterSizeInBlocks() {
  const dim3& c = ::rlab::sim::detail::g_clusterDim;
  return c.x * c.y * c.z;
}
inline unsigned __clusterRelativeBlockRank() {
  const dim3& c = ::rlab::sim::detail::g_clusterDim;
  const dim3 r = __clusterRelativeBlockIdx();
  return r.x + c.x * (r.y + c.y * r.z);
}
// Differs: the split barrier (__cluster_barrier_arrive and _wait) is not offered; this is both
// halves at once, as cluster.sync() is.
inline void __rlab_cluster_sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::rlab::sim::detail::clusterBarrier(file, line);
}
inline void* __cluster_map_shared_rank(const void* ptr, unsigned target_block_rank,
                                       const char* file = __builtin_FILE(),
                                       int line = __builtin_LINE()) {
  return ::rlab::sim::detail::clusterMapShared(ptr, target_block_rank, file, line);
}
inline unsigned __cluster_query_shared_rank(const void* ptr, const char* file = __builtin_FILE(),
                                            int line = __builtin_LINE()) {
  return ::rlab::sim::detail::clusterQueryShared(ptr, file, line);
}

// Ends the launch as a failed assertion would, naming the thread and the line.
[[noreturn]] inline void __trap(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::rlab::sim::detail::failInKernel("sim.trap", "sim.trap-in-block", "called __trap().", file,
                                    line);
}

#include "kernels/sim/atomics.hpp"
#include "kernels/sim/device_functions.hpp"
#include "kernels/sim/warp_functions.hpp"

// ============================================================================================
// [SECTION] What the simulator refuses
// ============================================================================================
// Every CUDA device function the simulator does not offer, and every one CUDA no longer has, is
// declared here, so that a kernel that calls one is refused at its line with one sentence
// rather than left to the compiler's "was not declared; did you mean". The exercise compiler
// gives the sentence without the compiler's "static assertion failed".

namespace rlab::sim::detail {
template <class...>
inline constexpr bool kRefused = false;
struct AnyValue {  // converts to whatever the refused call was meant to give, so no more errors
  template <class T>
  operator T() const {
    return T();
  }
};
}  // namespace rlab::sim::detail

#define RLAB_REFUSED_FUNCTION(name, sentence)                        \
  template <class... Args>                                           \
  ::rlab::sim::detail::AnyValue name(Args&&...) {                    \
    static_assert(::rlab::sim::detail::kRefused<Args...>, sentence); \
    return {};                                                       \
  }
#define RLAB_CUDA_NOT_OFFERED(group, name) \
  RLAB_REFUSED_FUNCTION(name, RLAB_NOT_OFFERED_SENTENCE(#name))
#define RLAB_CUDA_REMOVED(group, name, why) \
  RLAB_REFUSED_FUNCTION(name, RLAB_REMOVED_SENTENCE(#name, why))
#include "kernels/sim/cuda_surface.def"
