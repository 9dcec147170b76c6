// shared coarsened with every elements-per-thread count the tests sweep, with and without the
// add during the load, at awkward n, against a host reference: on the simulator
// (coarsening_test.cpp) and on the GPU (gpu_test.cpp), the same cases.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>

#include "lessons/engine/params.hpp"
#include "lessons/engine/run.hpp"

namespace rlab::testing {

// shared coarsened over n elements, iota, in blocks of `block` (0: the default).
inline Params coarsenedParams(int64_t n, int block, int perThread, bool loadAdd) {
  Params p;
  p.lesson = "shared";
  p.variant = "coarsened";
  p.n = n;
  p.block = block;
  p.data = "iota";
  p.perThread = perThread;
  p.loadAdd = loadAdd;
  return p;
}

inline void checkCoarsenedSweep(BackendChoice backend) {
  for (const int perThread : {1, 2, 3, 7, 16, 32})
    for (const bool loadAdd : {true, false})
      for (const int64_t n :
           {int64_t(1), int64_t(3), int64_t(255), int64_t(1000), (int64_t(1) << 16) + 3})
        for (const ElementType type : {ElementType::Int, ElementType::Float}) {
          Params p = coarsenedParams(n, 0, perThread, loadAdd);
          p.type = type;
          p.data = "random:7";
          p.backend = backend;
          p.trace = false;
          p.timed = false;
          CAPTURE(perThread);
          CAPTURE(loadAdd);
          CAPTURE(n);
          CAPTURE(name(type));
          const Trace t = runLesson(p);
          CHECK(t.backend == (backend == BackendChoice::Gpu ? "gpu" : "sim"));
          // The host reference: the plain loop over the same input. The data are whole numbers
          // 0..9, so every partial sum is exact in both types: the result must equal it.
          double sum = 0;
          for (double v : makeInput(resolve(p))) sum += v;
          CHECK(t.correct);
          CHECK(t.result == sum);
        }
}

}  // namespace rlab::testing
