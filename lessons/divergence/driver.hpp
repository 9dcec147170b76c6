#pragma once
#include "kernels/divergence.cuh"
#include "lessons/tree_passes.hpp"

namespace rlab {

template <class B, class T, class Op>
DriverOutput<T> driveDivergence(B& b, const Params& p, typename B::template Buffer<T>& input,
                                bool trace) {
  DriverOutput<T> out;
  if (p.variant == "interleaved")
    runTreePasses<B, T>(b, p, input, trace, interleaved<T, Op>, StrideOrder::Up, true, out);
  else if (p.variant == "strided")
    runTreePasses<B, T>(b, p, input, trace, strided<T, Op>, StrideOrder::Up, true, out);
  else
    runTreePasses<B, T>(b, p, input, trace, sequential<T, Op>, StrideOrder::Down, true, out);
  return out;
}

}  // namespace rlab
