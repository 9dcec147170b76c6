// The simulator's side of the CUDA surface: the globals that shim.hpp's inline functions read
// and the hooks they call (kernels/sim/hooks.cpp and the runtime define them). A kernel never
// includes this: it includes kernels/sim/shim.hpp, which includes this, as HIP-CPU keeps its
// own in detail/. Nothing here is CUDA; a name a kernel can use belongs in shim.hpp.
#pragma once

// shim.hpp defines RLAB_SIM; the runtime's library RLAB_SIM_DETAIL (kernels/CMakeLists.txt).
#if !defined(RLAB_SIM) && !defined(RLAB_SIM_DETAIL)
#error "kernels/sim/detail/ is the simulator's own; a kernel includes kernels/sim/shim.hpp"
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/sim/vector_types.hpp"

namespace rlab::sim::detail {

// The running thread's coordinates and what its launch asked for: plain globals that the shim's
// inline functions read, written by the runtime on the worker thread (where every kernel runs).
extern uint3 g_threadIdx;         // set at every switch to a thread (block_run.hpp)
extern uint3 g_blockIdx;          // set at every block (launch.cpp)
extern dim3 g_blockDim;           // set at every launch (launch.cpp)
extern dim3 g_gridDim;            // set at every launch (launch.cpp)
extern bool g_recordAtomics;      // LaunchOptions::recordAtomics
extern long long g_logicalClock;  // clock64(): the readings so far
extern bool g_recordingMemory;    // the launch watches global memory (LaunchOptions::watch)
extern dim3 g_clusterDim;         // set at every launch (LaunchOptions::cluster)

// The warp operations the runtime knows (warp_ops.cpp says what each one gives each lane).
// ActiveMask waits for the lanes of its warp that reach the same line before their next
// synchronisation; the Reduce* ops take `arg` 1 for signed values.
enum class WarpOp {
  Sync,
  Shfl,
  ShflUp,
  ShflDown,
  ShflXor,
  Ballot,
  Any,
  All,
  MatchAny,
  MatchAll,
  ReduceAdd,
  ReduceMin,
  ReduceMax,
  ReduceAnd,
  ReduceOr,
  ReduceXor,
  ActiveMask
};

// What a barrier hands back to every thread of the block (__syncthreads_count, _and, _or).
enum class BarrierVote { None, Count, And, Or };

// Where a kernel meets the runtime: hooks.cpp (noteStep: memory_watch.cpp).
void barrier(const char* file, int line);
int barrierVote(BarrierVote vote, int predicate, const char* file, int line);
void yieldPoint(const char* file, int line);  // a switched-off barrier, __nanosleep
// Where warp-synchronous code has no __syncwarp(): a yield at which a lane schedule may hold
// the lane while the others of its warp go on (a warp step, see runtime.hpp's Schedule).
void warpStep(const char* file, int line);
uint64_t warpCollective(WarpOp op, unsigned mask, uint64_t bits, int arg, int width,
                        const char* file, int line);
// Thread block clusters (cluster.cpp): cluster.sync(), map_shared_rank, query_shared_rank.
void clusterBarrier(const char* file, int line);
void* clusterMapShared(const void* p, unsigned rank, const char* file, int line);
unsigned clusterQueryShared(const void* p, const char* file, int line);
void noteAtomic(const void* address, double old, double operand, double after);
void noteStep(int step);  // the running thread's accesses so far belong to `step`
// The race detector's (race_detector.cpp): __threadfence(), and an atomic's span, whose own
// load and store are one atomic access rather than a plain read and write.
void raceFence();
void raceAtomicBegin(const void* address, unsigned bytes);
void raceAtomicEnd();
struct AtomicSpan {
  AtomicSpan(const void* address, unsigned bytes) { raceAtomicBegin(address, bytes); }
  ~AtomicSpan() { raceAtomicEnd(); }
  AtomicSpan(const AtomicSpan&) = delete;
  AtomicSpan& operator=(const AtomicSpan&) = delete;
};
[[noreturn]] void failAssertion(const char* expression, const char* file, int line);
// Ends the launch: the running thread did what it cannot go on from, at file:line (line 0: no
// line). `id` and `idInBlock` name the sentence for a launch of one block and of several (the
// simulator's LaunchFailure ids: lessons/engine/texts/messages/*.txt); `english` is the sentence in
// English after "thread T at file:line ".
[[noreturn]] void failInKernel(const char* id, const char* idInBlock, const char* english,
                               const char* file, int line);
// CUDA's device heap (malloc, free, new and delete in a kernel): sim::kDeviceHeapBytes in all;
// a request past it gets a null pointer, as on a GPU.
void* deviceMalloc(size_t bytes);
void deviceFree(void* pointer);
int kernelPrintf(const char* format, ...) __attribute__((format(printf, 1, 2)));

template <class T>
uint64_t toBits(T value) {
  static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>,
                "warp operations move values of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <class T>
T fromBits(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// A warp operation that moves a value: its bits travel, its type comes back.
template <class T>
T warpValue(WarpOp op, unsigned mask, T value, int arg, int width, const char* file, int line) {
  return fromBits<T>(warpCollective(op, mask, toBits(value), arg, width, file, line));
}

// An atomic: `combine` makes the new value from the old one and the operand. Atomics on
// numbers are recorded; those on vectors (atomicAdd on a float4) are not.
template <class T>
T readModifyWrite(T* address, T operand, T (*combine)(T, T)) {
  const AtomicSpan span(address, sizeof(T));
  T old = *address;
  *address = combine(old, operand);
  if constexpr (std::is_arithmetic_v<T>)
    if (g_recordAtomics)
      noteAtomic(address, static_cast<double>(old), static_cast<double>(operand),
                 static_cast<double>(*address));
  return old;
}

// atomicCAS: the operand recorded is the value it would store.
template <class T>
T compareAndSwap(T* address, T compare, T value) {
  const AtomicSpan span(address, sizeof(T));
  const T old = *address;
  if (old == compare) *address = value;
  if (g_recordAtomics)
    noteAtomic(address, static_cast<double>(old), static_cast<double>(value),
               static_cast<double>(*address));
  return old;
}

}  // namespace rlab::sim::detail
