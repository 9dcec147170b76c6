// Lesson "atomic": the baseline.
#pragma once
#include "kernels/common.cuh"

// Every thread brings its element to one address. One checkout counter, one long queue: the
// atomics on that address are served one after another, so n elements cost n trips through
// it no matter how many threads there are. (For an int sum the compiler combines a warp's
// atomics into one first; a float sum lands in a different order every run, and so rounds
// differently.)
template <class T, class Op>
__global__ void atomicReduce(const T* in, long long n, T* result, T* landedOn) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  const T before = atomicCombine<Op>(result, in[i]);
  if (landedOn) landedOn[i] = before;  // trace: the total this thread's atomic found
}
