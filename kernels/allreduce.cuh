// Lesson "allreduce": the butterfly across GPUs. G GPUs (ranks) each hold n elements; afterwards
// every rank holds the elementwise combination of all G vectors.
#pragma once
#include "kernels/common.cuh"

// The butterfly lesson's threads read each other's shared memory. GPUs cannot: each has its
// own memory, and what one GPU needs from another crosses NVLink (or PCIe) as a copy, done by
// the copy engines (cudaMemcpyPeerAsync on the host side, lessons/allreduce/driver.hpp). So one
// step of an all-reduce is two parts: a copy brings a chunk of the partner's buffer into this
// GPU's memory, and this kernel combines it, element by element, into the GPU's own chunk.
// Both the butterfly (whole buffers, partner rank ^ 2^k) and the ring (one chunk of n / G, from
// the left neighbour) use it. A grid-stride loop: any chunk length with any grid.
template <class T, class Op>
__global__ void combineChunk(T* mine, const T* received, long long count) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += stride)
    mine[i] = Op::apply(mine[i], received[i]);
}
