// Lesson "barrier": one block, a tree, and the barrier that holds it together.
#pragma once
#include "kernels/common.cuh"

// How long the late thread pauses on a GPU: many times a whole level's work, so that the
// threads that read what it writes get there first. (On the simulator any __nanosleep is one
// yield: the thread sits out the rest of the round.)
constexpr unsigned kLatePauseNs = 20000;

// The classic tree in global memory: at the level of stride i (1, 2, 4, ...), thread tid (a
// multiple of 2i) adds its neighbour i places on. One launch does every level, so threads wait for
// each other between levels: that is the barrier. Switch it off and a thread may read its
// neighbour before the neighbour has finished the level below. `perturb` makes every third
// thread pause each level, as a printf from some threads would; `printing` makes them really
// printf (thread, level, the value it holds), which slows them down the same way. `lateThread`
// pauses one thread before one level (-1: none), to force on the GPU a race found on the
// simulator.
template <class T, class Op>
__global__ void treeGlobal(T* a, int n, bool barrierOn, bool perturb, bool printing, int lateThread,
                           int lateLevel, StepRecorder<T> trace) {
  const int tid = threadIdx.x;
  int level = 0;
  for (int i = 1; i < n; i *= 2, ++level) {
    if (perturb && tid % 3 == 0) __nanosleep(2000);
    if (printing && tid % 3 == 0 && tid < n)
      printf("thread %d, level %d: a[%d] = %.10g\n", tid, level + 1, tid, double(a[tid]));
    if (tid == lateThread && level == lateLevel) __nanosleep(kLatePauseNs);
    if (tid % (2 * i) == 0 && tid + i < n) {
      // `other` is what the barrier protects: thread tid + i wrote it at the level below.
      const long long readAt = trace.now();
      const T mine = a[tid], other = a[tid + i];
      a[tid] = Op::apply(mine, other);
      trace.combine(level, tid, tid, tid + i, mine, other, a[tid], readAt);
    }
    switchableBarrier(barrierOn);
  }
}

// The same tree in shared memory. The race is the same; the difference is that
// compute-sanitizer's racecheck watches shared memory (not global), so it can name it.
template <class T, class Op>
__global__ void treeShared(T* a, int n, bool barrierOn, bool perturb, bool printing, int lateThread,
                           int lateLevel, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const int tid = threadIdx.x;
  s[tid] = tid < n ? a[tid] : Op::template identity<T>();
  __syncthreads();  // the load is not the lesson: this barrier always stays
  int level = 0;
  for (int i = 1; i < (int)blockDim.x; i *= 2, ++level) {
    if (perturb && tid % 3 == 0) __nanosleep(2000);
    if (printing && tid % 3 == 0 && tid < n)  // the threads past n only hold the identity
      printf("thread %d, level %d: s[%d] = %.10g\n", tid, level + 1, tid, double(s[tid]));
    if (tid == lateThread && level == lateLevel) __nanosleep(kLatePauseNs);
    if (tid % (2 * i) == 0) {
      const long long readAt = trace.now();
      const T mine = s[tid], other = s[tid + i];
      s[tid] = Op::apply(mine, other);
      trace.combine(level, tid, tid, tid + i, mine, other, s[tid], readAt);
    }
    switchableBarrier(barrierOn);
  }
  if (tid == 0) a[0] = s[0];
}
