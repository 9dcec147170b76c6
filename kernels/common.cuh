// What every lesson's kernels share: the reduction operators, one atomic for any operator,
// the trace recorder, and the barrier a learner can switch off.
#pragma once

#include <cmath>
#ifndef RLAB_SIM
#include <cuda/atomic>
#endif

// ---- Operators --------------------------------------------------------------------------------
// Int arithmetic wraps (two's complement, as the GPU does) instead of being undefined in C++,
// so a 32-bit sum that overflows gives the same answer on every backend.

struct SumOp {
  template <class T>
  __host__ __device__ static T identity() {
    return T(0);
  }
  __host__ __device__ static int apply(int a, int b) { return int(unsigned(a) + unsigned(b)); }
  __host__ __device__ static float apply(float a, float b) { return a + b; }
};

struct ProductOp {
  template <class T>
  __host__ __device__ static T identity() {
    return T(1);
  }
  __host__ __device__ static int apply(int a, int b) { return int(unsigned(a) * unsigned(b)); }
  __host__ __device__ static float apply(float a, float b) { return a * b; }
};

// Not a reduction operator, a demonstration of why: (a - b) - c is not a - (b - c), and 0 is an
// identity only on the right, so each kernel's order of operations gives its own answer.
struct SubtractOp {
  template <class T>
  __host__ __device__ static T identity() {
    return T(0);
  }
  __host__ __device__ static int apply(int a, int b) { return int(unsigned(a) - unsigned(b)); }
  __host__ __device__ static float apply(float a, float b) { return a - b; }
};

struct MaxOp {
  template <class T>
  __host__ __device__ static T identity();
  template <class T>
  __host__ __device__ static T apply(T a, T b) {
    return a < b ? b : a;
  }
};
template <>
__host__ __device__ inline int MaxOp::identity<int>() {
  return -2147483647 - 1;
}
template <>
__host__ __device__ inline float MaxOp::identity<float>() {
  return -INFINITY;
}

struct MinOp {
  template <class T>
  __host__ __device__ static T identity();
  template <class T>
  __host__ __device__ static T apply(T a, T b) {
    return b < a ? b : a;
  }
};
template <>
__host__ __device__ inline int MinOp::identity<int>() {
  return 2147483647;
}
template <>
__host__ __device__ inline float MinOp::identity<float>() {
  return INFINITY;
}

// ---- One atomic for any operator --------------------------------------------------------------
// Sums use atomicAdd, int max/min their own atomics; everything else is the classic
// compare-and-swap loop on the value's bits.

__device__ __forceinline__ int bitsOf(int v) {
  return v;
}
__device__ __forceinline__ int bitsOf(float v) {
  return __float_as_int(v);
}
template <class T>
__device__ __forceinline__ T fromBits(int bits);
template <>
__device__ __forceinline__ int fromBits<int>(int bits) {
  return bits;
}
template <>
__device__ __forceinline__ float fromBits<float>(int bits) {
  return __int_as_float(bits);
}

template <class Op, class T>
__device__ T atomicCombine(T* address, T value) {
  int* word = reinterpret_cast<int*>(address);
  int old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, bitsOf(Op::apply(fromBits<T>(assumed), value)));
  } while (assumed != old);
  return fromBits<T>(old);
}
template <>
__device__ inline int atomicCombine<SumOp, int>(int* address, int value) {
  return atomicAdd(address, value);
}
template <>
__device__ inline float atomicCombine<SumOp, float>(float* address, float value) {
  return atomicAdd(address, value);
}
template <>
__device__ inline int atomicCombine<MaxOp, int>(int* address, int value) {
  return atomicMax(address, value);
}
template <>
__device__ inline int atomicCombine<MinOp, int>(int* address, int value) {
  return atomicMin(address, value);
}

// ---- Flagged slots ----------------------------------------------------------------------------
// One 64-bit word per value: the value's 32 bits and a "written" bit, stored in one access, so
// a reader that sees the bit also sees the value, with no fence between writer and reader.
// Slots are zero before the launch.

template <class T>
__device__ __forceinline__ void publish(unsigned long long* slot, T value) {
  const unsigned long long word = 1ull << 32 | unsigned(bitsOf(value));
#ifdef RLAB_SIM
  *slot = word;
#else
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*slot).store(
      word, cuda::memory_order_relaxed);
#endif
}

// Reads a slot once, without waiting: false while its value is still on its way.
template <class T>
__device__ __forceinline__ bool readPublished(unsigned long long* slot, T& value) {
#ifdef RLAB_SIM
  const unsigned long long word = *slot;
#else
  const unsigned long long word =
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*slot).load(
          cuda::memory_order_relaxed);
#endif
  value = fromBits<T>(int(unsigned(word)));
  return word >> 32;
}

