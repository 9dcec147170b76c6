#pragma once
#include "kernels/shared.cuh"
#include "lessons/tree_passes.hpp"

namespace rlab {

// multiblock and coarsened: one launch, block partials combined by one atomic each.
template <class B, class T, class Op, class Kernel>
void runOneLaunch(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                  Kernel kernel, int perThread, Trace& out) {
  const long long blocks = blocksFor(p.n, p.block * perThread);
  const long long threads = blocks * p.block;
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto partials = b.template alloc<T>(trace ? size_t(blocks) : 0);
  const bool coarse = perThread > 1;
  const int levels = levelsBelow(p.block) + (coarse ? 1 : 0);
  Recording<B, T> rec(b, trace, levels, 0, threads);
  // Coarsened steps live on the threads' partial sums; multiblock's on the input itself.
  const auto initial = !trace   ? std::vector<double>{}
                       : coarse ? std::vector<double>(size_t(threads), 0.0)
                                : downloadAsDoubles<B, T>(b, input, size_t(p.n));
  b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), kernel, (const T*)input.get(),
           (long long)p.n, result.get(), trace ? partials.get() : nullptr, rec.recorder());
  std::vector<std::string> labels;
  if (coarse) labels.push_back("each thread combines " + std::to_string(perThread) + " elements");
  for (int stride = p.block / 2; stride > 0; stride /= 2)
    labels.push_back("stride " + std::to_string(stride));
  appendSteps(out, rec.snapshots(labels, initial));
  if (trace) out.blockPartials = downloadAsDoubles<B, T>(b, partials, size_t(blocks));
  out.result = double(downloadOne<B, T>(b, result));
}

template <class B, class T, class Op>
void driveTreeInGlobal(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                       Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, treeInGlobal<T, Op>, StrideOrder::Down, false, out);
}

template <class B, class T, class Op>
void driveTreeInShared(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                       Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, treeInShared<T, Op>, StrideOrder::Down, false, out);
}

template <class B, class T, class Op>
void driveMultiBlock(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                     Trace& out) {
  runOneLaunch<B, T, Op>(b, p, input, trace, multiBlock<T, Op>, 1, out);
}

template <class B, class T, class Op>
void driveCoarsened(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                    Trace& out) {
  runOneLaunch<B, T, Op>(b, p, input, trace, coarsened<T, Op>, kCoarsening, out);
}

}  // namespace rlab
