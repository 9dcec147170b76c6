// One entry point per backend: picks the lesson's driver for the run's type and operator.
// Included by the backend's translation unit (g++ for the simulator, nvcc for the GPU).
#pragma once

#include <type_traits>

#include "lessons/atomic/driver.hpp"
#include "lessons/barrier/driver.hpp"
#include "lessons/butterfly/driver.hpp"
#include "lessons/divergence/driver.hpp"
#include "lessons/fastest/driver.hpp"
#include "lessons/folding/driver.hpp"
#include "lessons/run_output.hpp"
#include "lessons/shared/driver.hpp"

namespace rlab {

template <class B, class T, class Op>
DriverOutput<T> driveLesson(B& b, const Params& p, typename B::template Buffer<T>& input,
                            bool trace) {
  const std::string& id = p.lesson;
  if (id == "atomic") return driveAtomic<B, T, Op>(b, p, input, trace);
  if (id == "folding") return driveFolding<B, T, Op>(b, p, input, trace);
  if (id == "barrier") return driveBarrier<B, T, Op>(b, p, input, trace);
  if (id == "divergence") return driveDivergence<B, T, Op>(b, p, input, trace);
  if (id == "shared") return driveShared<B, T, Op>(b, p, input, trace);
  if (id == "butterfly") return driveButterfly<B, T, Op>(b, p, input, trace);
  return driveFastest<B, T, Op>(b, p, input, trace);
}

template <class B, class T>
typename B::template Buffer<T> uploadInput(B& b, const std::vector<double>& input) {
  std::vector<T> host(input.begin(), input.end());
  auto buffer = b.template alloc<T>(host.size());
  b.upload(buffer, host.data(), host.size());
  return buffer;
}

template <class B, class T, class Op>
RunOutput runTyped(B& b, const Params& p, const std::vector<double>& input, bool trace) {
  auto buffer = uploadInput<B, T>(b, input);
  DriverOutput<T> d = driveLesson<B, T, Op>(b, p, buffer, trace);
  RunOutput out;
  out.result = double(d.result);
  out.steps = std::move(d.steps);
  out.atomicOrder = std::move(d.atomicOrder);
  out.blockPartials = std::move(d.blockPartials);
  out.notes = std::move(d.notes);
  return out;
}

template <class B, class T>
RunOutput runWithOp(B& b, const Params& p, const std::vector<double>& input, bool trace) {
  switch (p.op) {
    case Op::Sum:
      return runTyped<B, T, SumOp>(b, p, input, trace);
    case Op::Max:
      return runTyped<B, T, MaxOp>(b, p, input, trace);
    case Op::Min:
      return runTyped<B, T, MinOp>(b, p, input, trace);
    case Op::Product:
      return runTyped<B, T, ProductOp>(b, p, input, trace);
  }
  return {};
}

template <class B>
RunOutput runOnBackend(B& b, const Params& p, const std::vector<double>& input, bool trace) {
  if (p.type == ElementType::Int) return runWithOp<B, int>(b, p, input, trace);
  return runWithOp<B, float>(b, p, input, trace);
}

}  // namespace rlab
