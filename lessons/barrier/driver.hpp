#pragma once
#include "kernels/barrier.cuh"
#include "lessons/driver_support.hpp"

namespace rlab {

template <class B, class T, class Op>
DriverOutput<T> driveBarrier(B& b, const Params& p, typename B::template Buffer<T>& a, bool trace) {
  DriverOutput<T> out;
  const bool shared = p.variant == "shared";
  const int levels = levelsBelow(shared ? p.block : p.n);
  Recording<B, T> rec(b, trace, levels, 0, p.block);
  const auto initial = trace ? downloadAsDoubles<B, T>(b, a, size_t(p.n)) : std::vector<double>{};
  auto kernel = shared ? treeShared<T, Op> : treeGlobal<T, Op>;
  b.launch(dim3(1), dim3(unsigned(p.block)), kernel, a.get(), int(p.n), p.barrier, p.perturb,
           rec.recorder());
  std::vector<std::string> labels;
  for (int k = 0, i = 1; k < levels; ++k, i *= 2)
    labels.push_back("level " + std::to_string(k + 1) + ": a[tid] += a[tid + " + std::to_string(i) +
                     "] where tid % " + std::to_string(2 * i) + " == 0");
  out.steps = rec.snapshots(labels, initial);
  out.result = downloadOne<B, T>(b, a);
  if (!p.barrier)
    out.notes.push_back(
        "The barrier is off: a thread may read its neighbour before the "
        "neighbour has finished the level below.");
  return out;
}

}  // namespace rlab
