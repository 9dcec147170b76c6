// Lesson "butterfly": every thread ends with the total (all-reduce).
#pragma once
#include "kernels/common.cuh"

// Partner i ^ b: at each step a thread combines its value with the one b places away across
// a power-of-two boundary, and both partners end up holding the same pair total. After
// log2(blockDim.x) steps every thread of the block holds the block's total — no broadcast
// needed. In shared memory each step needs two barriers: all reads before any write, and all
// writes before the next step's reads. The first is the one a learner can switch off
// (barrierOn): then a thread may overwrite its slot before its partner has read the old value
// (write after read), and the partner adds a total that already holds its own value.
// The result takes thread 0's total; offTotal counts the threads of the block that ended with
// another value, so a race that spares thread 0 still makes the run wrong. `perturb` makes
// every third thread pause before its reads, so that its partner may already have written.
template <class T, class Op>
__global__ void butterflyShared(const T* in, long long n, T* result, bool barrierOn, bool perturb,
                                unsigned* offTotal, StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x, i = base + tid;
  s[tid] = i < n ? in[i] : Op::template identity<T>();
  __syncthreads();
  int step = 0;
  for (unsigned b = blockDim.x / 2; b > 0; b /= 2, ++step) {
    if (perturb && tid % 3 == 0) __nanosleep(2000);
    const T own = s[tid], partner = s[tid ^ b];
    const T mine = Op::apply(own, partner);
    trace.combine(step, i, i, base + (tid ^ b), own, partner, mine);
    switchableBarrier(barrierOn);  // everyone has read before anyone overwrites
    s[tid] = mine;
    __syncthreads();  // everyone has written before the next step reads
  }
  if (tid == 0) atomicCombine<Op>(result, s[0]);  // every thread could: all hold the total
  if (!sameValue(s[tid], s[0])) atomicAdd(offTotal, 1u);
}

// The same butterfly with __shfl_xor_sync: lanes of a warp read each other's registers
// directly. No shared memory and no barriers inside a warp. A second butterfly over the
// warps' totals gives every thread of the block the block's total.
template <class T, class Op>
__global__ void butterflyShuffle(const T* in, long long n, T* result, unsigned* offTotal,
                                 StepRecorder<T> trace) {
  __shared__ T warpTotals[32];
  __shared__ T blockTotal;  // thread 0's, for the check at the end
  const unsigned tid = threadIdx.x, lane = tid % warpSize, warp = tid / warpSize;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  T v = i < n ? in[i] : Op::template identity<T>();
  int step = 0;
  for (int b = warpSize / 2; b > 0; b /= 2, ++step) {
    const T partner = __shfl_xor_sync(0xffffffffu, v, b);
    trace.combine(step, i, i, i ^ b, v, partner, Op::apply(v, partner));
    v = Op::apply(v, partner);
  }
  if (lane == 0) warpTotals[warp] = v;
  __syncthreads();
  // Lane l takes warp l's total (the one its lane 0 wrote); lanes past the block's warps take
  // the identity. Then the same butterfly over the lanes: lane l now stands for warp l.
  const unsigned warps = blockDim.x / warpSize;
  const long long warpStart = i - tid + lane * (long long)warpSize;  // lane 0 of warp `lane`
  const T own = v;
  v = lane < warps ? warpTotals[lane] : Op::template identity<T>();
  trace.combine(step++, i, i, lane < warps ? warpStart : i, own, v, v);
  for (int b = warpSize / 2; b > 0; b /= 2, ++step) {
    const T partner = __shfl_xor_sync(0xffffffffu, v, b);
    trace.combine(step, i, i, i ^ b, v, partner, Op::apply(v, partner));
    v = Op::apply(v, partner);
  }
  if (tid == 0) {
    atomicCombine<Op>(result, v);
    blockTotal = v;
  }
  __syncthreads();
  if (!sameValue(v, blockTotal)) atomicAdd(offTotal, 1u);
}
