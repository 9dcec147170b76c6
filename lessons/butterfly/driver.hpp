#pragma once
#include "kernels/butterfly.cuh"
#include "lessons/driver_support.hpp"

namespace rlab {

template <class B, class T, class Op>
DriverOutput<T> driveButterfly(B& b, const Params& p, typename B::template Buffer<T>& input,
                               bool trace) {
  DriverOutput<T> out;
  const bool shuffle = p.variant == "shuffle";
  const long long blocks = blocksFor(p.n, p.block);
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  std::vector<std::string> labels;
  if (shuffle) {
    for (int bit = 16; bit > 0; bit /= 2)
      labels.push_back("lanes swap with lane ^ " + std::to_string(bit));
    for (int bit = 16; bit > 0; bit /= 2)
      labels.push_back("across warps: warp total ^ " + std::to_string(bit));
  } else {
    for (int bit = p.block / 2; bit > 0; bit /= 2)
      labels.push_back("partner i ^ " + std::to_string(bit));
  }
  Recording<B, T> rec(b, trace, int(labels.size()), 0, blocks * p.block);
  const auto initial =
      trace ? downloadAsDoubles<B, T>(b, input, size_t(p.n)) : std::vector<double>{};
  auto kernel = shuffle ? butterflyShuffle<T, Op> : butterflyShared<T, Op>;
  b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), kernel, (const T*)input.get(),
           (long long)p.n, result.get(), rec.recorder());
  out.steps = rec.snapshots(labels, initial);
  out.result = downloadOne<B, T>(b, result);
  return out;
}

}  // namespace rlab
