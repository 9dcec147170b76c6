// CUDA for g++: include this, then a kernels/*.cuh file, and the same kernel source that nvcc
// compiles for the GPU runs on the simulator's fibers.
//
// What each name becomes here:
//   __global__ __device__ __host__   nothing: plain C++ functions
//   __shared__                       static thread_local: one copy per block, because every
//                                    thread of a block runs as a fiber on one worker thread;
//                                    the runtime fills it with kSharedPoisonByte at each block
//                                    start
//   threadIdx blockIdx ...           the running fiber's coordinates
//   __syncthreads, warp operations   yield points: the scheduler decides who runs next
//   atomics                          plain read-modify-write (one thread runs at a time),
//                                    recorded in order when the launch asks for it
//   clock64()                        a logical clock: each reading is one tick
//   printf                           a yield point, as __nanosleep (printing delays a GPU
//                                    thread); kept in the launch's stats when it asks for them
#pragma once

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>  // CUDA needs no include for printf; the simulator's is below
#include <cstring>
#include <type_traits>

#include "kernels/sim/runtime.hpp"
#include "kernels/sim/vector_types.hpp"

#define RLAB_SIM 1

#include "kernels/sim/detail/hooks.hpp"  // what the functions below call; not for kernels

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static thread_local
#define __restrict__ __restrict

#define threadIdx (static_cast<const uint3&>(::rlab::sim::detail::g_threadIdx))
#define blockIdx (static_cast<const uint3&>(::rlab::sim::detail::g_blockIdx))
#define blockDim (static_cast<const dim3&>(::rlab::sim::detail::g_blockDim))
#define gridDim (static_cast<const dim3&>(::rlab::sim::detail::g_gridDim))
inline constexpr int warpSize = 32;

// A failed device assertion ends the launch and names the thread, not the process.
#undef assert
#define assert(e) ((e) ? void(0) : ::rlab::sim::detail::failAssertion(#e, __FILE__, __LINE__))

// A kernel's printf: the text goes where the launch says (LaunchOptions::capturePrintf), and the
// thread then yields, so that the threads that print fall behind the others, as on a GPU.
// (A function-like macro: `std::printf(...)` after this header would not compile; host code
// that includes the shim uses std::cout or fprintf.)
#define printf(...) ::rlab::sim::detail::kernelPrintf(__VA_ARGS__)

// ---- Barriers and friends -------------------------------------------------------------------

inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::rlab::sim::detail::barrier(file, line);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
  ::rlab::sim::detail::warpCollective(::rlab::sim::detail::WarpOp::Sync, mask, 0, 0, 32, file,
                                      line);
}
// One thread runs at a time on the simulator, so memory is always consistent.
inline void __threadfence() {}
inline void __threadfence_block() {}
// A pause lets other threads run: exactly what makes a missing barrier visible.
inline void __nanosleep(unsigned, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE()) {
  ::rlab::sim::detail::yieldPoint(file, line);
}
// The simulator's clock counts its readings: one thread runs at a time, so two readings never
// tie and their order is the order the schedule ran the threads in (exact, unlike a GPU's).
inline long long clock64() {
  return ++::rlab::sim::detail::g_logicalClock;
}
[[noreturn]] inline void __trap() {
  ::rlab::sim::detail::failAssertion("__trap()", "", 0);
}

// ---- Warp operations --------------------------------------------------------------------------

#define RLAB_WARP_CALL(op, mask, value, arg, width)                                                \
  ::rlab::sim::detail::fromBits<T>(::rlab::sim::detail::warpCollective(                            \
      ::rlab::sim::detail::WarpOp::op, mask, ::rlab::sim::detail::toBits(value), arg, width, file, \
      line))

template <class T>
T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,
              const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return RLAB_WARP_CALL(Shfl, mask, var, srcLane, width);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                 const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return RLAB_WARP_CALL(ShflUp, mask, var, static_cast<int>(delta), width);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                   const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return RLAB_WARP_CALL(ShflDown, mask, var, static_cast<int>(delta), width);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,
                  const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return RLAB_WARP_CALL(ShflXor, mask, var, laneMask, width);
}
#undef RLAB_WARP_CALL

