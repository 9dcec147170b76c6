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

// To nvcc, warpSize is a value read at run time: a loop over it is not unrolled, and dividing
// by it is a real division. On the path from the last load to the result those cost more time
// than the additions (measured: 0.2 to 0.4 microseconds of a 4-microsecond kernel on an H100).
constexpr unsigned kWarpSize = 32;

// Each element is read once and never again by this kernel: load it through the read-only
// path without keeping it in L1 (L1::no_allocate), where it would only push out something
// else. Timed with CUDA events against the same kernel with plain loads, n = 2^28 ints: 337
// against 344 microseconds on an H100 80GB HBM3, 229 against 236 on an H200; at 2^24, run again
// and again over one array, 19.5 against 25.3 (H100), since the loads no longer push out of the
// caches what the next run finds still in L2. A third hint, L2::256B (fetch the whole 256-byte
// stretch around the address into L2), gained nothing on the H100 at 2^26 and 2^28, lost 3% at
// 2^24, and on the H200 made the kernel 11% slower at 2^28 (255 against 229 microseconds): it
// is not used. (The simulator has no caches: a plain load there. Cards before sm_80 take the
// read-only load alone.)
__device__ __forceinline__ int4 streamingLoad(const int4* p) {
#if defined(RLAB_SIM)
  return *p;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  return __ldg(p);
#else
  int4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.s32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
#endif
}
// The same 16 bytes, read as four floats.
__device__ __forceinline__ float4 streamingLoad(const float4* p) {
  const int4 v = streamingLoad(reinterpret_cast<const int4*>(p));
  return make_float4(__int_as_float(v.x), __int_as_float(v.y), __int_as_float(v.z),
                     __int_as_float(v.w));
}

// Five shuffle steps reduce a warp to lane 0, register to register.
template <class T, class Op>
__device__ __forceinline__ T warpReduce(T v) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
    v = Op::apply(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// The block's total, in thread 0: shuffles within each warp, then the first warp over the
// warps' totals. Every thread of the block must call it (it waits at a barrier).
template <class T, class Op>
__device__ __forceinline__ T blockReduce(T v, T* warpTotals, unsigned lane, unsigned warp,
                                         unsigned warps) {
  v = warpReduce<T, Op>(v);
  if (lane == 0) warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0)
    v = warpReduce<T, Op>(lane < warps ? warpTotals[lane] : Op::template identity<T>());
  __syncthreads();  // warpTotals may be written again by the next call
  return v;
}

