#pragma once
#include "kernels/butterfly.cuh"
#include "lessons/driver_support.hpp"

namespace rlab {

// Both variants: one launch, a thread per element, every thread ending with its block's total.
template <class B, class T, class Op, class Kernel>
void runButterfly(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                  Kernel kernel, const std::vector<std::string>& labels, Trace& out) {
  const long long blocks = blocksFor(p.n, p.block);
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  Recording<B, T> rec(b, trace, int(labels.size()), 0, blocks * p.block);
  const auto initial =
      trace ? downloadAsDoubles<B, T>(b, input, size_t(p.n)) : std::vector<double>{};
  b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), kernel, (const T*)input.get(),
           (long long)p.n, result.get(), rec.recorder());
  appendSteps(out, rec.snapshots(labels, initial));
  out.result = double(downloadOne<B, T>(b, result));
}

template <class B, class T, class Op>
void driveButterflyShared(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                          Trace& out) {
  std::vector<std::string> labels;
  for (int bit = p.block / 2; bit > 0; bit /= 2)
    labels.push_back("partner i ^ " + std::to_string(bit));
  runButterfly<B, T, Op>(b, p, input, trace, butterflyShared<T, Op>, labels, out);
}

template <class B, class T, class Op>
void driveButterflyShuffle(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                           Trace& out) {
  std::vector<std::string> labels;
  for (int bit = 16; bit > 0; bit /= 2)
    labels.push_back("lanes swap with lane ^ " + std::to_string(bit));
  for (int bit = 16; bit > 0; bit /= 2)
    labels.push_back("across warps: warp total ^ " + std::to_string(bit));
  runButterfly<B, T, Op>(b, p, input, trace, butterflyShuffle<T, Op>, labels, out);
}

}  // namespace rlab
