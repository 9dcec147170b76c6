#pragma once
#include "kernels/fastest.cuh"
#include "lessons/driver_support.hpp"

namespace rlab {

template <class B, class T, class Op>
DriverOutput<T> driveFastest(B& b, const Params& p, typename B::template Buffer<T>& input,
                             bool trace) {
  DriverOutput<T> out;
  // Blocks for half of the device's thread slots (measured best on an H200 from 2^16 to 2^28),
  // and no more than give each thread kElementsPerThread elements; each thread then walks the
  // array.
  const long long blocks = std::max<long long>(
      1, std::min<long long>(blocksFor(p.n, p.block * kElementsPerThread),
                             std::max<long long>(1, b.residentBlocks(p.block) / 2)));
  const long long threads = blocks * p.block;
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto blockTotals = bufferHolding<B, unsigned long long>(b, size_t(blocks), 0ull);
  auto blocksStarted = bufferHolding<B, unsigned>(b, 1, 0u);
  Recording<B, T> rec(b, trace, 3, threads, 0);
  b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), fastestReduce<T, Op>,
           (const T*)input.get(), (long long)p.n, result.get(), blockTotals.get(),
           blocksStarted.get(), rec.recorder());
  out.steps = rec.snapshots({"each thread: grid-stride loop, 4 accumulators",
                             "each warp: 5 shuffles to lane 0", "each block: its warps' totals"},
                            {}, {threads, threads / 32, blocks});
  out.result = downloadOne<B, T>(b, result);
  return out;
}

}  // namespace rlab