// ---- Trace recorder ---------------------------------------------------------------------------
// Null pointers in timing runs: every call below is then a test and nothing more.
// combine() records, per step and thread, which element the thread combined into which, the
// two values it read and the value it wrote; the host replays those writes onto the step's
// input, so a snapshot never races with threads already at the next level, and compares what
// each thread read with what the array held when the step began: a read that came too early
// (a race) shows the stale value the thread really used. value() records a thread's own
// register value (values[step][element]) where there is no array to replay. A combine whose
// source is its target records a thread's own value, with nothing read from another thread.
// combine() also records the kernel line it was called from (the line where the combine
// happens), so a view can point at the code of a read that came too early.
// Where the recording has clocks, now() before the reads and combine() after the write stamp
// when each happened: clock64() on a GPU (a measurement, one counter per SM), and on the
// simulator a logical clock that counts every stamp, so that its order is exactly the order
// the schedule ran the threads in.
// gather() records a thread's k-th read of its own elements before a tree (coarsening): which
// element it read and the value it got, so a view shows the elements each thread really took.

// The recording is the lesson's instrument, not its kernel: on the simulator the race detector
// does not look at its loads and stores (no hooks in these functions, which are then not
// inlined into the kernel that has them).
#ifdef RLAB_SIM
#define RLAB_RECORDING __attribute__((no_sanitize_thread, noinline))
#else
#define RLAB_RECORDING
#endif

template <class T>
struct StepRecorder {
  T* values = nullptr;
  T* written = nullptr;
  T* readTarget = nullptr;          // what the thread read at the element it writes
  T* readSource = nullptr;          // what it read at the element it combines in
  int* reads = nullptr;             // the source element
  int* writes = nullptr;            // the target element
  long long* readClock = nullptr;   // when the thread began its reads (now())
  long long* writeClock = nullptr;  // when it had written (taken in combine())
  int* lines = nullptr;             // the kernel line of the combine() call
  int* gathered = nullptr;          // gather(): the element of a thread's k-th read ...
  T* gatheredValues = nullptr;      // ... and the value it read there
  int gatherReads = 0;              // reads recorded per thread
  long long width = 0;              // elements per step (value)
  long long threads = 0;            // threads per step (combine)
  int steps = 0;

  RLAB_RECORDING __device__ void value(int step, long long element, T v) const {
    if (values && step < steps && element < width) values[step * width + element] = v;
  }
  RLAB_RECORDING __device__ void gather(long long thread, int k, long long element, T v) const {
    if (gathered && k < gatherReads && thread < threads) {
      gathered[thread * gatherReads + k] = int(element);
      gatheredValues[thread * gatherReads + k] = v;
    }
  }
  RLAB_RECORDING __device__ long long now() const { return readClock ? (long long)clock64() : -1; }
  RLAB_RECORDING __device__ void combine(int step, long long thread, long long target,
                                         long long source, T targetValue, T sourceValue, T result,
                                         long long readAt = -1, int line = __builtin_LINE()) const {
    if (writes && step < steps && thread < threads) {
#ifdef RLAB_SIM
      // The simulator files this thread's global loads and stores so far under this step.
      if (::rlab::sim::detail::g_recordingMemory) ::rlab::sim::detail::noteStep(step);
#endif
      const long long k = step * threads + thread;
      if (readClock) {
        writeClock[k] = (long long)clock64();
        readClock[k] = readAt;
      }
      writes[k] = int(target);
      reads[k] = int(source);
      if (lines) lines[k] = line;
      readTarget[k] = targetValue;
      readSource[k] = sourceValue;
      written[k] = result;
    }
  }
  // A thread that only moves an element (foldInto's odd middle one) combines nothing, but its
  // loads and stores belong to this step as a combine's would: in the warp's requests of this
  // step, where the GPU counts them.
  RLAB_RECORDING __device__ void moved(int step) const {
#ifdef RLAB_SIM
    if (writes && step < steps && ::rlab::sim::detail::g_recordingMemory)
      ::rlab::sim::detail::noteStep(step);
#endif
  }
};

// What a kernel with only value() calls takes in place of a StepRecorder in a run that is only
// timed: nothing to pass and no tests in the code. (A copy of the fastest kernel without any
// recording, timed beside CUB at 4096 ints on an H100: 3.71 microseconds, against 3.90 for the
// kernel with a StepRecorder of null pointers.)
template <class T>
struct NoRecorder {
  __device__ void value(int, long long, T) const {}
};

// Equal, or both NaN: a NaN in the input makes every thread's total NaN, and that is agreement.
template <class T>
__device__ __forceinline__ bool sameValue(T a, T b) {
  return a == b || (a != a && b != b);
}

// ---- The barrier a learner can switch off -----------------------------------------------------
// On the GPU "off" is simply no barrier. The simulator still lets other threads run at this
// spot, as a real GPU might, so the race can show.
__device__ __forceinline__ void switchableBarrier(bool on) {
#ifdef RLAB_SIM
  if (on)
    __syncthreads();
  else
    __nanosleep(0);
#else
  if (on) __syncthreads();
#endif
}

// The same for the lanes of one warp: __syncwarp() where warp-synchronous code needs one. On the
// GPU "off" is nothing at all, as in code written for GPUs before Volta. On the simulator it is
// a warp step: the lanes may part there, as a Volta or later GPU may let them, and the lane
// schedules (lane:T:S:K, lanes-random:SEED) decide whether they do.
__device__ __forceinline__ void switchableSyncwarp(bool on) {
#ifdef RLAB_SIM
  if (on)
    __syncwarp();
  else
    ::rlab::sim::detail::warpStep(__FILE__, __LINE__);
#else
  if (on) __syncwarp();
#endif
}