inline unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                              int line = __builtin_LINE()) {
  return static_cast<unsigned>(::rlab::sim::detail::warpCollective(
      ::rlab::sim::detail::WarpOp::Ballot, mask, predicate != 0, 0, 32, file, line));
}
inline int __any_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  return static_cast<int>(::rlab::sim::detail::warpCollective(
      ::rlab::sim::detail::WarpOp::Any, mask, predicate != 0, 0, 32, file, line));
}
inline int __all_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  return static_cast<int>(::rlab::sim::detail::warpCollective(
      ::rlab::sim::detail::WarpOp::All, mask, predicate != 0, 0, 32, file, line));
}

// ---- Atomics: CUDA's overloads for int, unsigned, float and double ----------------------------

#define RLAB_ATOMIC(name, T, expression)                                                      \
  inline T name(T* address, T value) {                                                        \
    return ::rlab::sim::detail::readModifyWrite<T>(address, value,                            \
                                                   [](T a, T b) -> T { return expression; }); \
  }
#define RLAB_ATOMICS_FOR(T)                                         \
  RLAB_ATOMIC(atomicAdd, T, ::rlab::sim::detail::wrappingAdd(a, b)) \
  RLAB_ATOMIC(atomicMax, T, a < b ? b : a)                          \
  RLAB_ATOMIC(atomicMin, T, b < a ? b : a)                          \
  RLAB_ATOMIC(atomicExch, T, ((void)a, b))
RLAB_ATOMICS_FOR(int)
RLAB_ATOMICS_FOR(unsigned)
RLAB_ATOMICS_FOR(unsigned long long)
RLAB_ATOMICS_FOR(float)
RLAB_ATOMICS_FOR(double)
#undef RLAB_ATOMICS_FOR
#undef RLAB_ATOMIC

template <class T>
T atomicCAS(T* address, T compare, T value) {
  static_assert(std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
                    std::is_same_v<T, unsigned long long> || std::is_same_v<T, float> ||
                    std::is_same_v<T, double>,
                "atomicCAS takes int, unsigned, unsigned long long, float or double");
  T old = *address;
  if (std::memcmp(&old, &compare, sizeof(T)) == 0) *address = value;
  if (::rlab::sim::detail::g_recordAtomics)
    ::rlab::sim::detail::noteAtomic(address, static_cast<double>(old), static_cast<double>(value),
                                    static_cast<double>(*address));
  return old;
}

// ---- Device functions CUDA puts in the global namespace ---------------------------------------

inline int max(int a, int b) {
  return a < b ? b : a;
}
inline int min(int a, int b) {
  return b < a ? b : a;
}
inline unsigned max(unsigned a, unsigned b) {
  return a < b ? b : a;
}
inline unsigned min(unsigned a, unsigned b) {
  return b < a ? b : a;
}
inline long long max(long long a, long long b) {
  return a < b ? b : a;
}
inline long long min(long long a, long long b) {
  return b < a ? b : a;
}
inline float max(float a, float b) {
  return std::fmax(a, b);
}
inline float min(float a, float b) {
  return std::fmin(a, b);
}
inline double max(double a, double b) {
  return std::fmax(a, b);
}
inline double min(double a, double b) {
  return std::fmin(a, b);
}
inline int __float_as_int(float f) {
  return ::rlab::sim::detail::fromBits<int>(::rlab::sim::detail::toBits(f));
}
inline float __int_as_float(int i) {
  return ::rlab::sim::detail::fromBits<float>(::rlab::sim::detail::toBits(i));
}
inline unsigned long long __double_as_longlong(double d) {
  return ::rlab::sim::detail::fromBits<unsigned long long>(::rlab::sim::detail::toBits(d));
}
inline double __longlong_as_double(unsigned long long i) {
  return ::rlab::sim::detail::fromBits<double>(::rlab::sim::detail::toBits(i));
}
template <class T>
T __ldg(const T* p) {
  return *p;
}
