// Lesson "lastwarp": the last warp of the shared-memory tree, and what keeps its lanes together.
#pragma once
#include "kernels/common.cuh"

// How long a paused lane sleeps on a GPU (--delay): many times a whole level's work, so that
// the lanes that read what it writes get there first. (On the simulator any __nanosleep is one
// yield: the lane sits out the rest of the round.)
constexpr unsigned kLanePauseNs = 20000;

// The shared lesson's tree waits at __syncthreads() after every level, also after the last six,
// when every thread still working is in warp 0 and a barrier for the whole block is more than
// that warp needs. Harris's kernel 5 (2007) drops them: from stride 32 on, warp 0 finishes
// alone, unrolled, with no barrier at all, because the 32 lanes of a warp ran in lockstep: each
// instruction for every lane at once, so every lane had read before any lane wrote. It adds
// every step on all 32 lanes (lane 16's sum at stride 16 is not needed, but an `if` costs more
// than the addition in a warp that runs in step anyway).
//
// The levels above the last warp, shared by every variant: the block's tree in shared memory
// down to 64 partial results, in s[0..63], with a barrier after each level. `level` comes back
// counting them. perturb makes every third thread pause at each level, as a printf would;
// lateThread pauses before lateLevel (-1: nobody), to force on a GPU a race the simulator found.
template <class T, class Op>
__device__ int treeDownTo64(T* s, const T* in, long long n, bool perturb, int lateThread,
                            int lateLevel, StepRecorder<T> trace) {
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : Op::template identity<T>();
  __syncthreads();
  int level = 0;
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2, ++level) {
    if (perturb && tid % 3 == 0) __nanosleep(2000);
    if ((int)tid == lateThread && level == lateLevel) __nanosleep(kLanePauseNs);
    if (tid < stride) {
      const long long readAt = trace.now();
      const T mine = s[tid], other = s[tid + stride];
      s[tid] = Op::apply(mine, other);
      trace.combine(level, i, i, i + stride, mine, other, s[tid], readAt);
    }
    __syncthreads();
  }
  return level;
}

// The last warp, strides 32, 16, 8, 4, 2, 1: each lane reads its own partial and the one
// `offset` places on, then writes their sum over its own. Two things must hold at every step:
// every lane has read before any lane overwrites what it read (lane 16 writes s[16], which
// lane 0 reads), and every lane has written before any lane reads the next step's values (lane
// 0 reads s[16] after lane 16 wrote it). Before Volta the lockstep warp gave both for free.
// Since Volta (2017) each lane has its own program counter, and nothing in warp-synchronous
// code makes one lane wait for another: that is what __syncwarp() is for, at both places.
// `Shared` is volatile T for the classic (every access goes to shared memory: the compiler may
// not keep s[tid + offset] in a register), T for the others.
template <class T, class Op, class Shared>
__device__ void lastWarp(Shared* s, int level, bool syncwarpOn, bool perturb, int lateThread,
                         int lateLevel, StepRecorder<T> trace) {
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  for (unsigned offset = 32; offset > 0; offset /= 2, ++level) {
    if (perturb && tid % 3 == 0) __nanosleep(2000);
    if ((int)tid == lateThread && level == lateLevel) __nanosleep(kLanePauseNs);
    const long long readAt = trace.now();
    const T mine = s[tid], other = s[tid + offset];
    switchableSyncwarp(syncwarpOn);  // every lane has read before any lane writes
    s[tid] = Op::apply(mine, other);
    trace.combine(level, i, i, i + offset, mine, other, Op::apply(mine, other), readAt);
    switchableSyncwarp(syncwarpOn);  // every lane has written before any lane reads on
  }
}

