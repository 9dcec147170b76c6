// Lesson "divergence": the same tree four ways, and what each costs a warp.
// Each block reduces blockDim.x elements in shared memory and writes one partial; the host
// launches again over the partials until one value is left.
#pragma once
#include "kernels/common.cuh"

// Interleaved: thread tid works when tid % (2 * stride) == 0. At the first level half the
// threads of every warp sit idle, at the next three quarters, and so on: the few working
// threads are spread over every warp until the stride reaches 32, so every warp still runs
// each level (divergent, most lanes idle) and the block takes nearly as long as if all
// threads worked. Only the last levels (stride 32 and up) leave whole warps idle.
template <class T, class Op>
__global__ void interleaved(const T* in, long long n, T* out, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x, i = base + tid;
  s[tid] = i < n ? in[i] : Op::template identity<T>();
  __syncthreads();
  int level = 0;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2, ++level) {
    if (tid % (2 * stride) == 0) {
      const T mine = s[tid], other = s[tid + stride];
      s[tid] = Op::apply(mine, other);
      trace.combine(level, i, i, i + stride, mine, other, s[tid]);
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Interleaved with a mask: the same tree, the same scattered working threads, but the test is
// (tid & (2 * stride - 1)) == 0. What is slow about the interleaved kernel is not only its
// divergence: stride doubles at every level, but the compiler does not follow it that far; to
// it 2 * stride is any run-time value, so `tid % (2 * stride)` is a remainder by a register
// (rem.u32 in nvcc's PTX), which a GPU, with no integer divider, computes with a sequence of
// instructions on every thread at every level. For a power of two d, x % d == x & (d - 1):
// one AND, which is what the compiler emits when it can see d. Timed beside the interleaved
// kernel this one prices the remainder; beside the strided one, the scattered warps.
template <class T, class Op>
__global__ void interleavedMask(const T* in, long long n, T* out, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x, i = base + tid;
  s[tid] = i < n ? in[i] : Op::template identity<T>();
  __syncthreads();
  int level = 0;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2, ++level) {
    if ((tid & (2 * stride - 1)) == 0) {
      const T mine = s[tid], other = s[tid + stride];
      s[tid] = Op::apply(mine, other);
      trace.combine(level, i, i, i + stride, mine, other, s[tid]);
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Strided index: the mask took the division away, but the working threads are still scattered
// over every warp. Here thread tid works on element 2 * stride * tid (a multiply, no division),
// so the working threads are the first ones, packed into as few warps as possible: no
// divergence until fewer than 32 remain. New cost: the threads of a warp now hit shared memory
// 2 * stride apart, and addresses 32 words apart share a bank, so their accesses queue up
// (bank conflicts).
template <class T, class Op>
__global__ void strided(const T* in, long long n, T* out, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x, i = base + tid;
  s[tid] = i < n ? in[i] : Op::template identity<T>();
  __syncthreads();
  int level = 0;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2, ++level) {
    const unsigned index = 2 * stride * tid;
    if (index < blockDim.x) {
      const T mine = s[index], other = s[index + stride];
      s[index] = Op::apply(mine, other);
      trace.combine(level, i, base + index, base + index + stride, mine, other, s[index]);
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Sequential addressing: the first `stride` threads add the element `stride` places on.
// Working threads are contiguous (no divergence) and a warp reads 32 consecutive words
// (one per bank, no conflicts). Still slow: half the threads are idle from the first level,
// and the block's load does only one addition per element.
template <class T, class Op>
__global__ void sequential(const T* in, long long n, T* out, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x, i = base + tid;
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
