#pragma once
#include <utility>

#include "kernels/folding.cuh"
#include "lessons/engine/run/driver_support.hpp"

namespace rlab {

// Recording only: one fold's snapshot, its live part (the `remain` elements the next step
// folds) read back from the buffer the launch wrote.
template <class B, class T>
void recordFold(B& b, Recording<B, T>& rec, const Message& label, const std::vector<double>& before,
                const typename B::template Buffer<T>& written, long long remain, Trace& out) {
  std::vector<StepSnapshot> step = rec.snapshots({label}, before);
  step.front().values = downloadAsDoubles<B, T>(b, written, size_t(remain));
  appendSteps(out, std::move(step));
}

// One launch per step, in place: a[i] += a[i + remain] for i < reduce.
template <class B, class T, class Op>
void driveFolding(B& b, const Params& p, typename B::template Buffer<T>& a, bool trace,
                  Trace& out) {
  for (long long len = p.n; len > 1;) {
    const long long reduce = len / 2, remain = len - reduce;
    const long long blocks = blocksFor(reduce, p.block);  // one thread per addition
    Recording<B, T> rec(b, trace, 1, 0, reduce);
    const auto before = trace ? downloadAsDoubles<B, T>(b, a, size_t(len)) : std::vector<double>{};
    b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), foldStep<T, Op>, a.get(), reduce,
             remain, rec.recorder());
    b.launches.note({{"len", len}, {"reduce", reduce}, {"remain", remain}});
    if (trace)
      recordFold(
          b, rec,
          Message("step.folding.fold",
                  {{"len", len},
                   {"combine", combineText(p.op, "a[i]", "a[i + " + std::to_string(remain) + "]")},
                   {"condition", "i < " + std::to_string(reduce)}}),
          before, a, remain, out);
    len = remain;
  }
  out.result = double(downloadOne<B, T>(b, a));
}

// The seed's double buffer: each launch reads one buffer and writes the folded front half into
// the other, then the two swap. The second buffer only ever holds a front half: n - n / 2.
template <class B, class T, class Op>
void driveFoldingDoubleBuffer(B& b, const Params& p, typename B::template Buffer<T>& a, bool trace,
                              Trace& out) {
  auto second = b.template alloc<T>(size_t(p.n - p.n / 2));
  auto *from = &a, *to = &second;  // swapped after each launch, never the buffers themselves
  for (long long len = p.n; len > 1;) {
    const long long reduce = len / 2, remain = len - reduce;
    const long long blocks = blocksFor(remain, p.block);  // the middle element is copied too
    Recording<B, T> rec(b, trace, 1, 0, reduce);
    const auto before =
        trace ? downloadAsDoubles<B, T>(b, *from, size_t(len)) : std::vector<double>{};
    b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), foldInto<T, Op>,
             (const T*)from->get(), to->get(), reduce, remain, rec.recorder());
    b.launches.note({{"len", len}, {"reduce", reduce}, {"remain", remain}});
    if (trace)
      recordFold(
          b, rec,
          Message(len % 2 ? "step.folding.fold-into-middle" : "step.folding.fold-into",
                  {{"len", len},
                   {"combine", "out[i] = " + applyText(p.op, "in[i]",
                                                       "in[i + " + std::to_string(remain) + "]")},
                   {"condition", "i < " + std::to_string(reduce)},
                   {"middle",
                    "out[" + std::to_string(reduce) + "] = in[" + std::to_string(reduce) + "]"}}),
          before, *to, remain, out);
    std::swap(from, to);
    len = remain;
  }
  out.result = double(downloadOne<B, T>(b, *from));
}

}  // namespace rlab
