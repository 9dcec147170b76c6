#pragma once
#include "kernels/divergence.cuh"
#include "lessons/engine/run/tree_passes.hpp"

namespace rlab {

template <class B, class T, class Op>
void driveInterleaved(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                      Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, interleaved<T, Op>, StrideOrder::Up, true, out);
}

template <class B, class T, class Op>
void driveInterleavedMask(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                          Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, interleavedMask<T, Op>, StrideOrder::Up, true, out);
}

template <class B, class T, class Op>
void driveStrided(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                  Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, strided<T, Op>, StrideOrder::Up, true, out);
}

template <class B, class T, class Op>
void driveSequential(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                     Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, sequential<T, Op>, StrideOrder::Down, true, out);
}

}  // namespace rlab
