// Lesson "folding": halve the problem, one launch at a time.
#pragma once
#include "kernels/common.cuh"

// Fold the back half onto the front half: a[i] += a[i + remain]. With reduce = len / 2 and
// remain = len - reduce, an odd middle element just waits for the next step, so any length
// works. Every thread does one addition per launch, all in parallel: log2(n) launches instead
// of n atomics. Still slow: each launch reads and writes the array through global memory, and
// each launch costs a few microseconds of its own.
// We launch `reduce` threads, not `remain`: thread reduce..remain-1 would have no partner.
template <class T, class Op>
__global__ void foldStep(T* a, long long reduce, long long remain, StepRecorder<T> trace) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= reduce) return;
  const T mine = a[i], other = a[i + remain];
  a[i] = Op::apply(mine, other);
  trace.combine(0, i, i, i + remain, mine, other, a[i]);
}
