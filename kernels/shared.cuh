// Lesson "shared": where the partial sums live, and how many launches it takes.
#pragma once
#include <cooperative_groups.h>

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

// Thread block clusters: multiblock's atomics all land on one address, one after another, one
// a block. Since Hopper (sm_90) the blocks of a cluster run at the same time and read each
// other's shared memory (distributed shared memory): here each cluster adds its blocks' totals
// on the chip, one level of the same tree per cluster.sync(), and makes one atomic:
// kClusterBlocks times fewer atomics, for a cluster barrier a level. `clusterBarrier` false
// takes the levels' cluster.sync() out (the lesson's race: a block reads its neighbour's total
// before the neighbour has written it); the last one stays, so that no block exits while a
// neighbour may still read its shared memory.
constexpr unsigned kClusterBlocks = 4;
template <class T, class Op>
__global__ void clusterTree(const T* in, long long n, T* result, T* partials, bool clusterBarrier,
                            StepRecorder<T> trace) {
#if defined(RLAB_SIM) || !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
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
  if (tid == 0 && partials) partials[blockIdx.x] = s[0];
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
  for (unsigned stride = 1; stride < blocks; stride *= 2, ++level) {
    if (clusterBarrier) cluster.sync();  // the neighbours' totals are in place
    if (tid == 0 && rank % (2 * stride) == 0 && rank + stride < blocks) {
      const T mine = s[0], other = *cluster.map_shared_rank(&s[0], int(rank + stride));
      s[0] = Op::apply(mine, other);
      trace.combine(level, i, i, i + (long long)stride * blockDim.x, mine, other, s[0]);
    }
  }
  cluster.sync();  // no block exits while a neighbour may still read its s[0]
  if (rank == 0 && tid == 0) atomicCombine<Op>(result, s[0]);
#else
  __trap();  // the host launches it on sm_90 and later only
#endif
}

// Thread coarsening: multiblock gives every element its own thread, so half the threads idle
// from the tree's first level, and n / blockDim.x blocks (2^20 of them at n = 2^28 with 256
// threads) each pay for a tree and an atomic. Here each thread first combines `perThread`
// elements on its own, in registers, while it loads them ("the add during the load"), reading
// blockDim.x-strided elements so that a warp's loads stay contiguous; the tree then starts
// from partial sums. perThread times fewer blocks, trees and atomics; more work per thread.
// Whether that is faster depends on n and on the GPU: rlab bench --per-thread K measures it.
constexpr int kCoarsening = 8;  // elements per thread unless the run asks for another number

// A thread's own elements, combined in a register as they arrive. With kRecordReads it also
// records each read (which element, what it held) for the picture of this loop. Only the run
// the picture draws does: a store between the loads, to a buffer that might be `in`, holds
// each load back until the one before it has landed (at n = 2^28 ints on an H200 the kernel
// took 0.577 ms so, against 0.379 ms without).
// kCount: the number of elements where the compiler may know it (the default, kCoarsening), 0
// where it is the run's --per-thread. Known, the loop is unrolled whole; read from perThread at
// run time, the PTX shows it unrolled four loads at a time.
template <bool kRecordReads, int kCount, class T, class Op>
__device__ T combineOwnElements(const T* in, long long n, long long base, int perThread,
                                long long thread, const StepRecorder<T>& trace) {
  T sum = Op::template identity<T>();
  const int count = kCount > 0 ? kCount : perThread;
#pragma unroll
  for (int k = 0; k < count; ++k) {
    const long long i = base + k * (long long)blockDim.x + threadIdx.x;
    if (i < n) {
      const T element = in[i];
      sum = Op::apply(sum, element);
      if (kRecordReads) trace.gather(thread, k, i, element);
    }
  }
  return sum;
}

template <class T, class Op>
__global__ void coarsened(const T* in, long long n, int perThread, T* result, T* partials,
                          StepRecorder<T> trace) {
  __shared__ T s[1024];
  const unsigned tid = threadIdx.x;
  const long long base = blockIdx.x * (long long)blockDim.x * perThread;
  const long long thread = blockIdx.x * (long long)blockDim.x + tid;
  const T sum =
      trace.gathered ? combineOwnElements<true, 0, T, Op>(in, n, base, perThread, thread, trace)
      : perThread == kCoarsening
          ? combineOwnElements<false, kCoarsening, T, Op>(in, n, base, perThread, thread, trace)
          : combineOwnElements<false, 0, T, Op>(in, n, base, perThread, thread, trace);
  s[tid] = sum;
  __syncthreads();
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

// The same blocks without the add during the load: each thread copies its perThread elements
// into shared memory as they are, and the first levels of the tree add them instead. Every one
// of those adds now goes through shared memory and waits at a barrier instead of staying in a
// register, and every block reserves the array's full 32 KiB (the kernel above: 4 KiB), which
// can limit how many blocks an SM holds at once. The tree folds the back half onto the front
// (len / 2 pairs, then the front's len - len / 2 elements), so perThread need not be a power of
// two.
constexpr int kMaxTreeSlots = 8192;  // perThread · blockDim.x, at most: 32 KiB of 4-byte values
template <class T, class Op>
__global__ void coarsenedNoLoadAdd(const T* in, long long n, int perThread, T* result, T* partials,
                                   StepRecorder<T> trace) {
  __shared__ T s[kMaxTreeSlots];
  const unsigned tid = threadIdx.x;
  const long long slots = (long long)blockDim.x * perThread;
  const long long base = blockIdx.x * slots;
  for (int k = 0; k < perThread; ++k) {
    const long long j = k * (long long)blockDim.x + tid;
    s[j] = base + j < n ? in[base + j] : Op::template identity<T>();
  }
  __syncthreads();
  int level = 0;
  for (long long len = slots; len > 1; len -= len / 2, ++level) {
    const long long half = len / 2, remain = len - half;
    for (long long j = tid; j < half; j += blockDim.x) {
      const T mine = s[j], other = s[j + remain];
      s[j] = Op::apply(mine, other);
      // Recorded by slot (a thread adds several pairs while half > blockDim.x).
      trace.combine(level, base + j, base + j, base + j + remain, mine, other, s[j]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    if (partials) partials[blockIdx.x] = s[0];
    atomicCombine<Op>(result, s[0]);
  }
}
