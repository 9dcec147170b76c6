#pragma once
#include "kernels/butterfly.cuh"
#include "lessons/engine/run/driver_support.hpp"

namespace rlab {

// Both variants: one launch, a thread per element, every thread ending with its block's total.
// `launch(grid, block, result, offTotal, recorder)` launches the variant's kernel; offTotal
// counts the threads that ended with a total other than their block's thread 0's.
template <class B, class T, class Op, class Launch>
void runButterfly(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                  Launch launch, const std::vector<Message>& labels, Trace& out) {
  const long long blocks = blocksFor(p.n, p.block);
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto offTotal = bufferHolding<B, unsigned>(b, 1, 0u);
  Recording<B, T> rec(b, trace, int(labels.size()), 0, blocks * p.block);
  // Every thread of a block takes part, those past n with the identity: the steps show them all,
  // so that a partner past n is a cell like any other.
  auto initial = trace ? downloadAsDoubles<B, T>(b, input, size_t(p.n)) : std::vector<double>{};
  if (trace) initial.resize(size_t(blocks * p.block), double(Op::template identity<T>()));
  launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), result.get(), offTotal.get(),
         rec.recorder());
  appendSteps(out, rec.snapshots(labels, initial));
  if (trace && p.n < blocks * p.block) {
    // The input too: the lanes past n are there from the start, holding the identity.
    out.steps.front().values.resize(size_t(blocks * p.block), double(Op::template identity<T>()));
    for (StepSnapshot& step : out.steps) step.paddingFrom = p.n;
  }
  out.result = double(downloadOne<B, T>(b, result));
  out.threadsOffTotal = downloadOne<B, unsigned>(b, offTotal);
}

template <class B, class T, class Op>
void driveButterflyShared(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                          Trace& out) {
  std::vector<Message> labels;
  for (int bit = p.block / 2; bit > 0; bit /= 2)
    labels.push_back(
        Message("step.butterfly.partner", {{"partner", "i ^ " + std::to_string(bit)}}));
  auto launch = [&](dim3 grid, dim3 block, T* result, unsigned* offTotal,
                    StepRecorder<T> recorder) {
    b.launch(grid, block, butterflyShared<T, Op>, (const T*)input.get(), (long long)p.n, result,
             p.barrier, p.perturb, offTotal, recorder);
  };
  runButterfly<B, T, Op>(b, p, input, trace, launch, labels, out);
  for (size_t k = 1; k < out.steps.size(); ++k) out.steps[k].array = "s";
  if (!p.barrier) out.notes.push_back(Message("note.butterfly.barrier-off"));
}

template <class B, class T, class Op>
void driveButterflyShuffle(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                           Trace& out) {
  std::vector<Message> labels;
  for (int bit = 16; bit > 0; bit /= 2)
    labels.push_back(
        Message("step.butterfly.lanes", {{"partner", "lane ^ " + std::to_string(bit)}}));
  labels.push_back(Message("step.butterfly.lane-takes-warp"));
  for (int bit = 16; bit > 0; bit /= 2)
    labels.push_back(
        Message("step.butterfly.warps", {{"partner", "lane ^ " + std::to_string(bit)}}));
  auto launch = [&](dim3 grid, dim3 block, T* result, unsigned* offTotal,
                    StepRecorder<T> recorder) {
    b.launch(grid, block, butterflyShuffle<T, Op>, (const T*)input.get(), (long long)p.n, result,
             offTotal, recorder);
  };
  runButterfly<B, T, Op>(b, p, input, trace, launch, labels, out);
  // From the sixth step on, the cells are lanes holding warp totals, not elements.
  for (size_t k = 6; k < out.steps.size(); ++k) out.steps[k].cells = CellKind::LaneWarpTotals;
}

}  // namespace rlab