// Every lesson so far launched one thread per element (or eight), built a tree in shared
// memory, and needed a second launch or n / blockDim.x atomics. Here:
//  - a grid-stride loop over tiles of 4 * blockDim.x vectors, the grid sweeping the array front
//    to back. The driver picks the grid (fastestBlocks): few blocks for small arrays, since
//    every block total costs time at the end; one per SM for middle sizes; more for large ones;
//  - 16-byte vector loads (int4/float4), four in flight per thread before any is used, each
//    one a warp-wide contiguous 512 bytes, streamed past L1 (streamingLoad); one block then
//    takes the last partial tile, and block 0 the last n % 4 elements;
//  - four independent accumulators, one per vector lane, so additions do not wait on each
//    other;
//  - warp shuffles instead of a shared-memory tree (32 values to 1 in five steps), and only
//    32 shared slots for the warp totals;
//  - one pass: ints combine block totals with one atomic per block; floats publish block
//    totals and one block adds them in a fixed order, so the float result is the same on
//    every run. That block is the one that started last: it takes its ticket at the start,
//    while its loads are in flight, instead of asking at the end whether it finished last
//    (a round trip to L2 after all the work). The last block loads nothing, so the block that
//    adds is usually idle and waiting when the last total lands. Each total travels with its
//    own "written" bit in one 64-bit store, so nobody waits at a fence, and the adding block
//    reads every slot at once, again only while some are still on their way.
// The input pointer must be 16-byte aligned (cudaMalloc's always are).
// Recorder: StepRecorder<T> for the run the picture draws, NoRecorder<T> for runs only timed.
template <class T, class Op, class Recorder>
__global__ void fastestReduce(const T* __restrict__ in, long long n, T* result,
                              unsigned long long* blockTotals, unsigned* blocksStarted,
                              Recorder trace) {
  using Vec = typename Vector4<T>::type;
  const long long thread = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const T identity = Op::template identity<T>();
  unsigned startTicket = 0;  // float: how many blocks started before this one
  if (!std::is_integral<T>::value && threadIdx.x == 0) startTicket = atomicAdd(blocksStarted, 1u);

  T a0 = identity, a1 = identity, a2 = identity, a3 = identity;
  const Vec* in4 = reinterpret_cast<const Vec*>(in);
  const long long vectors = n / 4;
  const unsigned stride = blockDim.x;
  const long long tileVectors = 4ll * stride;
  // Float: the last block loads nothing, so that the block adding the totals (see the end) is
  // already waiting when the last of them lands.
  const unsigned loaders = std::is_integral<T>::value || gridDim.x == 1 ? gridDim.x : gridDim.x - 1;
  long long tile = blockIdx.x < loaders ? blockIdx.x * tileVectors : vectors;  // this block's next
  for (; tile + tileVectors <= vectors; tile += loaders * tileVectors) {
    const long long k = tile + threadIdx.x;
    const Vec v0 = streamingLoad(&in4[k]), v1 = streamingLoad(&in4[k + stride]),
              v2 = streamingLoad(&in4[k + 2 * stride]), v3 = streamingLoad(&in4[k + 3 * stride]);
    a0 = Op::apply(a0, Op::apply(Op::apply(v0.x, v1.x), Op::apply(v2.x, v3.x)));
    a1 = Op::apply(a1, Op::apply(Op::apply(v0.y, v1.y), Op::apply(v2.y, v3.y)));
    a2 = Op::apply(a2, Op::apply(Op::apply(v0.z, v1.z), Op::apply(v2.z, v3.z)));
    a3 = Op::apply(a3, Op::apply(Op::apply(v0.w, v1.w), Op::apply(v2.w, v3.w)));
  }
  // The one block whose next tile runs past the end takes what is left of it, and block 0
  // the last n % 4 elements: no division anywhere before the first load.
  for (long long k = tile + threadIdx.x; k < vectors; k += stride) {
    const Vec v = streamingLoad(&in4[k]);
    a0 = Op::apply(a0, v.x);
    a1 = Op::apply(a1, v.y);
    a2 = Op::apply(a2, v.z);
    a3 = Op::apply(a3, v.w);
  }
  if (blockIdx.x == 0 && vectors * 4 + threadIdx.x < n)
    a0 = Op::apply(a0, in[vectors * 4 + threadIdx.x]);
  T v = Op::apply(Op::apply(a0, a1), Op::apply(a2, a3));
  trace.value(0, thread, v);

  __shared__ T warpTotals[32];
  const unsigned lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  const unsigned warps = blockDim.x / kWarpSize;
  v = blockReduce<T, Op>(v, warpTotals, lane, warp, warps);
  if (lane == 0) trace.value(1, thread / kWarpSize, warpTotals[warp]);
  if (threadIdx.x == 0) trace.value(2, blockIdx.x, v);

  if constexpr (std::is_integral<T>::value) {  // int: the order of the atomics does not matter
    if (threadIdx.x == 0) atomicCombine<Op>(result, v);
  } else if (gridDim.x == 1) {  // a small array, one block: its total is the sum
    if (threadIdx.x == 0) *result = v;
  } else {
    // Float: the block that started last adds the block totals in a fixed order, all its
    // threads reading a few each, so the same input always gives the same sum. Every other
    // block took its ticket earlier, so it is running or done and will publish: waiting for
    // it cannot hang. blockTotals and blocksStarted are zero before the launch.
    __shared__ bool addsTotals;
    if (threadIdx.x == 0) {
      publish(&blockTotals[blockIdx.x], v);
      addsTotals = startTicket == gridDim.x - 1;
    }
    __syncthreads();
    if (!addsTotals) return;
    // Each pass reads all of a thread's slots at once and adds them; a pass that found a slot
    // still empty is done again.
    T total;
    bool complete;
    for (;;) {
      total = identity;
      complete = true;
#pragma unroll 4
      for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
        T blockTotal;
        complete &= readPublished(&blockTotals[b], blockTotal);
        total = Op::apply(total, blockTotal);
      }
      if (complete) break;
      // Some block is still loading: a pause, so that asking again does not crowd the L2 its
      // loads go through.
      __nanosleep(100);
    }
    total = blockReduce<T, Op>(total, warpTotals, lane, warp, warps);
    if (threadIdx.x == 0) *result = total;
  }
}
