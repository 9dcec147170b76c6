#pragma once
#include "kernels/barrier.cuh"
#include "lessons/engine/run/driver_support.hpp"

namespace rlab {

// Both variants: one block, every level in one launch. The shared-memory tree runs over the
// whole block (padding with the identity), the global one over n. `array` is what the kernel
// calls the array it combines in (a, or the shared s), for the step labels.
template <class B, class T, class Kernel>
void runBarrierTree(B& b, const Params& p, typename B::template Buffer<T>& a, bool trace,
                    Kernel kernel, int levels, const std::string& array, Trace& out) {
  Recording<B, T> rec(b, trace, levels, 0, p.block, /*clocks=*/true);  // for the timeline
  const auto initial = trace ? downloadAsDoubles<B, T>(b, a, size_t(p.n)) : std::vector<double>{};
  // The kernel counts levels from 0; --delay counts them as the steps do, from 1.
  b.launch(dim3(1), dim3(unsigned(p.block)), kernel, a.get(), int(p.n), p.barrier, p.perturb,
           p.printing, p.delayThread, p.delayLevel - 1, rec.recorder());
  std::vector<Message> labels;
  for (int k = 0, i = 1; k < levels; ++k, i *= 2)
    labels.push_back(Message("step.barrier.level",
                             {{"level", k + 1},
                              {"combine", combineText(p.op, array + "[tid]",
                                                      array + "[tid + " + std::to_string(i) + "]")},
                              {"condition", "tid % " + std::to_string(2 * i) + " == 0"}}));
  std::vector<StepSnapshot> steps = rec.snapshots(labels, initial);
  for (StepSnapshot& step : steps) step.array = array;
  appendSteps(out, std::move(steps));
  out.result = double(downloadOne<B, T>(b, a));
  if (p.delayThread >= 0)
    out.notes.push_back(Message("note.barrier.delay", {{"thread", p.delayThread},
                                                       {"level", p.delayLevel},
                                                       {"delay", "--delay " + delayText(p)}}));
  if (!p.barrier) out.notes.push_back(Message("note.barrier.off"));
}

template <class B, class T, class Op>
void driveBarrierGlobal(B& b, const Params& p, typename B::template Buffer<T>& a, bool trace,
                        Trace& out) {
  runBarrierTree<B, T>(b, p, a, trace, treeGlobal<T, Op>, levelsBelow(p.n), "a", out);
}

template <class B, class T, class Op>
void driveBarrierShared(B& b, const Params& p, typename B::template Buffer<T>& a, bool trace,
                        Trace& out) {
  runBarrierTree<B, T>(b, p, a, trace, treeShared<T, Op>, levelsBelow(p.block), "s", out);
}

}  // namespace rlab