// Harris's kernel 5 as it is still copied: the last warp through a volatile pointer, and no
// __syncwarp(). Right on a GPU whose warps run in lockstep; a race on Volta and later, where it
// is right only as long as the lanes happen to stay together.
template <class T, class Op>
__global__ void lastWarpVolatile(const T* in, long long n, T* out, bool perturb, int lateThread,
                                 int lateLevel, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const int level = treeDownTo64<T, Op>(s, in, n, perturb, lateThread, lateLevel, trace);
  if (threadIdx.x < 32)
    lastWarp<T, Op>(static_cast<volatile T*>(s), level, false, perturb, lateThread, lateLevel,
                    trace);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// The same without `volatile`. The compiler knows nothing of other lanes: it sees s[tid]
// written and read again by this lane alone, so it keeps the running sum in a register and
// stores it once, after the last step, and it may load every s[tid + offset] before that store.
// Lane 0 then adds values no other lane has updated yet: wrong even where the warp runs in
// lockstep. So that nvcc compiles it as it compiles Harris's code without `volatile`, nothing
// else is in its loop: a pause or a clock stamp is an asm statement that nvcc may not move
// loads across, and a trace store might alias s[]. The pauses come before the loop and the
// trace records what each lane read after it. (The simulator's g++ reads s[] again at every warp
// step, so there plain races as volatile does and no more.)
template <class T, class Op>
__global__ void lastWarpPlain(const T* in, long long n, T* out, bool perturb, int lateThread,
                              int lateLevel, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const int level = treeDownTo64<T, Op>(s, in, n, perturb, lateThread, lateLevel, trace);
  const unsigned tid = threadIdx.x;
  if (tid < 32) {
    if (perturb && tid % 3 == 0) __nanosleep(2000);
    if ((int)tid == lateThread && lateLevel >= level) __nanosleep(kLanePauseNs);
    T mine[6], other[6];
#pragma unroll
    for (int k = 0; k < 6; ++k) {  // offsets 32, 16, 8, 4, 2, 1
      mine[k] = s[tid];
      other[k] = s[tid + (32u >> k)];
      switchableSyncwarp(false);
      s[tid] = Op::apply(mine[k], other[k]);
      switchableSyncwarp(false);
    }
    const long long i = blockIdx.x * (long long)blockDim.x + tid;
    for (int k = 0; k < 6; ++k)
      trace.combine(level + k, i, i, i + (32 >> k), mine[k], other[k],
                    Op::apply(mine[k], other[k]));
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// The fix (CUDA 9, 2017): __syncwarp() between the reads and the writes of each step and
// between the writes and the next step's reads. It waits for the warp's lanes and orders their
// shared-memory accesses, so `volatile` is no longer needed. syncwarpOn false takes both out
// (--no-syncwarp): the race is back.
template <class T, class Op>
__global__ void lastWarpSyncwarp(const T* in, long long n, T* out, bool syncwarpOn, bool perturb,
                                 int lateThread, int lateLevel, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const int level = treeDownTo64<T, Op>(s, in, n, perturb, lateThread, lateLevel, trace);
  if (threadIdx.x < 32)
    lastWarp<T, Op>(s, level, syncwarpOn, perturb, lateThread, lateLevel, trace);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// No shared memory for the last warp at all: stride 32 adds s[tid + 32] into a register, then
// __shfl_down_sync hands each lane the register of the lane `offset` places on. A shuffle is
// the warp's own barrier: every lane named in the mask (all 32 here) must arrive before any
// gets a value, so no lane can run ahead or lag behind.
template <class T, class Op>
__global__ void lastWarpShuffle(const T* in, long long n, T* out, bool perturb, int lateThread,
                                int lateLevel, StepRecorder<T> trace) {
  __shared__ T s[1024];
  int level = treeDownTo64<T, Op>(s, in, n, perturb, lateThread, lateLevel, trace);
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  if (tid < 32) {
    if (perturb && tid % 3 == 0) __nanosleep(2000);
    if ((int)tid == lateThread && level == lateLevel) __nanosleep(kLanePauseNs);
    const T mine = s[tid], other = s[tid + 32];
    T v = Op::apply(mine, other);
    trace.combine(level, i, i, i + 32, mine, other, v);
    for (unsigned offset = 16; offset > 0; offset /= 2) {
      ++level;
      if (perturb && tid % 3 == 0) __nanosleep(2000);
      if ((int)tid == lateThread && level == lateLevel) __nanosleep(kLanePauseNs);
      const T partner = __shfl_down_sync(0xffffffffu, v, offset);
      // Lane tid + offset's register stands in for the element it would have written; a lane
      // with no lane offset places on gets its own value back (recorded as its own).
      trace.combine(level, i, i, tid + offset < 32 ? i + offset : i, v, partner,
                    Op::apply(v, partner));
      v = Op::apply(v, partner);
    }
    if (tid == 0) out[blockIdx.x] = v;
  }
}
