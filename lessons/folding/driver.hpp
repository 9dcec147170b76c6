#pragma once
#include "kernels/folding.cuh"
#include "lessons/driver_support.hpp"

namespace rlab {

// One launch per step; the snapshot of each step is a copy of the array after its launch.
template <class B, class T, class Op>
void driveFolding(B& b, const Params& p, typename B::template Buffer<T>& a, bool trace,
                  Trace& out) {
  for (long long len = p.n; len > 1;) {
    const long long reduce = len / 2, remain = len - reduce;
    Recording<B, T> rec(b, trace, 1, 0, reduce);
    const auto initial = trace ? downloadAsDoubles<B, T>(b, a, size_t(len)) : std::vector<double>{};
    b.launch(dim3(unsigned(blocksFor(reduce, p.block))), dim3(unsigned(p.block)), foldStep<T, Op>,
             a.get(), reduce, remain, rec.recorder());
    if (trace) {
      std::vector<StepSnapshot> step =
          rec.snapshots({"len " + std::to_string(len) + ": " +
                         combineText(p.op, "a[i]", "a[i + " + std::to_string(remain) + "]") +
                         " for i < " + std::to_string(reduce)},
                        initial);
      step.front().values = downloadAsDoubles<B, T>(b, a, size_t(remain));  // the live part
      appendSteps(out, std::move(step));
    }
    len = remain;
  }
  out.result = double(downloadOne<B, T>(b, a));
}

}  // namespace rlab
