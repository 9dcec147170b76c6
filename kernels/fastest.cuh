// Lesson "fastest": what production code does, in one pass over memory.
#pragma once
#include <type_traits>

#include "kernels/common.cuh"

template <class T>
struct Vector4;
template <>
struct Vector4<int> {
  using type = int4;
};
template <>
struct Vector4<float> {
  using type = float4;
};

// Five shuffle steps reduce a warp to lane 0, register to register.
template <class T, class Op>
__device__ __forceinline__ T warpReduce(T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v = Op::apply(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// Every lesson so far launched one thread per element (or eight), built a tree in shared
// memory, and needed a second launch or n / blockDim.x atomics. Here:
//  - a grid-stride loop: just enough blocks to fill the GPU, each thread walks the array;
//  - 16-byte vector loads (int4/float4), then a scalar tail for the last n % 4 elements;
//  - four independent accumulators, one per vector lane, so additions do not wait on each
//    other;
//  - warp shuffles instead of a shared-memory tree (32 values to 1 in five steps), and only
//    32 shared slots for the warp totals;
//  - one pass: ints combine block totals with one atomic per block; floats store block
//    totals and the last block to finish adds them in a fixed order, so the float result
//    is the same on every run.
// The input pointer must be 16-byte aligned (cudaMalloc's always are).
template <class T, class Op>
__global__ void fastestReduce(const T* in, long long n, T* result, T* blockTotals,
                              unsigned* blocksDone, StepRecorder<T> trace) {
  using Vec = typename Vector4<T>::type;
  const long long thread = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long threads = (long long)gridDim.x * blockDim.x;
  const T identity = Op::template identity<T>();

  T a0 = identity, a1 = identity, a2 = identity, a3 = identity;
  const Vec* in4 = reinterpret_cast<const Vec*>(in);
  const long long vectors = n / 4;
  for (long long k = thread; k < vectors; k += threads) {
    const Vec v = in4[k];
    a0 = Op::apply(a0, v.x);
    a1 = Op::apply(a1, v.y);
    a2 = Op::apply(a2, v.z);
    a3 = Op::apply(a3, v.w);
  }
  for (long long k = vectors * 4 + thread; k < n; k += threads) a0 = Op::apply(a0, in[k]);
  T v = Op::apply(Op::apply(a0, a1), Op::apply(a2, a3));
  trace.value(0, thread, v);

  __shared__ T warpTotals[32];
  const unsigned lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  v = warpReduce<T, Op>(v);
  if (lane == 0) {
    warpTotals[warp] = v;
    trace.value(1, thread / warpSize, v);
  }
  __syncthreads();
  if (warp != 0) return;
  v = warpReduce<T, Op>(lane < blockDim.x / warpSize ? warpTotals[lane] : identity);
  if (lane == 0) trace.value(2, blockIdx.x, v);

  if constexpr (std::is_integral<T>::value) {  // int: the order of the atomics does not matter
    if (lane == 0) atomicCombine<Op>(result, v);
  } else {
    // Float: the last block to finish adds the block totals in block order.
    unsigned finished = 0;
    if (lane == 0) {
      blockTotals[blockIdx.x] = v;
      __threadfence();  // the total is visible to every block before we count ourselves done
      finished = atomicAdd(blocksDone, 1u);
    }
    finished = __shfl_sync(0xffffffffu, finished, 0);
    if (finished != gridDim.x - 1) return;
    __threadfence();  // see the other blocks' totals
    T total = identity;
    for (unsigned b = lane; b < gridDim.x; b += warpSize)
      total = Op::apply(total, ((volatile T*)blockTotals)[b]);
    total = warpReduce<T, Op>(total);
    if (lane == 0) {
      *result = total;
      *blocksDone = 0;  // ready for the next launch
    }
  }
}
