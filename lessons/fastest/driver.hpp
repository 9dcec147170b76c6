#pragma once
#include "kernels/fastest.cuh"
#include "lessons/engine/run/driver_support.hpp"

namespace rlab {

// Blocks for the fastest kernel, measured best on an H100 from 2^16 to 2^28 elements: at least
// kElementsPerThread per thread, so that small arrays do not pay for many block totals; then
// one block per SM until each thread would get more than kElementsPerThreadOnOneBlockPerSm;
// then more blocks, up to half of the device's thread slots (2048 a multiprocessor on the H100,
// 1536 on sm_86 and sm_89, 1024 on sm_75: the backend asks the device), for more loads in
// flight. A float sum adds one block that loads nothing (see the kernel), unless one block
// loads it all; at that limit it takes the place of a loading block, since one block more than
// the limit cost 1% at 2^28.
constexpr int kElementsPerThread = 16;
constexpr int kElementsPerThreadOnOneBlockPerSm = 128;

inline long long fastestBlocks(long long n, int block, long long multiprocessors,
                               int threadSlotsPerMultiprocessor, bool addingBlock) {
  const long long halfTheSlots =
      std::max<long long>(1, multiprocessors * (threadSlotsPerMultiprocessor / block) / 2);
  const long long spread = std::max(
      multiprocessors, std::min(halfTheSlots, n / (block * kElementsPerThreadOnOneBlockPerSm)));
  const long long loaders =
      std::max<long long>(1, std::min(blocksFor(n, block * kElementsPerThread), spread));
  // One block that loads everything adds its own total: no block to add the totals.
  return std::min(loaders + (addingBlock && loaders > 1 ? 1 : 0), halfTheSlots);
}

template <class B, class T, class Op>
void driveFastest(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                  Trace& out) {
  const long long blocks =
      fastestBlocks(p.n, p.block, b.multiprocessors(), b.threadSlotsPerMultiprocessor(),
                    !std::is_integral<T>::value);
  const long long threads = blocks * p.block;
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto blockTotals = bufferHolding<B, unsigned long long>(b, size_t(blocks), 0ull);
  auto blocksStarted = bufferHolding<B, unsigned>(b, 1, 0u);
  Recording<B, T> rec(b, trace, 3, threads, 0);
  auto launch = [&](auto kernel, auto recorder) {
    b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), kernel, (const T*)input.get(),
             (long long)p.n, result.get(), blockTotals.get(), blocksStarted.get(), recorder);
  };
  if (trace)  // the run the picture draws
    launch(fastestReduce<T, Op, StepRecorder<T>>, rec.recorder());
  else
    launch(fastestReduce<T, Op, NoRecorder<T>>, NoRecorder<T>{});
  auto steps = rec.snapshots({Message("step.fastest.threads"), Message("step.fastest.warps"),
                              std::is_integral<T>::value ? Message("step.fastest.blocks")
                                                         : Message("step.fastest.blocks-last")},
                             {}, {threads, threads / 32, blocks});
  // Each step holds another array: the threads' sums, the warps' totals, the blocks' totals.
  const CellKind kinds[] = {CellKind::Threads, CellKind::WarpTotals, CellKind::BlockTotals};
  for (size_t k = 0; k < steps.size() && k < 3; ++k) steps[k].cells = kinds[k];
  appendSteps(out, std::move(steps));
  out.result = double(downloadOne<B, T>(b, result));
}

}  // namespace rlab
