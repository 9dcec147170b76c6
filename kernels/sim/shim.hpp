// CUDA for g++: include this, then a kernels/*.cuh file, and the same kernel source that nvcc
// compiles for the GPU runs on the simulator's fibers.
//
// This file is the CUDA a kernel sees, and only that: every name below is one CUDA offers, with
// CUDA's signature. What they call is kernels/sim/detail/hooks.hpp, which a kernel never names.
// Where the simulator differs from CUDA, the line says so ("Differs:"). What each name becomes:
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

// Differs: a __global__ function is a plain function here, which host code could call.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
// Differs: `extern __shared__` (dynamic shared memory) does not compile here, and a __shared__
// variable declared in a __device__ helper rather than the kernel is not poisoned.
#define __shared__ static thread_local
#define __restrict__ __restrict

// Differs: macros for the running fiber's coordinates, where CUDA has built-in variables.
#define threadIdx (static_cast<const uint3&>(::rlab::sim::detail::g_threadIdx))
#define blockIdx (static_cast<const uint3&>(::rlab::sim::detail::g_blockIdx))
#define blockDim (static_cast<const dim3&>(::rlab::sim::detail::g_blockDim))
#define gridDim (static_cast<const dim3&>(::rlab::sim::detail::g_gridDim))
// Differs: a constant here; CUDA's warpSize is a run-time variable, so `int a[warpSize];`
// compiles here and not under nvcc.
inline constexpr int warpSize = 32;

// A failed device assertion ends the launch and names the thread, not the process.
#undef assert
#define assert(e) ((e) ? void(0) : ::rlab::sim::detail::failAssertion(#e, __FILE__, __LINE__))

// A kernel's printf: the text goes where the launch says (LaunchOptions::capturePrintf), and the
// thread then yields, so that the threads that print fall behind the others, as on a GPU.
// Differs: a function-like macro, so `std::printf(...)` after this header would not compile;
// host code that includes the shim uses std::cout or fprintf.
#define printf(...) ::rlab::sim::detail::kernelPrintf(__VA_ARGS__)

// ---- Barriers and friends -----------------------------------------------------------------------
// Differs, in every function below that takes `file` and `line`: those two are the simulator's,
// defaulted to the caller's place for its diagnostics; a kernel never passes them.

inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::rlab::sim::detail::barrier(file, line);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
  ::rlab::sim::detail::warpCollective(::rlab::sim::detail::WarpOp::Sync, mask, 0, 0, 32, file,
                                      line);
}
// Differs: nothing to do; one thread runs at a time on the simulator, so memory is always
// consistent.
inline void __threadfence() {}
inline void __threadfence_block() {}
// Differs: no time passes; a pause lets other threads run, exactly what makes a missing barrier
// visible.
inline void __nanosleep(unsigned, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE()) {
  ::rlab::sim::detail::yieldPoint(file, line);
}
// Differs: the simulator's clock counts its readings: one thread runs at a time, so two readings
// never tie and their order is the order the schedule ran the threads in (exact, unlike a GPU's).
inline long long clock64() {
  return ++::rlab::sim::detail::g_logicalClock;
}
// Ends the launch as a failed assertion would, naming the thread.
[[noreturn]] inline void __trap() {
  ::rlab::sim::detail::failAssertion("__trap()", "", 0);
}

// ---- Warp operations ----------------------------------------------------------------------------
// Differs: a lane that reads from a lane outside the mask or past the width gets its own value
// (undefined in CUDA), and the shuffles take any trivially copyable type of at most 8 bytes where
// CUDA has overloads for the arithmetic types (and __half, __half2).

template <class T>
T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,
              const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::Shfl, mask, var, srcLane,
                                        width, file, line);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                 const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::ShflUp, mask, var,
                                        static_cast<int>(delta), width, file, line);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                   const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::ShflDown, mask, var,
                                        static_cast<int>(delta), width, file, line);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,
                  const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::ShflXor, mask, var, laneMask,
                                        width, file, line);
}

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

// ---- Atomics ------------------------------------------------------------------------------------
// Each overload below is one CUDA 13 declares (sm_20/sm_32/sm_60_atomic_functions.h and
// device_atomic_functions.h), and only those: a call CUDA refuses, such as atomicMax on a float,
// does not compile here either. Differs: plain read-modify-writes (one thread runs at a time), in
// the order the schedule runs the threads. Not offered yet (the compiler says it is not declared
// or has no such overload): atomicSub, atomicInc, atomicDec, atomicAnd, atomicOr, atomicXor,
// atomicMax and atomicMin on long long, atomicCAS on unsigned short, the 16-byte atomicCAS and
// atomicExch, atomicAdd on __half, __nv_bfloat16, float2 and float4, and the _block and _system
// forms.

#define RLAB_ATOMIC(name, T, expression)                                                      \
  inline T name(T* address, T value) {                                                        \
    return ::rlab::sim::detail::readModifyWrite<T>(address, value,                            \
                                                   [](T a, T b) -> T { return expression; }); \
  }
// The GPU's int atomicAdd wraps around; in C++ signed overflow would be undefined.
RLAB_ATOMIC(atomicAdd, int, static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b)))
RLAB_ATOMIC(atomicAdd, unsigned, a + b)
RLAB_ATOMIC(atomicAdd, unsigned long long, a + b)
RLAB_ATOMIC(atomicAdd, float, a + b)
RLAB_ATOMIC(atomicAdd, double, a + b)
RLAB_ATOMIC(atomicMax, int, a < b ? b : a)
RLAB_ATOMIC(atomicMax, unsigned, a < b ? b : a)
RLAB_ATOMIC(atomicMax, unsigned long long, a < b ? b : a)
RLAB_ATOMIC(atomicMin, int, b < a ? b : a)
RLAB_ATOMIC(atomicMin, unsigned, b < a ? b : a)
RLAB_ATOMIC(atomicMin, unsigned long long, b < a ? b : a)
RLAB_ATOMIC(atomicExch, int, ((void)a, b))
RLAB_ATOMIC(atomicExch, unsigned, ((void)a, b))
RLAB_ATOMIC(atomicExch, unsigned long long, ((void)a, b))
RLAB_ATOMIC(atomicExch, float, ((void)a, b))
#undef RLAB_ATOMIC

inline int atomicCAS(int* address, int compare, int value) {
  return ::rlab::sim::detail::compareAndSwap(address, compare, value);
}
inline unsigned atomicCAS(unsigned* address, unsigned compare, unsigned value) {
  return ::rlab::sim::detail::compareAndSwap(address, compare, value);
}
inline unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                    unsigned long long value) {
  return ::rlab::sim::detail::compareAndSwap(address, compare, value);
}

// ---- Device functions CUDA puts in the global namespace -----------------------------------------

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
inline long long __double_as_longlong(double d) {
  return ::rlab::sim::detail::fromBits<long long>(::rlab::sim::detail::toBits(d));
}
inline double __longlong_as_double(long long i) {
  return ::rlab::sim::detail::fromBits<double>(::rlab::sim::detail::toBits(i));
}
// Differs: a plain load, for any type; CUDA's __ldg reads through the read-only cache and has
// overloads for the arithmetic and vector types only.
template <class T>
T __ldg(const T* p) {
  return *p;
}
