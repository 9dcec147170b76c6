#pragma once
#include "kernels/lastwarp.cuh"
#include "lessons/engine/run/tree_passes.hpp"

namespace rlab {

// Every variant: the shared lesson's launches, a block tree per pass over the block partials
// until one is left, the levels from stride 32 on run by warp 0 alone. `launch(grid, block,
// source, len, partials, recorder)` launches the variant's kernel with the run's switches. The
// kernel counts levels from 0; --delay counts them as the steps do, from 1.
template <class B, class T, class Launch>
void runLastWarp(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                 Launch launch, Trace& out) {
  auto label = [&](int k) {
    const int stride = p.block >> (k + 1);
    return Message(stride <= 32 ? "step.lastwarp.stride" : "step.stride", {{"stride", stride}});
  };
  runTreePasses<B, T>(b, p, input, trace, launch, label, false, /*clocks=*/true, out);
  for (size_t k = 1; k < out.steps.size(); ++k) out.steps[k].array = "s";
  if (p.delayThread >= 0)
    out.notes.push_back(Message("note.lastwarp.delay", {{"thread", p.delayThread},
                                                        {"level", p.delayLevel},
                                                        {"delay", "--delay " + delayText(p)}}));
}

// The variants without a switch: volatile, plain, shuffle.
template <class B, class T, class Kernel>
void runLastWarpKernel(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                       Kernel kernel, Trace& out) {
  auto launch = [&](dim3 grid, dim3 block, T* source, long long len, T* partials,
                    StepRecorder<T> recorder) {
    b.launch(grid, block, kernel, (const T*)source, len, partials, p.perturb, p.delayThread,
             p.delayLevel - 1, recorder);
  };
  runLastWarp<B, T>(b, p, input, trace, launch, out);
}

template <class B, class T, class Op>
void driveLastWarpVolatile(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                           Trace& out) {
  runLastWarpKernel<B, T>(b, p, input, trace, lastWarpVolatile<T, Op>, out);
}

template <class B, class T, class Op>
void driveLastWarpPlain(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                        Trace& out) {
  runLastWarpKernel<B, T>(b, p, input, trace, lastWarpPlain<T, Op>, out);
  out.notes.push_back(Message("note.lastwarp.plain"));
}

template <class B, class T, class Op>
void driveLastWarpSyncwarp(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                           Trace& out) {
  auto launch = [&](dim3 grid, dim3 block, T* source, long long len, T* partials,
                    StepRecorder<T> recorder) {
    b.launch(grid, block, lastWarpSyncwarp<T, Op>, (const T*)source, len, partials, p.syncwarp,
             p.perturb, p.delayThread, p.delayLevel - 1, recorder);
  };
  runLastWarp<B, T>(b, p, input, trace, launch, out);
  if (!p.syncwarp) out.notes.push_back(Message("note.lastwarp.syncwarp-off"));
}

template <class B, class T, class Op>
void driveLastWarpShuffle(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                          Trace& out) {
  runLastWarpKernel<B, T>(b, p, input, trace, lastWarpShuffle<T, Op>, out);
}

}  // namespace rlab
