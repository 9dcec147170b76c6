// Lesson "shared": where the partial sums live, and how many launches it takes.
#pragma once
#include "kernels/common.cuh"

// Tree in global memory: each block reduces its slice of `a` in place, then writes one
// partial; the host launches again over the partials. Every level reads and writes global
// memory (hundreds of cycles each), and the input is destroyed.
template <class T, class Op>
__global__ void treeInGlobal(T* a, long long n, T* out, StepRecorder<T> trace) {
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x, i = base + tid;
  int level = 0;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2, ++level) {
    if (tid < stride && i + stride < n) {
      const T mine = a[i], other = a[i + stride];
      a[i] = Op::apply(mine, other);
      trace.combine(level, i, i, i + stride, mine, other, a[i]);
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = a[base];
}

// Tree in shared memory: one read of global memory per element, every level after that in
// on-chip shared memory. Still a launch per pass over the partials.
template <class T, class Op>
__global__ void treeInShared(const T* in, long long n, T* out, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : Op::template identity<T>();
  __syncthreads();
  int level = 0;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2, ++level) {
    if (tid < stride) {
      const T mine = s[tid], other = s[tid + stride];
      s[tid] = Op::apply(mine, other);
      trace.combine(level, i, i, i + stride, mine, other, s[tid]);
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Many blocks, one atomic each: the same shared-memory tree, but block partials go straight
// into the result with one atomic per block. One launch in all; the queue at the result is
// n / blockDim.x long instead of n.
template <class T, class Op>
__global__ void multiBlock(const T* in, long long n, T* result, T* partials,
                           StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : Op::template identity<T>();
  __syncthreads();
  int level = 0;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2, ++level) {
    if (tid < stride) {
      const T mine = s[tid], other = s[tid + stride];
      s[tid] = Op::apply(mine, other);
      trace.combine(level, i, i, i + stride, mine, other, s[tid]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    if (partials) partials[blockIdx.x] = s[0];
    atomicCombine<Op>(result, s[0]);
  }
}

// Thread coarsening: half the threads of the tree above idle from the first level. Here each
// thread first combines kCoarsening elements on its own, in registers, reading
// blockDim.x-strided elements so that a warp's loads stay contiguous; the tree then starts
// from partial sums. Fewer blocks, fewer atomics, more work per thread.
constexpr int kCoarsening = 8;
template <class T, class Op>
__global__ void coarsened(const T* in, long long n, T* result, T* partials, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x * kCoarsening;
  T sum = Op::template identity<T>();
  for (int k = 0; k < kCoarsening; ++k) {
    const long long i = base + k * (long long)blockDim.x + tid;
    if (i < n) sum = Op::apply(sum, in[i]);
  }
  s[tid] = sum;
  __syncthreads();
  const long long thread = blockIdx.x * (long long)blockDim.x + tid;
  trace.combine(0, thread, thread, thread, sum, sum, sum);  // its own sum: nothing read
  int level = 1;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2, ++level) {
    if (tid < stride) {
      const T mine = s[tid], other = s[tid + stride];
      s[tid] = Op::apply(mine, other);
      trace.combine(level, thread, thread, thread + stride, mine, other, s[tid]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    if (partials) partials[blockIdx.x] = s[0];
    atomicCombine<Op>(result, s[0]);
  }
}
